// Manifest readers: Sabre's JSON, and an HLS ladder (a master playlist on disk or over http) read with
// the real size of every segment, and the writer of Sabre's JSON.
//
// sim/manifests/production.json is the production ladder (scripts/make-ladder.sh, 5 renditions
// 240p..1080p, 4 s segments, each with the default audio rendition), derived from the generated files:
//   npm run media:ladder
//   npm run sim -- --manifest .cache/media/ladder/master.m3u8 --write-manifest sim/manifests/production.json
// (or from the reference server: `npm start`, then --manifest http://localhost:PORT/media/ladder/master.m3u8).
import { readFile, stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Manifest } from './types';

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Sabre's manifest: `segment_duration_ms`, `bitrates_kbps`, `segment_sizes_bits` as [segment][level]. */
export function parseSabreManifest(text: string, name: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`manifest ${name}: not JSON (${(err as Error).message})`);
  }
  const m = (data ?? {}) as Record<string, unknown>;
  const segmentMs = m.segment_duration_ms;
  if (!isNumber(segmentMs) || segmentMs <= 0) throw new Error(`manifest ${name}: segment_duration_ms must be a number > 0`);
  const rates = m.bitrates_kbps;
  if (!Array.isArray(rates) || rates.length === 0 || !rates.every((r) => isNumber(r) && r > 0)) {
    throw new Error(`manifest ${name}: bitrates_kbps must be a non-empty array of numbers > 0`);
  }
  if (rates.some((r, i) => i > 0 && r <= rates[i - 1])) throw new Error(`manifest ${name}: bitrates_kbps must ascend`);
  const sizes = m.segment_sizes_bits;
  if (!Array.isArray(sizes) || sizes.length === 0) throw new Error(`manifest ${name}: segment_sizes_bits must be a non-empty array`);
  const segmentBits = rates.map(() => [] as number[]);
  sizes.forEach((row: unknown, i) => {
    if (!Array.isArray(row) || row.length !== rates.length) {
      throw new Error(`manifest ${name}: segment_sizes_bits[${i}] must list one size per bitrate (${rates.length})`);
    }
    row.forEach((bits: unknown, level) => {
      if (!isNumber(bits) || bits <= 0) throw new Error(`manifest ${name}: segment_sizes_bits[${i}][${level}] must be a number > 0`);
      segmentBits[level]!.push(bits);
    });
  });
  const manifest: Manifest = { segmentS: segmentMs / 1000, bitratesKbps: rates as number[], segmentBits };
  const audio = m.audio_sizes_bits;
  if (audio !== undefined) {
    if (!Array.isArray(audio) || audio.length !== sizes.length) throw new Error(`manifest ${name}: audio_sizes_bits must list one size per segment (${sizes.length})`);
    audio.forEach((bits: unknown, i) => {
      if (!isNumber(bits) || bits < 0 || segmentBits.some((level) => bits >= level[i]!)) {
        throw new Error(`manifest ${name}: audio_sizes_bits[${i}] must be a number >= 0 below every level's segment_sizes_bits[${i}]`);
      }
    });
    manifest.audioBits = audio as number[];
  }
  const average = m.average_bandwidth_kbps;
  const peak = m.bandwidth_kbps;
  if (average === undefined && peak === undefined) return manifest;
  const own = declaredRates(manifest);
  const declared = (key: string, list: unknown, fallback: number[]): number[] => {
    if (list === undefined) return fallback;
    if (!Array.isArray(list) || list.length !== rates.length || !list.every((r) => isNumber(r) && r > 0)) {
      throw new Error(`manifest ${name}: ${key} must list one number > 0 per bitrate (${rates.length})`);
    }
    return list as number[];
  };
  manifest.declared = { averageKbps: declared('average_bandwidth_kbps', average, own.averageKbps), peakKbps: declared('bandwidth_kbps', peak, own.peakKbps) };
  return manifest;
}

/** Each level's price as a browser's player reads it from the master (Manifest.declared), kb/s. */
export function declaredRates(manifest: Manifest): { averageKbps: number[]; peakKbps: number[] } {
  if (manifest.declared) return manifest.declared;
  const peakKbps = manifest.segmentBits.map((bits, i) => bits.reduce((max, b) => Math.max(max, b / manifest.segmentS / 1000), manifest.bitratesKbps[i]!));
  return { averageKbps: manifest.bitratesKbps, peakKbps };
}

/**
 * Sabre's JSON of a manifest (sizes back to [segment][level]; the audio's, when known, as
 * `audio_sizes_bits`; what the master declares, when known, as `average_bandwidth_kbps` and `bandwidth_kbps`).
 */
