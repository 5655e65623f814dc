import { deadline } from '../core/deadline';
import type { PlaylistCache } from '../core/player-api';

/**
 * A playlist the prefetch has not had in full by then is left to hls.js's own loader, with its own
 * timeouts and retries: a stalled answer costs this much, never the whole start.
 */
export const PREFETCH_TIMEOUT_MS = 4000;

/**
 * Fetches the master playlist and then, without waiting for hls.js to download and parse it, the
 * variant hls.js starts on (the lowest bandwidth, as with startLevel 0) and that variant's default
 * audio rendition: two round trips off the first frame on a slow network (DESIGN "critical path" #3).
 */
export function prefetchPlaylists(masterUrl: string): PlaylistCache {
  const cache: PlaylistCache = new Map();
  const get = (url: string) => {
    const wait = deadline(PREFETCH_TIMEOUT_MS);
    const text = fetch(url, { signal: wait.signal })
      .then((r) => (r.ok ? r.text() : undefined))
      // Anything but a playlist (an error page, garbage) is left to hls.js too.
      .then((t) => (t?.startsWith('#EXTM3U') ? t : undefined))
      .catch(() => undefined)
      .finally(wait.done);
    cache.set(url, text);
    return text;
  };
  void get(masterUrl).then((text) => {
    const lines = text ? text.split(/\r?\n/) : [];
    let best: { bandwidth: number; inf: string; uri: string } | undefined;
    lines.forEach((line, i) => {
      if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
      const bandwidth = Number(attr(line, 'BANDWIDTH')) || Infinity;
      const uri = lines.slice(i + 1).find((l) => l.trim() && !l.startsWith('#'));
      if (uri && (!best || bandwidth < best.bandwidth)) best = { bandwidth, inf: line, uri: uri.trim() };
    });
    if (!best) return;
    const resolve = (u: string) => new URL(u, masterUrl).href;
    void get(resolve(best.uri));
    const group = attr(best.inf, 'AUDIO');
    const audio = lines.find(
      (l) => l.startsWith('#EXT-X-MEDIA:') && attr(l, 'TYPE') === 'AUDIO' && attr(l, 'GROUP-ID') === group && attr(l, 'DEFAULT') === 'YES',
    );
    const audioUri = audio && attr(audio, 'URI');
    if (audioUri) void get(resolve(audioUri));
  });
  return cache;
}

function attr(line: string, name: string): string | undefined {
  const m = new RegExp(`[:,]${name}=("([^"]*)"|[^,]*)`).exec(line);
  return m ? (m[2] ?? m[1]) : undefined;
}
