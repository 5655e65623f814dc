// What bench/playback.ts needs to know of a title's HLS stream, read once from the reference server
// (directly, not through the link): the rungs of the master playlist (height and bitrate, to price
// what was shown) and, for every media segment URL, the stretch of film it holds (to tell the bytes of
// played segments from the rest).
import type { Rung, SegmentFetch } from './qoe';

export interface Ladder {
  rungs: Rung[];
  /** Media segment path (URL pathname) → its slot and film time; init segments and playlists are not here. */
  segments: Map<string, Omit<SegmentFetch, 'bytes' | 'doneMs'>>;
}

/** An attribute of a playlist tag line, unquoted. */
function attribute(line: string, name: string): string | undefined {
  const match = new RegExp(`[:,]${name}=(?:"([^"]*)"|([^,]*))`).exec(line);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The variant streams of a master playlist: URI, height and bitrate (AVERAGE-BANDWIDTH when given). */
export function parseMaster(text: string): Array<Rung & { uri: string }> {
  const lines = text.split('\n').map((l) => l.trim());
  const variants: Array<Rung & { uri: string }> = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
    const uri = lines.slice(i + 1).find((l) => l && !l.startsWith('#'));
    const height = Number(attribute(line, 'RESOLUTION')?.split('x')[1]);
    const bitsPerSecond = Number(attribute(line, 'AVERAGE-BANDWIDTH') ?? attribute(line, 'BANDWIDTH'));
    if (uri && height > 0 && bitsPerSecond > 0) variants.push({ uri, height, bitsPerSecond });
  });
  return variants;
}

/** Audio renditions' URIs of a master playlist. */
function audioUris(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('#EXT-X-MEDIA:') && attribute(l, 'TYPE') === 'AUDIO')
    .map((l) => attribute(l, 'URI'))
    .filter((u): u is string => !!u);
}

/** Each segment of a media playlist: its URI and film time [start, end). */
export function parseMedia(text: string): Array<{ uri: string; start: number; end: number }> {
  const out: Array<{ uri: string; start: number; end: number }> = [];
  let at = 0;
  let duration: number | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8));
    else if (line && !line.startsWith('#') && duration !== undefined) {
      out.push({ uri: line, start: at, end: at + duration });
      at += duration;
      duration = undefined;
    }
  }
  return out;
}

async function text(url: URL): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
  return response.text();
}

/** Reads the master at `masterUrl` and every media playlist it names. */
export async function readLadder(masterUrl: string): Promise<Ladder> {
  const master = new URL(masterUrl);
  const masterText = await text(master);
  const variants = parseMaster(masterText);
  if (!variants.length) throw new Error(`${master.pathname}: no variant stream with RESOLUTION and BANDWIDTH`);
  const segments: Ladder['segments'] = new Map();
  const playlists = [...variants.map((v) => ({ uri: v.uri, track: 'video' })), ...audioUris(masterText).map((uri) => ({ uri, track: 'audio' }))];
  for (const { uri, track } of playlists) {
    const url = new URL(uri, master);
    for (const s of parseMedia(await text(url))) {
      const path = new URL(s.uri, url).pathname;
      // The slot is the track and the film time: every rendition of that stretch shares it.
      if (!segments.has(path)) segments.set(path, { slot: `${track}@${s.start.toFixed(2)}`, start: s.start, end: s.end });
    }
  }
  return { rungs: variants.map(({ height, bitsPerSecond }) => ({ height, bitsPerSecond })), segments };
}
