import { effect } from '@preact/signals-core';
import { createAdGate } from '../ads/gate';
import { type EmbedConfig, apiBaseOf } from '../config/embed-config';
import { createBus } from '../core/bus';
import type { PieceLoader, PlayerApi, PlayerParts } from '../core/player-api';
import type { LaterRequests } from '../core/requests';
import { createStore } from '../core/store';
import { detectOffers } from '../providers/capabilities';
import { detectCapabilities } from '../providers/engine';
import { bindMedia } from '../providers/media';
import { engineDeferred } from '../providers/start-guess';
import { MUTED_KEY, VOLUME_KEY, recall } from '../storage/memory';
import { createContentSession } from './content-session';
import { createErrorHandling } from './errors';
import { shouldStretch } from './fullscreen';
import { createPlayback } from './playback';
import { createRequests } from './requests';
import { settleStart } from './start-settled';
import { bootTelemetry } from './telemetry-boot';

export interface PlayerEnv {
  /** The embedding page's address, for the availability check. */
  domain: string;
  /** The player page's own address: relative catalogue links resolve against the API base or it. */
  pageUrl: string;
  /** Imports lazy pieces (core/pieces.ts createPieceLoader; tests pass fakes). */
  load: PieceLoader;
}

/**
 * Wires one player: store and bus, the content session, the media once the UI attaches it, the ad
 * gate, requests, the lazy features and telemetry. Each part lives in its own module here.
 */
export function createPlayer(config: EmbedConfig, env: PlayerEnv): PlayerApi {
  const store = createStore();
  const bus = createBus();
  const { load } = env;
  const caps = detectCapabilities();
  // The controls the interface may offer: cast, picture-in-picture, AirPlay, fullscreen (issue 24).
  store.offers.value = detectOffers(shouldStretch(config.fullscreenMode));
  const disposers: Array<() => void> = [];
  let alive = true;

  // The first local-storage access waits for the browser to load the origin's storage (tens of ms on
  // a busy device): it happens in a task of its own while the catalogue calls are out, not in the
  // first render's (attach below reads it again, from memory then).
  setTimeout(() => recall(VOLUME_KEY));

  // Evaluates the hls.js module the HTML already preloads, in parallel with the catalogue calls; on a
  // first visit without ads it is asked once the start's first fragments are in (providers/media.ts).
  if (caps.mediaSource && !engineDeferred()) load('hls').catch(() => {});

  const playback = createPlayback(store, caps, config.query.autoPlay, () => gate.holds());
  const errors = createErrorHandling(store, bus, () => playback.media()?.pause('api'));
  // SPEC §4 ad loader: an ad that is ready pauses the content (to resume after it); stopped releases it.
  const gate = createAdGate(store, bus, config, load, {
    onReady() {
      // Autoplay asks for the ad to play as for the film (the runner plays a break once asked).
      if (!store.paused.peek() || playback.autoplayPending()) store.playRequested.value = true;
      playback.media()?.pause('ad');
    },
    onStopped: () => playback.startIfAsked('ad'),
    takeContentPip: async () => playback.media()?.takePip(),
  });
  let container: HTMLElement | undefined;
  // Seeking, volume, tracks, fullscreen, picture-in-picture and cast: a lazy piece, asked for once the
  // start settled (below) or at a viewer's first such request, and never waited for; requests.ts
  // forwards to it.
  let later: LaterRequests | undefined;
  let laterLoad: Promise<LaterRequests> | undefined;
  const loadLater = () =>
    (laterLoad ??= load('requests').then(
      (m) => {
        later = m.createLaterRequests({
          store,
          bus,
          fullscreenMode: config.fullscreenMode,
          container: () => container,
          media: playback.media,
          ready: playback.ready,
          setSource,
        });
        player.onDestroy(later.dispose);
        return later;
      },
      (err) => {
        laterLoad = undefined;
        throw err;
      },
    ));
  const setSource = (url: string, startAt: number) => {
    later?.cancelSeeks();
    playback.setSource(url, startAt);
  };
  const session = createContentSession({
    store,
    bus,
    config,
    domain: env.domain,
    apiBase: apiBaseOf(config, env.pageUrl),
    load,
    fail: errors.fail,
    setSource,
  });

  const requests = createRequests({
    store,
    playback,
    adHolds: gate.holds,
    loadEpisode: (episode, startAt) => void session.selectEpisode(episode, startAt),
    later: () => later,
    loadLater,
    variantChanged(episode, variantId) {
      const variant = episode.episodeVariants?.find((v) => v.id === variantId);
      if (!variant) return false;
      store.activeVariantId.value = variantId;
      bus.emit('content:variant-changed', { episode, variant });
      return true;
    },
    retry() {
      const episode = store.episode.value;
      const at = store.currentTime.value;
      store.error.value = null;
      if (store.content.value && episode) void session.selectEpisode(episode, at);
      else void session.start();
    },
  });

  disposers.push(
    errors.dispose,
    gate.destroy,
    session.dispose,
    // Remembered for a returning viewer by the features piece, which loads after the first frame.
    bus.on('media:first-frame', () => {
      const source = playback.loaded();
      const asked = source?.prefetched?.firstAsked();
      store.firstAsked.value = source && asked ? { url: source.url, startAt: source.startAt, ...asked } : null;
    }),
    // SPEC §4: content that is not available raises the blocked error once the placeholder plays.
    effect(() => {
      if (!store.isAvailable.value && (store.started.value || store.ended.value)) errors.fail('content-blocked', 'content not available here');
    }),
  );

  const parts: PlayerParts = { store, bus, requests, config, load };
  disposers.push(settleStart(store, bus, config.query.autoPlay));
  // Memory, binge and the parent-page protocol: their own piece, never in front of the content (it
  // waits for the start to settle), and independent of the controls piece (a failed interface still
  // saves and moves on). Seeking, volume and the rest (`requests`) too; a viewer's request asks for
  // that piece at once.
  disposers.push(
    effect(() => {
      if (!store.startSettled.value) return;
      load('features').then(
        (m) => alive && disposers.push(m.attachFeatures(parts)),
        (err) => console.error('[player] piece features failed to load', err),
      );
      loadLater().catch((err) => console.warn('[player] piece requests failed to load', err));
    }),
  );

  const player: PlayerApi = {
    ...parts,
    ads: gate.handle,
    attach(video, root) {
      container = root;
      const media = bindMedia(video, {
        store,
        bus,
        caps,
        load,
        onFailure: (code, f) => errors.fail(code, `${f.message} ${f.details}`, { cause: f, address: f.url }),
      });
      // SPEC §3: the viewer's volume and mute, before anything plays.
      const volume = recall(VOLUME_KEY);
      if (typeof volume === 'number' && volume >= 0 && volume <= 1) media.setVolume(volume);
      if (recall(MUTED_KEY) === true) media.setMuted(true);
      playback.attach(media);
    },
    start: session.start,
    onDestroy(fn) {
      if (alive) disposers.push(fn);
      else fn();
    },
    destroy() {
      alive = false;
      playback.media()?.destroy();
      disposers.forEach((d) => d());
    },
  };
  bootTelemetry(player);
  return player;
}
