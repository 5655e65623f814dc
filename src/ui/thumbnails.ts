// Preview thumbnails from a WebVTT sprite sheet (SPEC §3 "preview thumbnails": url, startTime,
// endTime, width, height, coords).

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

/** Parses `start --> end` cues whose text is `image#xywh=x,y,w,h`; bad cues are skipped. */
export function parseThumbnails(vtt: string, base: string): Thumbnail[] {
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
    let url: string;
    try {
      url = new URL(file, base).href;
    } catch {
      continue;
    }
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

