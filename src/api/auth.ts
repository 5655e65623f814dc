import { deadline, whenAborted } from '../core/deadline';
import { readCookie } from '../storage/cookies';
import { commonHeaders } from './headers';

/** A refresh (its piece included) that has not answered by then has failed: go on with the old token (SPEC §4). */
export const REFRESH_TIMEOUT_MS = 5000;

/**
 * The Bearer token for a secure call (SPEC §4). A valid token (or none) costs nothing more: it is
 * answered at once, not a microtask later, so the call goes out in its caller's turn, in the order
 * asked (on HTTP/1.1 the order connections are handed out: bootstrap/boot.ts). An expired or
 * unreadable one is refreshed first by the refresh piece, which is downloaded only then (it is needed
 * once per token lifetime, so it stays off the critical path).
 */
export function bearer(base: string): string | undefined | Promise<string | undefined> {
  const token = readCookie('authToken');
  return !token || isFresh(token) ? token : refreshed(base, token);
}

// The refresh in flight, shared by every request of the page: the tokens live in page-wide cookies,
// so two players on one page must not refresh twice either (SPEC §4 "one refresh at a time").
let refreshing: Promise<void> | undefined;

async function refreshed(base: string, token: string): Promise<string | undefined> {
  const wait = deadline(REFRESH_TIMEOUT_MS);
  try {
    // The lock covers the piece's download too: import() resolves at its own pace for each caller.
    refreshing ??= import('./refresh')
      .then((m) => m.refreshToken(base, token, readCookie('refreshToken'), commonHeaders(), wait.signal))
      .finally(() => (refreshing = undefined));
    await Promise.race([refreshing, whenAborted(wait.signal)]);
  } catch (err) {
    console.warn('[player] token refresh failed', err);
  } finally {
    wait.done();
  }
  return readCookie('authToken') ?? token;
}

/**
 * The payload's exp (seconds) against the clock; no exp never expires. Kept this small because every
 * secure request runs it: anything unreadable counts as stale, and the refresh piece reports the
 * invalid-token error with token.ts's full decoder.
 */
export function isFresh(token: string, nowMs = Date.now()): boolean {
  try {
    return !(JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp * 1000 <= nowMs);
  } catch {
    return false;
  }
}
