// Preview thumbnails from a WebVTT or JSON list over sprite sheets (SPEC §3 "preview thumbnails":
// url, startTime, endTime, width, height, coords).

export interface Thumbnail {
  url: string;
  startTime: number;
  endTime: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** SPEC §9: thumbnail cache 99 entries. */
export const THUMBNAIL_CACHE = 99;

const vttTime = (s: string): number => {
  const parts = s.trim().split(':').map(Number);
  return parts.reduce((acc, n) => acc * 60 + n, 0);
};

const absolute = (file: string, base: string): string | undefined => {
  try {
    return new URL(file, base).href;
  } catch {
    return undefined;
  }
};

const finite = (v: unknown, fallback?: number): number | undefined => {
  const n = typeof v === 'string' && v.trim() ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback;
};

/**
 * SPEC §7: thumbnail files are JSON or WebVTT. JSON is a list (or `{thumbnails: [...]}`) of
 * `{url, startTime, endTime, width?, height?, coords?: {x, y} | [x, y]}`; entries without a usable
 * url and times are skipped, and the list is put in time order for the lookup.
 */
export function parseThumbnails(text: string, base: string): Thumbnail[] {
  const head = text.trimStart()[0];
  if (head !== '[' && head !== '{') return parseVttThumbnails(text, base);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const list = Array.isArray(doc) ? doc : (doc as { thumbnails?: unknown } | null)?.thumbnails;
  if (!Array.isArray(list)) return [];
  const out: Thumbnail[] = [];
  for (const item of list as Array<Record<string, unknown> | null>) {
    const url = typeof item?.url === 'string' ? absolute(item.url, base) : undefined;
    const startTime = finite(item?.startTime);
    const endTime = finite(item?.endTime);
    if (!url || startTime === undefined || endTime === undefined || endTime <= startTime) continue;
    const coords = item!.coords as { x?: unknown; y?: unknown } | unknown[] | undefined;
    const [x, y] = Array.isArray(coords) ? coords : [coords?.x, coords?.y];
    out.push({
      url,
      startTime,
      endTime,
      x: finite(x, 0)!,
      y: finite(y, 0)!,
      width: finite(item!.width, 0)!,
      height: finite(item!.height, 0)!,
    });
  }
  return out.sort((a, b) => a.startTime - b.startTime);
}

/** Parses `start --> end` cues whose text is `image#xywh=x,y,w,h`; bad cues are skipped. */
function parseVttThumbnails(vtt: string, base: string): Thumbnail[] {
  const out: Thumbnail[] = [];
  const blocks = vtt.replace(/\r/g, '').split(/\n\n+/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const timing = lines.findIndex((l) => l.includes('-->'));
    if (timing < 0 || !lines[timing + 1]) continue;
    const [from, to] = lines[timing].split('-->');
    const [file, hash = ''] = lines[timing + 1].trim().split('#');
    const xywh = /xywh=(\d+),(\d+),(\d+),(\d+)/.exec(hash);
    const startTime = vttTime(from);
    const endTime = vttTime(to.trim().split(/\s/)[0]);
    if (!Number.isFinite(startTime) || !Number.isFinite(endTime)) continue;
    const url = absolute(file, base);
    if (!url) continue;
    const [x, y, width, height] = xywh ? xywh.slice(1).map(Number) : [0, 0, 0, 0];
    out.push({ url, startTime, endTime, x, y, width, height });
  }
  return out;
}

/** Finds the thumbnail for a time, keeping at most 99 answers (LRU) for a scrubbing pointer. */
export function thumbnailFinder(thumbs: Thumbnail[], limit = THUMBNAIL_CACHE) {
  const cache = new Map<number, Thumbnail | undefined>();
  const at = (time: number): Thumbnail | undefined => {
    const key = Math.floor(time);
    if (cache.has(key)) {
      const hit = cache.get(key);
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    let lo = 0;
    let hi = thumbs.length - 1;
    let found: Thumbnail | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = thumbs[mid];
      if (time < t.startTime) hi = mid - 1;
      else if (time >= t.endTime) lo = mid + 1;
      else {
        found = t;
        break;
      }
    }
    cache.set(key, found);
    if (cache.size > limit) cache.delete(cache.keys().next().value as number);
    return found;
  };
  return { at, size: () => cache.size };
}

