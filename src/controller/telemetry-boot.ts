import { effect } from '@preact/signals-core';
import type { PastEvent } from '../core/bus';
import type { PlayerApi } from '../core/player-api';

/**
 * Past events kept for pieces still loading. Pre-roll ads run before the first frame and report
 * four ad:timeupdate events a second, so this covers minutes of ads; it only bounds memory when a
 * piece that takes them never starts (no frame ever comes, or its file failed to load).
 */
const MAX_PAST = 1000;

/**
 * The fingerprint waits this long past the first frame: FingerprintJS's probes (fonts, canvas, audio)
 * are main-thread tasks of about 100 ms that cannot be split, and the viewer's first seconds (the
 * controls showing, the first clicks) stay smooth without them. Nothing waits for it.
 */
export const FINGERPRINT_DELAY_MS = 5000;

/**
 * Starts the lazy telemetry, off the critical path (DESIGN): analytics after the first frame, the
 * device fingerprint some seconds later; error reporting then, or at the first error if that comes
 * first (no frame may ever come). With an ad list, analytics loads once the start settles
 * (start-settled.ts: a pre-roll's first frame at the latest): a pre-roll plays before the content's
 * first frame, and its events must be sent as they happen (a viewer who leaves during it still counts);
 * asked before, it held one of the six connections the ad list and the playlists waited for. What
 * happened before a piece loaded is kept and replayed to it, so the first play is counted and an early
 * error is still reported.
 */
export function bootTelemetry(player: PlayerApi): void {
  const { bus, config, store, load: loadPiece } = player;
  const past: PastEvent[] = [];
  const stopKeeping = bus.tap((event, payload) => {
    if (past.length < MAX_PAST) past.push({ event, payload, at: performance.now(), time: store.currentTime.peek() });
  });
  player.onDestroy(stopKeeping);
  // The pieces that replay what happened before them (the fingerprint does not). Once each has started,
  // nothing more is kept: kept on, the tap would hold a session's first 1000 events for the page's
  // life (a media:stats for each fragment loaded: ~50 a minute of a film).
  const replaying = new Set<string>(config.sentryDsn ? ['analytics', 'sentry'] : ['analytics']);
  const load = (name: 'analytics' | 'fingerprint' | 'sentry') =>
    // A piece that fails to load only costs its own feature (the error names the file).
    loadPiece(name).then((m) => {
      m.start(player, past);
      if (replaying.delete(name) && !replaying.size) {
        stopKeeping();
        past.length = 0;
      }
    }, console.warn);
  // The sentry piece starts once per player however often it is asked (sentry-widget.ts).
  const sentry = () => config.sentryDsn && load('sentry');
  const withAds = !!config.envAdListUrl;
  // startSettled turns true once and stays so: one load, as the pieces' in controller/player.ts.
  if (withAds) player.onDestroy(effect(() => void (store.startSettled.value && load('analytics'))));
  // Every new source has a first frame; only the first one matters here.
  const off = bus.on('media:first-frame', () => {
    off();
    if (!withAds) load('analytics');
    sentry();
    const timer = setTimeout(() => load('fingerprint'), FINGERPRINT_DELAY_MS);
    player.onDestroy(() => clearTimeout(timer));
  });
  player.onDestroy(off);
  player.onDestroy(bus.on('player:error', ({ error }) => error.fatal && sentry()));
}
