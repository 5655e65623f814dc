// Lazy piece "sentry": error reporting (SPEC §7, §9). Loaded after the first frame or at the first
// error, only when a DSN is configured; errors raised before it loaded are replayed to it.
import {
  type ErrorEvent,
  browserTracingIntegration,
  captureException,
  init,
  replayIntegration,
} from '@sentry/browser';
import type { PlayerApi } from '../core/player-api';
import type { PastEvent, PlayerEvents } from '../core/bus';
import type { PlayerError } from '../core/errors';
import { buildReport, shouldReport } from './report';
import { scrub } from './scrub';

// The SDK is one client per page (it patches globals such as fetch and onerror), so the first
// player's DSN configures it; each player still reports its own errors, once.
let initialised = false;
const players = new WeakSet<PlayerApi>();

export function start(player: PlayerApi, past: PastEvent[]): void {
  const { config, bus } = player;
  if (!config.sentryDsn || players.has(player)) return;
  players.add(player);
  if (!initialised) {
    initialised = true;
    init({
      dsn: config.sentryDsn,
      environment: 'production',
      tracesSampleRate: 0.1,
      // In a frame sandboxed without allow-same-origin the page's origin is opaque, so every request is
      // cross-origin; the SDK judges "same origin" by location.href and would add sentry-trace and
      // baggage to the player's own media and API requests: each would need a preflight (one per
      // segment), refused where the host does not allow those headers.
      tracePropagationTargets: self.origin === 'null' ? [] : undefined,
      replaysSessionSampleRate: 0,
      replaysOnErrorSampleRate: 1,
      // Dedupe would drop a repeated error (the same failure after "reload"), and the screen would
      // show an id the service never received.
      integrations: (defaults) => [
        ...defaults.filter((i) => i.name !== 'Dedupe'),
        browserTracingIntegration(),
        replayIntegration(),
      ],
      initialScope: { tags: { project: config.sentryProjectLabel ?? '' } },
      beforeSend: (event: ErrorEvent) => scrub(event),
      beforeSendTransaction: (event) => scrub(event),
      beforeBreadcrumb: (crumb) => scrub(crumb),
    });
  }
  const report = (error: PlayerError) => {
    if (!shouldReport(error)) return;
    const { exception, hint } = buildReport(error);
    captureException(exception, hint);
  };
  for (const e of past) if (e.event === 'player:error') report((e.payload as PlayerEvents['player:error']).error);
  player.onDestroy(bus.on('player:error', ({ error }) => report(error)));
}
