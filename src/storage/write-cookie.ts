// Apart from cookies.ts on purpose: only lazy pieces write cookies, and esbuild splits shared code
// by file, so keeping the writer here keeps it out of the entry's chunks.
export interface CookieOptions {
  /** Seconds from now. */
  maxAge?: number;
  /** Absolute expiry, ms since epoch. */
  expires?: number;
  /** Defaults to '/'. */
  path?: string;
}

/**
 * Writes a cookie; false when the frame forbids cookies (sandboxed frames throw). In a secure context
 * (https, and http://127.0.0.1 and localhost) it is written `SameSite=None; Secure; Partitioned`: the
 * one kind a browser keeps in a cross-site frame when it blocks third-party cookies (CHIPS), kept per
 * top-level site; it replaces an unpartitioned cookie of the same name. Where the browser refuses that
 * kind (a Secure cookie on plain http in some engines), it is written again without them.
 */
export function writeCookie(name: string, value: string, opts: CookieOptions = {}, doc: { cookie: string } = document, secure = globalThis.isSecureContext): boolean {
  const pair = `${name}=${encodeURIComponent(value)}`;
  let c = `${pair}; path=${opts.path ?? '/'}`;
  if (opts.maxAge !== undefined) c += `; max-age=${opts.maxAge}`;
  if (opts.expires !== undefined) c += `; expires=${new Date(opts.expires).toUTCString()}`;
  try {
    if (secure) {
      // An unpartitioned cookie of the same name would be read first (the older of two on one path):
      // the value written replaces it.
      doc.cookie = `${name}=; path=${opts.path ?? '/'}; max-age=0`;
      doc.cookie = `${c}; SameSite=None; Secure; Partitioned`;
      // Read back as the page sees its cookies ("a=1; b=2"); apart from cookies.ts, which the page's
      // scripts load and this lazy module would then share as a chunk of the first wave.
      if (`; ${doc.cookie};`.includes(`; ${pair};`) || opts.maxAge === 0) return true;
    }
    doc.cookie = c;
    return true;
  } catch {
    return false;
  }
}
