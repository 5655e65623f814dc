import type { ProgressMap } from './progress';

/** A copy of map with the position set, or removed when `at` is undefined. */
export function withProgress(
  map: ProgressMap,
  episodeId: number,
  variantId: number | null,
  at: number | undefined,
): ProgressMap {
  const next: ProgressMap = { ...map };
  if (variantId === null) {
    if (at === undefined) delete next[episodeId];
    else next[episodeId] = at;
    return next;
  }
  const old = map[episodeId];
  const variants: Record<string, unknown> = old && typeof old === 'object' ? { ...(old as Record<string, unknown>) } : {};
  if (at === undefined) delete variants[variantId];
  else variants[variantId] = at;
  next[episodeId] = variants;
  return next;
}
