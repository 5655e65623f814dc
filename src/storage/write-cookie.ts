// Apart from cookies.ts on purpose: only lazy pieces write cookies, and esbuild splits shared code
// by file, so keeping the writer here keeps it out of the entry's chunks.

export interface CookieOptions {
  /** Seconds from now. */
  maxAge?: number;
  /** Absolute expiry, ms since epoch. */
  expires?: number;
  /** Defaults to the player page's own scheme: a third-party frame on https needs SameSite=None; Secure. */
  secure?: boolean;
}

/** Writes a cookie on path /; false when the frame forbids cookies (sandboxed frames throw). */
export function writeCookie(name: string, value: string, opts: CookieOptions = {}, doc: { cookie: string } = document): boolean {
  let c = `${name}=${encodeURIComponent(value)}; path=/`;
  if (opts.maxAge !== undefined) c += `; max-age=${opts.maxAge}`;
  if (opts.expires !== undefined) c += `; expires=${new Date(opts.expires).toUTCString()}`;
  // Browsers refuse SameSite=None without Secure, and Secure only sticks on https.
  if (opts.secure ?? globalThis.location?.protocol === 'https:') c += '; SameSite=None; Secure';
  try {
    doc.cookie = c;
    return true;
  } catch {
    return false;
  }
}
