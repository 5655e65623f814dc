// @ts-check
/**
 * The server's per-request logs (requests, ad hits, CSP reports, Sentry events and items, token
 * refreshes, time-progress bodies) keep only their newest entries, so a server that runs for long
 * (`npm start`, `npm run bench:server`) stays flat in memory instead of growing with every request.
 *
 * Why a cap and these sizes: the end-to-end tests read the logs as they are (filters over the whole
 * log, `find`, `assert.equal` against arrays) and reset them in place, with no switch to turn on. A
 * whole end-to-end run (78 tests) sends about 4,500 requests, at most about 830 between two
 * `clearRequests()`; the other logs hold a few dozen entries at most between resets. 5,000 requests
 * hold a whole run as it is today and six times the busiest test, and cost at most ~3 MB (an entry
 * with a browser's headers is ~600 B). 1,000 entries are far beyond what any test produces for the
 * other logs, whose entries can be bigger (a CSP report or a Sentry event is up to tens of kB).
 */
export const REQUEST_LOG_LIMIT = 5000;
export const EVENT_LOG_LIMIT = 1000;

/**
 * Appends `entry` and drops the oldest entries beyond `limit`, so the newest entry is always last.
 * The log stays a plain array: tests filter it, compare it with `assert.equal` and empty it with
 * `length = 0`.
 * @template T
 * @param {T[]} list
 * @param {T} entry
 * @param {number} limit
 */
export function appendCapped(list, entry, limit) {
  list.push(entry);
  while (list.length > limit) list.shift();
}
