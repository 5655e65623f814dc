// SPEC §3/§5 episodesTimeProgress: episode id → seconds, or → {variant id → seconds} for an episode
// with variants. A per-variant lookup needs the active variant.

export type ProgressMap = Record<string, unknown>;

const seconds = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;

/** The saved position of an episode (of its variant when it has one), or undefined. */
export function progressOf(map: ProgressMap, episodeId: number, variantId: number | null): number | undefined {
  const v = map[episodeId];
  if (variantId === null) return seconds(v);
  return v && typeof v === 'object' ? seconds((v as Record<string, unknown>)[variantId]) : undefined;
}

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
