// Access-token handling of SPEC §3/§4/§9: the payload's exp decides expiry; the invalid-token errors
// of SPEC §8 carry the same wording as the jwt-decode library the original client used.

export interface TokenPayload {
  /** Expiry, seconds since epoch. */
  exp?: number;
  [key: string]: unknown;
}

export interface InvalidTokenError extends Error {
  name: 'InvalidTokenError';
}

const invalid = (why: string): InvalidTokenError =>
  Object.assign(new Error(`Invalid token specified: ${why}`), { name: 'InvalidTokenError' as const });


/** Decodes the payload (second part) of a JWT; throws InvalidTokenError for anything else. */
export function decodeToken(token: unknown): TokenPayload {
  if (typeof token !== 'string') throw invalid('must be a string');
  const part = token.split('.')[1];
  if (!part) throw invalid('missing part #2');
  let text: string;
  try {
    text = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw invalid('invalid base64 for part #2');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw invalid('invalid json for part #2');
  }
  if (!payload || typeof payload !== 'object') throw invalid('invalid json for part #2');
  return payload as TokenPayload;
}
