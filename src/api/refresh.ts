// Loaded only when a token has expired (once per token lifetime), so it stays off the critical path.
// What it needs from the entry comes as arguments: importing entry modules here would split them into
// an extra chunk the entry then has to load first.
import { writeCookie } from '../storage/write-cookie';
import { decodeToken } from './token';

/** Refreshes an expired token; a failed refresh is swallowed: the caller goes on with the old token. */
export async function refreshToken(
  base: string,
  accessToken: string,
  storedRefreshToken: string | undefined,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  // POST /authenticator/authentication/refresh; the new token comes in the Authorization header (SPEC §7).
  try {
    decodeToken(accessToken);
  } catch (err) {
    // SPEC §8: an unreadable token is an invalid-token error; a refresh may still replace it.
    console.warn('[player]', err);
  }
  try {
    if (!storedRefreshToken) throw new Error('no refresh token');
    const res = await fetch(`${base}/authenticator/authentication/refresh`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshToken: storedRefreshToken, accessToken }),
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
