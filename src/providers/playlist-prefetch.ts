import { type AudioPreferences, chooseAudioTrack } from '../content/audio-choice';
import type { ChunkFeed, EarlyStart, EarlyTrack, PlaylistCache, Prefetched } from '../core/player-api';
import type { MediaTrack } from '../core/tracks';
import type { StartMemory } from '../storage/start-memory';
import { type Guess, fetchAhead, takeGuess } from './start-guess';

/** What the engine asked for first from a prefetch (storage/start-memory.ts), once the master was read. */
export type FirstAsked = Pick<StartMemory, 'playlists' | 'segments'>;
export type StartCache = PlaylistCache & {
  firstAsked(): FirstAsked | undefined;
  early: Promise<EarlyStart | undefined>;
};

/** A rendition's start: its init segment, its first fragment to come, the playlist's length, and the three addresses. */
type MediaStart = Omit<EarlyTrack, 'codec'> & { duration: number; urls: string[] };

/**
 * A playlist or init segment that failed within this of its ask was answered (an error status, a
 * refused connection, not a playlist): that rendition fails, and the start goes on to the next. One
 * that failed later went silent (start-guess.ts PREFETCH_IDLE_MS, 5 s, without a byte): the link's or
 * the server's fault, the media watchdog's to judge. The next rendition would only wait as long again:
 * with every rendition's init segment stalled, 5 s each before hls.js is asked, and the SPEC §8 screen
 * past DESIGN's 20 s.
 */
const ANSWERED_MS = 4000;

// Started by the bootstrap before the entry landed, by master address: the entry takes each over once.
const started = new Map<string, StartCache>();
let audioPreferences: (() => AudioPreferences) | undefined;
// The bootstrap's guess (start-guess.ts) the catalogue's choice kept, for its prefetch to take over.
let kept: Guess | undefined;

/** The viewer's audio preferences (SPEC §4), read whenever a prefetch chooses a rendition. */
export function useAudioPreferences(read: (() => AudioPreferences) | undefined): void {
  audioPreferences = read;
}

/** Starts the prefetch of `masterUrl` for the entry's later prefetchPlaylists call to take over. */
export function startPrefetch(masterUrl: string, startAt: number): void {
  started.set(masterUrl, prefetchPlaylists(masterUrl, startAt));
}

/**
 * The catalogue's choice met a returning viewer's guess (start-guess.ts): it holds when it names the
 * remembered episode, variant and master (the prefetch of that master takes it over); anything else
 * drops it, its requests aborted, and the start goes on as on a first visit. A wrong guess costs the
 * bytes it got, never a frame.
 */
export function settleGuess(episode: number, variant: number | null, master: string): void {
  const guess = takeGuess();
  const s = guess?.start;
  kept = s && s.episode === episode && s.variant === variant && s.master === master ? guess : undefined;
  if (!kept) guess?.drop.abort();
}

/**
 * Fetches the master playlist and then, without waiting for hls.js to download and parse it, the
 * variant hls.js starts on (the lowest bandwidth, as with startLevel 0; the next one up where that one
 * fails), the audio rendition the player will choose (content/audio-choice.ts, as
 * features/audio-memory.ts does; the engine is told to start on it), and, when playing from the
 * start, their init segments and first fragments: the round trips of the start off the first frame on
 * a slow network (DESIGN "critical path" #3).
 */
