// Loaded only when a token has expired (once per token lifetime), so it stays off the critical path.
// What it needs from the entry comes as arguments: importing entry modules here would split them into
// an extra chunk the entry then has to load first.
import { writeCookie } from '../storage/write-cookie';
import { decodeToken } from './token';

// The refresh in flight, shared by every request of the page: the tokens live in page-wide cookies,
// so two players on one page must not refresh twice either (SPEC §4 "one refresh at a time").
let refreshing: Promise<void> | undefined;

/**
 * Refreshes an expired token; requests arriving meanwhile wait for that same refresh (the lock of
 * SPEC §4). A failed refresh is swallowed: the caller goes on with the old token.
 */
export function refreshToken(
  base: string,
  accessToken: string,
  refresh: string | undefined,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  return (refreshing ??= run(base, accessToken, refresh, headers, signal).finally(() => (refreshing = undefined)));
}

/** POST /authenticator/authentication/refresh; the new token comes in the Authorization header (SPEC §7). */
async function run(base: string, accessToken: string, refreshToken: string | undefined, headers: Record<string, string>, signal: AbortSignal): Promise<void> {
  try {
    decodeToken(accessToken);
  } catch (err) {
    // SPEC §8: an unreadable token is an invalid-token error; a refresh may still replace it.
    console.warn('[player]', err);
  }
  try {
    if (!refreshToken) throw new Error('no refresh token');
    const res = await fetch(`${base}/authenticator/authentication/refresh`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken, accessToken }),
      signal,
    });
    const next = res.headers.get('Authorization')?.replace(/^Bearer\s+/i, '');
    if (!res.ok || !next) throw new Error(`refresh answered ${res.status}`);
    const { exp } = decodeToken(next);
    // SPEC §9: the cookie expires with the token.
    writeCookie('authToken', next, exp ? { expires: exp * 1000 } : {});
  } catch (err) {
    console.warn('[player] token refresh failed', err);
  }
}
