// Lazy piece "analytics": the SPEC §7 events, sent through the page's global event function.
import type { PastEvent } from '../core/bus';
import type { PlayerApi } from '../core/player-api';
import { deviceType } from './device';
import { createTracker } from './tracker';

/** The gtag convention: fn('event', name, fields). The function is looked up at each call, so one
 * defined after the player started still receives events; none means no-op. */
export function start(player: PlayerApi, past: PastEvent[]): void {
  const name = player.config.analyticsFunction ?? 'gtag';
  const tracker = createTracker({
    bus: player.bus,
    store: player.store,
    userId: player.config.query.userId,
    deviceType: deviceType(navigator.userAgent, navigator.maxTouchPoints),
    downlinkMbps: () => (navigator as { connection?: { downlink?: number } }).connection?.downlink,
    send(event, fields) {
      const fn = (window as unknown as Record<string, unknown>)[name];
      if (typeof fn !== 'function') return;
      try {
        fn('event', event, fields);
      } catch (err) {
        console.warn('[player] analytics function failed', err);
      }
    },
  });
  tracker.replay(past);
  player.onDestroy(tracker.destroy);
}
