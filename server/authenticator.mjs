// @ts-check
/**
 * POST /authenticator/authentication/refresh (SPEC §7): body {refreshToken, accessToken}; the new
 * access token comes back in the Authorization response header. Tokens are real HS256 JWTs signed
 * with a per-server secret; the new one keeps the old payload's claims with a fresh exp (one hour).
 * A refresh token listed in `state.revokedRefreshTokens` is refused with 401.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { HttpError, readJson, sendJson } from './http-util.mjs';
import { appendCapped } from './logs.mjs';

export const TOKEN_LIFETIME_S = 3600;

/** @param {unknown} v */
const b64url = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/**
 * @param {Record<string, unknown>} payload
 * @param {Buffer} secret
 */
export function signToken(payload, secret) {
  const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/**
 * The payload of a JWT-shaped token, or null (the signature is not checked: an expired token from
 * another issuer may still be refreshed when its refresh token is good).
 * @param {unknown} token
 * @returns {Record<string, unknown> | null}
 */
function payloadOf(token) {
  if (typeof token !== 'string') return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const p = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return p && typeof p === 'object' && !Array.isArray(p) ? p : null;
  } catch {
    return null;
  }
}

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  const secret = randomBytes(32);
  router.add({
    method: 'POST',
    path: '/authenticator/authentication/refresh',
    cors: 'api',
    async handler({ req, res }) {
      const body = /** @type {Record<string, unknown> | null} */ (await readJson(req, 64 * 1024));
      const refreshToken = body && typeof body === 'object' ? body.refreshToken : undefined;
      const accessToken = body && typeof body === 'object' ? body.accessToken : undefined;
      if (typeof refreshToken !== 'string' || !refreshToken) throw new HttpError(400, 'refreshToken required');
      if (ctx.state.revokedRefreshTokens.has(refreshToken)) throw new HttpError(401, 'refresh token revoked');
      const old = payloadOf(accessToken) ?? {};
      const now = Math.floor(Date.now() / 1000);
      const token = signToken({ ...old, iat: now, exp: now + TOKEN_LIFETIME_S }, secret);
      appendCapped(ctx.state.refreshes, { refreshToken, accessToken: typeof accessToken === 'string' ? accessToken : null, token, time: Date.now() }, ctx.eventLogLimit);
      sendJson(res, 200, {}, { Authorization: `Bearer ${token}` });
    },
  });
}
