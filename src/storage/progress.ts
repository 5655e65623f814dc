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
