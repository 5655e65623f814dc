import { deadline } from '../core/deadline';

export type Engine = 'hls' | 'native';

const HEAD_TIMEOUT_MS = 4000;

export interface MediaCapabilities {
  mediaSource: boolean;
  nativeHls: boolean;
}

export const isHlsAddress = (url: string) => /\.m3u8($|[?#])/i.test(url);

/** An address whose last path segment has no extension says nothing of what it serves. */
export function needsContentType(url: string): boolean {
  try {
    return /^https?:/i.test(url) && !/\.[a-z0-9]{2,5}$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * SPEC §7: a HEAD request to a source address for its content type; true for an HLS playlist. Any
 * failure is false, and the <video> element gets to try the address itself.
 */
export async function isHlsByContentType(url: string): Promise<boolean> {
  const wait = deadline(HEAD_TIMEOUT_MS);
  try {
    const r = await fetch(url, { method: 'HEAD', signal: wait.signal });
    return /mpegurl/i.test(r.headers.get('content-type') ?? '');
  } catch {
    return false;
  } finally {
    wait.done();
  }
}

/**
 * hls.js whenever MSE exists: Chromium answers "maybe" for native HLS but its native player exposes
 * no audio or text tracks. Native HLS is the fallback (iOS before ManagedMediaSource); progressive
 * files always play natively. undefined: nothing here can play it.
 */
export function pickEngine(url: string, caps: MediaCapabilities, hls = isHlsAddress(url)): Engine | undefined {
  if (!hls) return 'native';
  if (caps.mediaSource) return 'hls';
  return caps.nativeHls ? 'native' : undefined;
}

export function detectCapabilities(win: Window & typeof globalThis = window): MediaCapabilities {
  const w = win as unknown as { MediaSource?: { isTypeSupported?(t: string): boolean }; ManagedMediaSource?: unknown };
  let nativeHls = false;
  try {
    nativeHls = !!win.document.createElement('video').canPlayType('application/vnd.apple.mpegurl');
  } catch {
    nativeHls = false;
  }
  return {
    mediaSource: !!(w.ManagedMediaSource || (w.MediaSource && w.MediaSource.isTypeSupported?.('video/mp4; codecs="avc1.42E01E,mp4a.40.2"'))),
    nativeHls,
  };
}
