import { type AudioPreferences, chooseAudioTrack } from '../content/audio-choice';
import { idleDeadline } from '../core/deadline';
import type { PlaylistCache, Prefetched } from '../core/player-api';
import type { MediaTrack } from '../core/tracks';

/**
 * A playlist or fragment from which no byte has come for this long is left to hls.js's own loader,
 * with its own retries: a stalled answer costs this much, never the whole start; a slow one that keeps
 * arriving is waited for (cutting it would only ask for the same bytes again).
 */
export const PREFETCH_IDLE_MS = 5000;

// Started by the bootstrap before the entry landed, by master address: the entry takes each over once.
const started = new Map<string, PlaylistCache>();
let audioPreferences: (() => AudioPreferences) | undefined;

/** The viewer's audio preferences (SPEC §4), read whenever a prefetch chooses a rendition. */
export function useAudioPreferences(read: (() => AudioPreferences) | undefined): void {
  audioPreferences = read;
}

/** Starts the prefetch of `masterUrl` for the entry's later prefetchPlaylists call to take over. */
export function startPrefetch(masterUrl: string, startAt: number): void {
  started.set(masterUrl, prefetchPlaylists(masterUrl, startAt));
}

/**
 * Fetches the master playlist and then, without waiting for hls.js to download and parse it, the
 * variant hls.js starts on (the lowest bandwidth, as with startLevel 0), the audio rendition the
 * player will choose (content/audio-choice.ts, as features/audio-memory.ts does; the engine is told
 * to start on it), and, when playing from the start, their init segments and first fragments: the
 * round trips of the start off the first frame on a slow network (DESIGN "critical path" #3).
 */
export function prefetchPlaylists(masterUrl: string, startAt = 0): PlaylistCache {
  const early = started.get(masterUrl);
  started.delete(masterUrl);
  if (early) return early;
  const traffic = { last: 0, open: new Map<string, number>() };
  const cache: PlaylistCache = Object.assign(new Map(), { traffic });
  const get = (url: string, binary?: boolean) => {
    const wait = idleDeadline(PREFETCH_IDLE_MS);
    const start = performance.now();
    const arrived = () => {
      traffic.last = performance.now();
      wait.progress();
    };
    const got: Promise<Prefetched | undefined> = fetch(url, { signal: wait.signal })
      .then((r) => (r.ok ? readAll(r, arrived) : undefined))
      .then((body): Promise<string | ArrayBuffer> | undefined => body && (binary ? body.arrayBuffer() : body.text()))
      // Anything but a playlist (an error page, garbage) is left to hls.js too.
      .then((data) => (data !== undefined && (binary || String(data).startsWith('#EXTM3U')) ? { data, start, end: performance.now() } : undefined))
      .catch(() => undefined)
      .finally(wait.done);
    cache.set(url, got);
    // The follow-up reads `got` itself, so it runs before hls.js (answered from the same promise)
    // asks for the next address: that address is in the cache by then.
    return got;
  };
  const text = (p: Prefetched | undefined) => p?.data as string | undefined;
  /** A media playlist, then its init segment and the fragment at the start. */
  const media = (url: string) =>
    void get(url).then((p) => {
      const playlist = text(p);
      if (!playlist || startAt > 0 || playlist.includes('#EXT-X-BYTERANGE')) return;
      const lines = playlist.split(/\r?\n/);
      const init = lines.find((l) => l.startsWith('#EXT-X-MAP:'));
      const initUri = init && attr(init, 'URI');
      if (initUri && !init.includes('BYTERANGE')) void get(new URL(initUri, url).href, true);
      const first = lines.find((l) => l.trim() && !l.startsWith('#'));
      if (first) void get(new URL(first.trim(), url).href, true);
    });
  void get(masterUrl).then((p) => {
    const lines = text(p)?.split(/\r?\n/) ?? [];
    let best: { bandwidth: number; inf: string; uri: string } | undefined;
    lines.forEach((line, i) => {
      if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
      const bandwidth = Number(attr(line, 'BANDWIDTH')) || Infinity;
      const uri = lines.slice(i + 1).find((l) => l.trim() && !l.startsWith('#'));
      if (uri && (!best || bandwidth < best.bandwidth)) best = { bandwidth, inf: line, uri: uri.trim() };
    });
    if (!best) return;
    const resolve = (u: string) => new URL(u, masterUrl).href;
    media(resolve(best.uri));
    const groupId = attr(best.inf, 'AUDIO');
    const group = lines.filter((l) => l.startsWith('#EXT-X-MEDIA:') && attr(l, 'TYPE') === 'AUDIO' && attr(l, 'GROUP-ID') === groupId);
    // The tracks as the engine will list them (hls-engine.ts toTrack), so the choice is the same.
    const tracks: MediaTrack[] = group.map((l, id) => ({
      id,
      label: attr(l, 'NAME') || attr(l, 'LANGUAGE') || String(id + 1),
      language: attr(l, 'LANGUAGE') || '',
      codec: attr(l, 'CHANNELS'),
      isDefault: attr(l, 'DEFAULT') === 'YES',
    }));
    const chosen = audioPreferences ? chooseAudioTrack(tracks, audioPreferences())?.id : tracks.findIndex((t) => t.isDefault);
    const line = chosen === undefined ? undefined : group[chosen];
    const audioUri = line && attr(line, 'URI');
    if (!line || !audioUri) return;
    cache.audio = { groupId, name: attr(line, 'NAME'), lang: attr(line, 'LANGUAGE') };
    media(resolve(audioUri));
  });
  return cache;
}

function attr(line: string, name: string): string | undefined {
  const m = new RegExp(`[:,]${name}=("([^"]*)"|[^,]*)`).exec(line);
  return m ? (m[2] ?? m[1]) : undefined;
}

/** The body, every chunk of it told to `arrived` as it comes. */
async function readAll(response: Response, arrived: () => void): Promise<Blob> {
  const chunks: BlobPart[] = [];
  const reader = response.body!.getReader();
  for (let got; !(got = await reader.read()).done; arrived()) chunks.push(got.value);
  return new Blob(chunks);
}