export function toSabreJson(manifest: Manifest): string {
  const count = manifest.segmentBits[0]!.length;
  const rows = Array.from({ length: count }, (_, i) => `    [${manifest.segmentBits.map((level) => Math.round(level[i]!)).join(', ')}]`);
  const list = (key: string, values: number[]) => `  "${key}": [${values.map((v) => Math.round(v)).join(', ')}]`;
  const after = [
    ...(manifest.audioBits ? [list('audio_sizes_bits', manifest.audioBits)] : []),
    ...(manifest.declared ? [list('average_bandwidth_kbps', manifest.declared.averageKbps), list('bandwidth_kbps', manifest.declared.peakKbps)] : []),
  ];
  return [
    '{',
    `  "segment_duration_ms": ${Math.round(manifest.segmentS * 1000)},`,
    `  "bitrates_kbps": [${manifest.bitratesKbps.map((k) => Math.round(k)).join(', ')}],`,
    '  "segment_sizes_bits": [',
    rows.join(',\n'),
    ['  ]', ...after].join(',\n'),
    '}',
    '',
  ].join('\n');
}

/** How an HLS ladder is read: a playlist's text and a segment's size in bytes. */
export interface Fetcher {
  text(url: URL): Promise<string>;
  size(url: URL): Promise<number>;
}

/** Files by their size on disk; http(s) by HEAD's Content-Length, or the body's length when it has none. */
const defaultFetcher: Fetcher = {
  async text(url) {
    if (url.protocol === 'file:') return readFile(url, 'utf8');
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url.href}: HTTP ${res.status}`);
    return res.text();
  },
  async size(url) {
    if (url.protocol === 'file:') return (await stat(url)).size;
    const head = await fetch(url, { method: 'HEAD' });
    const length = Number(head.headers.get('content-length'));
    if (head.ok && length > 0) return length;
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url.href}: HTTP ${res.status}`);
    return (await res.arrayBuffer()).byteLength;
  },
};

/** A tag's attribute list (`A=1,B="x,y"`). */
function attributes(line: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = line.slice(line.indexOf(':') + 1);
  for (const m of body.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) out.set(m[1]!, m[2]!.replace(/^"|"$/g, ''));
  return out;
}

interface Segment {
  durationS: number;
  url: URL;
  /** From EXT-X-BYTERANGE, when the segment is a range of a file. */
  bytes?: number;
}

/** A media playlist's segments (the init segment of EXT-X-MAP is left out: it is fetched once a level, not a segment). */
export function parseMediaPlaylist(text: string, base: URL): Segment[] {
  if (!text.trimStart().startsWith('#EXTM3U')) throw new Error(`${base.href}: not a playlist (no #EXTM3U)`);
  const segments: Segment[] = [];
  let duration: number | undefined;
  let bytes: number | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) {
      duration = Number.parseFloat(line.slice(8));
      if (!(duration >= 0)) throw new Error(`${base.href}: bad ${line}`);
    } else if (line.startsWith('#EXT-X-BYTERANGE:')) {
      bytes = Number.parseInt(line.slice(17), 10);
      if (!(bytes >= 0)) throw new Error(`${base.href}: bad ${line}`);
    } else if (line !== '' && !line.startsWith('#')) {
      if (duration === undefined) throw new Error(`${base.href}: segment ${line} has no #EXTINF`);
      segments.push({ durationS: duration, url: new URL(line, base), ...(bytes === undefined ? {} : { bytes }) });
      duration = undefined;
      bytes = undefined;
    }
  }
  if (segments.length === 0) throw new Error(`${base.href}: no segments`);
  return segments;
}

interface Variant {
  url: URL;
  /** The audio group's default rendition (its first when none is marked DEFAULT). */
  audio?: URL;
  /** BANDWIDTH and AVERAGE-BANDWIDTH, kb/s, when given. */
  peakKbps?: number;
  averageKbps?: number;
}

