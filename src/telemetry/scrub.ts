// Tokens and cookies never leave the page in an error report (issue: "tokens and cookies are
// scrubbed"). Applied to every event, transaction and breadcrumb before it is sent.

export const FILTERED = '[Filtered]';

const SECRET_KEY = /^(authorization|cookies?|set-cookie|x-xsrf-token|xsrf-token|x-session-context|device_fp|(access|refresh|auth)_?token|token)$/i;
const PATTERNS: Array<[RegExp, string]> = [
  // JWTs (the access token) wherever they appear: messages, bodies, URLs.
  [/eyJ[\w-]*\.[\w-]+\.[\w-]*/g, FILTERED],
  [/\b(Bearer)\s+[\w.~+/-]+=*/gi, `$1 ${FILTERED}`],
  [/\b(authToken|refreshToken|XSRF-TOKEN|device_fp)=[^;&\s"']*/g, `$1=${FILTERED}`],
];

function scrubString(s: string): string {
  return PATTERNS.reduce((acc, [re, to]) => acc.replace(re, to), s);
}

/** A copy of `value` with secret-named keys and token-looking strings replaced. */
export function scrub<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrubString(value) as T;
  if (!value || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? FILTERED : scrub(v, depth + 1);
  return out as T;
}