export function prefetchPlaylists(masterUrl: string, startAt = 0): StartCache {
  const early = started.get(masterUrl);
  started.delete(masterUrl);
  if (early) return early;
  // The guess kept, or one nothing settled (the entry chose without the bootstrap's carrying on): its
  // requests are this prefetch's when it is this master's, else dropped.
  const taken = kept ?? takeGuess();
  kept = undefined;
  const guess = taken?.start.master === masterUrl ? taken : undefined;
  if (taken && !guess) taken.drop.abort();
  const traffic = guess?.traffic ?? { last: 0, open: new Map<string, number>() };
  // What the engine's loader asks for (it asks the cache first, watched-loader.ts), in order, and which
  // of those addresses the master names as playlists: what a returning viewer's start will ask for.
  const asked: string[] = [];
  const playlists = new Set<string>();
  const firstAsked = (): FirstAsked | undefined =>
    playlists.size ? { playlists: asked.filter((u) => playlists.has(u)), segments: asked.filter((u) => u !== masterUrl && !playlists.has(u)) } : undefined;
  const cache = Object.assign(new Map(), { traffic, firstAsked }) as StartCache;
  const held = (url: string) => Map.prototype.get.call(cache, url) as Promise<Prefetched | undefined> | undefined;
  const note = (url: string) => void (asked.length < 16 && !asked.includes(url) && asked.push(url));
  cache.get = (url) => (note(url), held(url));
  // Each address fetched once, whoever (the guess, the master's reading) asks for it first; one the
  // engine has taken already is its own.
  const fetched = new Set<string>();
  guess?.got.forEach((got, url) => void (fetched.add(url), cache.set(url, got)));
  const get = (url: string, binary = false, feed?: ChunkFeed): Promise<Prefetched | undefined> => {
    if (fetched.has(url)) return held(url) ?? Promise.resolve(undefined);
    fetched.add(url);
    const got = fetchAhead(url, binary, traffic, undefined, feed);
    cache.set(url, got);
    // The follow-up reads `got` itself, so it runs before hls.js (answered from the same promise)
    // asks for the next address: that address is in the cache by then.
    return got;
  };
  const text = (p: Prefetched | undefined) => p?.data as string | undefined;
  /**
   * A media playlist, then its init segment and the fragment at the start: the init once in, the
   * fragment to come, with the playlist's length. Where the playlist or the init segment is answered
   * but is none (ANSWERED_MS), the rendition has failed: what `failed` gives instead.
   */
  const media = (url: string, failed?: () => Promise<MediaStart | undefined> | undefined): Promise<MediaStart | undefined> => {
    let asked = performance.now();
    const next = () => (performance.now() - asked < ANSWERED_MS ? failed?.() : undefined);
    return get(url).then((p) => {
      const playlist = text(p);
      if (!playlist) return next();
      if (startAt > 0 || playlist.includes('#EXT-X-BYTERANGE')) return;
      const lines = playlist.split(/\r?\n/);
      const init = lines.find((l) => l.startsWith('#EXT-X-MAP:'));
      const initUri = init && attr(init, 'URI');
      const initUrl = initUri && !init.includes('BYTERANGE') ? new URL(initUri, url).href : undefined;
      asked = performance.now();
      const initGot = initUrl ? get(initUrl, true) : undefined;
      const first = lines.find((l) => l.trim() && !l.startsWith('#'));
      const firstUrl = first ? new URL(first.trim(), url).href : undefined;
      const coming: ChunkFeed = { chunks: [] };
      const firstGot = firstUrl ? get(firstUrl, true, coming) : undefined;
      const duration = lines.reduce((sum, l) => sum + (l.startsWith('#EXTINF:') ? parseFloat(l.slice(8)) || 0 : 0), 0);
      return (
        initGot &&
        firstGot &&
        initGot.then((i) => (i ? { init: i.data as ArrayBuffer, first: firstGot.then((f) => f?.data as ArrayBuffer | undefined), coming, duration, urls: [url, initUrl!, firstUrl!] } : next()))
      );
    });
  };
  const master = get(masterUrl).then((p): Promise<EarlyStart | undefined> | undefined => {
    const lines = text(p)?.split(/\r?\n/) ?? [];
    const resolve = (u: string) => new URL(u, masterUrl).href;
    const variants: { bandwidth: number; inf: string; url: string }[] = [];
    lines.forEach((line, i) => {
      const rendition = line.startsWith('#EXT-X-MEDIA:') && attr(line, 'URI');
      if (rendition) playlists.add(resolve(rendition));
      if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
      const uri = lines.slice(i + 1).find((l) => l.trim() && !l.startsWith('#'))?.trim();
      if (!uri) return;
      playlists.add(resolve(uri));
      variants.push({ bandwidth: Number(attr(line, 'BANDWIDTH')) || Infinity, inf: line, url: resolve(uri) });
    });
    variants.sort((a, b) => a.bandwidth - b.bandwidth);
    const best = variants[0];
    if (!best) return;
    // The lowest rendition's start or, where it fails, the next one's up, as hls.js's level failover
    // goes on: the first frame still comes from the page's own start, not after hls.js's download, and
    // hls.js loads on from that rendition (hls-engine.ts).
    const start = (i: number): Promise<MediaStart | undefined> => media(variants[i].url, () => variants[i + 1] && start(i + 1));
    const video = start(0);
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
    const audio = media(resolve(audioUri));
    // The SourceBuffers' types, from the lowest variant's CODECS (one video codec, the audio's): a
    // rendition fallen back to whose codec they do not take is refused at its append, and hls.js then
    // starts as it does without the page's start (early-media.ts).
    const codecs = attr(best.inf, 'CODECS')?.split(',').map((c) => c.trim()) ?? [];
    const videoCodec = codecs.find((c) => /^(avc|hvc|hev|av01|vp0)/.test(c));
    const audioCodec = codecs.find((c) => /^(mp4a|ac-3|ec-3|opus|flac)/.test(c));
    if (!videoCodec || !audioCodec) return;
    return Promise.all([video, audio]).then(([v, a]) => {
      if (!v || !a) return;
      const variant = v.urls[0];
      // What a start needs first, whether the page appends it (early-media.ts) or hls.js asks for it: at
      // the early start's first frame hls.js has asked for nothing yet, and a returning viewer's
      // bootstrap asks for what is remembered then (features/start-memory.ts). The init segments are in,
      // the first fragments on their way: the page appends each as it comes (early-media.ts).
      [...v.urls, ...a.urls].forEach(note);
      return { duration: v.duration, variant, video: { codec: videoCodec, init: v.init, first: v.first, coming: v.coming }, audio: { codec: audioCodec, init: a.init, first: a.first, coming: a.coming } };
    });
  });
  cache.early = master.catch(() => undefined);
  return cache;
}

function attr(line: string, name: string): string | undefined {
  const m = new RegExp(`[:,]${name}=("([^"]*)"|[^,]*)`).exec(line);
  return m ? (m[2] ?? m[1]) : undefined;
}
