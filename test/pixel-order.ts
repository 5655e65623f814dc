// Shared by the e2e tests' and the engine journeys' ad checks.

/**
 * One ad's pixels as the reference server logged them, in the order the player fires them. Impression
 * and start leave in one call on the ad's first frame played, each a request of its own on parallel
 * connections, so the server may log start first (the unit tests of the ad session hold the call
 * order). Every other pixel fires on a later frame, and keeps its place.
 */
export function firingOrder(events: readonly string[]): string[] {
  const out = [...events];
  const impression = out.indexOf('impression');
  const start = out.indexOf('start');
  if (impression > start && start >= 0) {
    out.splice(impression, 1);
    out.splice(start, 0, 'impression');
  }
  return out;
}