/** A master playlist's variants; a media playlist given instead is a ladder of one. */
export function parseMasterPlaylist(text: string, base: URL): Variant[] {
  if (!text.trimStart().startsWith('#EXTM3U')) throw new Error(`${base.href}: not a playlist (no #EXTM3U)`);
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const groups = new Map<string, URL>();
  for (const line of lines.filter((l) => l.startsWith('#EXT-X-MEDIA:'))) {
    const a = attributes(line);
    const group = a.get('GROUP-ID');
    const uri = a.get('URI');
    if (a.get('TYPE') !== 'AUDIO' || group === undefined || uri === undefined) continue;
    if (!groups.has(group) || a.get('DEFAULT') === 'YES') groups.set(group, new URL(uri, base));
  }
  const variants: Variant[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
    const uri = lines.slice(i + 1).find((l) => l !== '' && !l.startsWith('#'));
    if (uri === undefined) throw new Error(`${base.href}: #EXT-X-STREAM-INF without a URI`);
    const a = attributes(line);
    const group = a.get('AUDIO');
    const audio = group === undefined ? undefined : groups.get(group);
    if (group !== undefined && audio === undefined) throw new Error(`${base.href}: no audio rendition in group ${group}`);
    const kbps = (key: string) => {
      const bps = Number(a.get(key));
      return bps > 0 ? bps / 1000 : undefined;
    };
    const peakKbps = kbps('BANDWIDTH');
    const averageKbps = kbps('AVERAGE-BANDWIDTH');
    variants.push({ url: new URL(uri, base), ...(audio ? { audio } : {}), ...(peakKbps ? { peakKbps } : {}), ...(averageKbps ? { averageKbps } : {}) });
  });
  if (variants.length === 0 && lines.some((l) => l.startsWith('#EXTINF:'))) return [{ url: base }];
  if (variants.length === 0) throw new Error(`${base.href}: no #EXT-X-STREAM-INF variants`);
  return variants;
}

/** Runs `work` over `items`, a few at a time (a server answers many small requests faster than one by one). */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function segmentBytes(url: URL, fetcher: Fetcher): Promise<{ durations: number[]; bytes: number[] }> {
  const segments = parseMediaPlaylist(await fetcher.text(url), url);
  const bytes = await mapLimited(segments, 16, async (s) => s.bytes ?? fetcher.size(s.url));
  return { durations: segments.map((s) => s.durationS), bytes };
}

/**
 * An HLS ladder as a manifest: a level is a variant's video plus its audio group's default rendition,
 * segment by segment (the ladder's segments are aligned); a level's bitrate is its mean over the film.
 * Levels of unequal length are cut to the shortest. When every level has the same audio, its sizes
 * are the manifest's `audioBits`.
 */
export async function readHlsLadder(location: string, fetcher: Fetcher = defaultFetcher): Promise<Manifest> {
  const base = /^https?:\/\//.test(location) ? new URL(location) : pathToFileURL(location);
  const variants = parseMasterPlaylist(await fetcher.text(base), base);
  const audio = new Map<string, Promise<{ durations: number[]; bytes: number[] }>>();
  const levels = await Promise.all(
    variants.map(async (v) => {
      const video = await segmentBytes(v.url, fetcher);
      if (!v.audio) return { ...video, audio: [] as number[] };
      if (!audio.has(v.audio.href)) audio.set(v.audio.href, segmentBytes(v.audio, fetcher));
      return { ...video, audio: (await audio.get(v.audio.href)!).bytes };
    }),
  );
  const count = Math.min(...levels.map((l) => (l.audio.length > 0 ? Math.min(l.bytes.length, l.audio.length) : l.bytes.length)));
  const durations = levels[0]!.durations.slice(0, count);
  const segmentS = durations.reduce((a, b) => a + b, 0) / count;
  const built = levels.map((l, v) => {
    const bits = l.bytes.slice(0, count).map((b, i) => (b + (l.audio[i] ?? 0)) * 8);
    return { bits, kbps: bits.reduce((a, b) => a + b, 0) / (segmentS * count) / 1000, variant: variants[v]! };
  });
  built.sort((a, b) => a.kbps - b.kbps);
  const ladder: Manifest = { segmentS, bitratesKbps: built.map((l) => l.kbps), segmentBits: built.map((l) => l.bits) };
  // What the master declares, when it declares every level's BANDWIDTH (hls.js's average falls back to it).
  if (built.every((l) => l.variant.peakKbps)) {
    ladder.declared = { averageKbps: built.map((l) => l.variant.averageKbps ?? l.variant.peakKbps!), peakKbps: built.map((l) => l.variant.peakKbps!) };
  }
  // One audio rendition for every level (the ladder's usual form): its sizes, for the policies' samples.
  const audios = new Set(variants.map((v) => v.audio?.href));
  if (audios.size !== 1 || !levels[0]!.audio.length) return ladder;
  return { ...ladder, audioBits: levels[0]!.audio.slice(0, count).map((b) => b * 8) };
}

/** A Sabre JSON file, or an HLS ladder (a .m3u8 path or an http(s) URL). */
export async function readManifest(location: string, fetcher: Fetcher = defaultFetcher): Promise<Manifest> {
  if (/^https?:\/\//.test(location) || /\.m3u8$/i.test(location)) return readHlsLadder(location, fetcher);
  const text = await fetcher.text(pathToFileURL(location)).catch((err: Error) => {
    throw new Error(`manifest ${location}: ${err.message}`);
  });
  return text.trimStart().startsWith('#EXTM3U') ? readHlsLadder(location, fetcher) : parseSabreManifest(text, location);
}
