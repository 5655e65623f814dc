import { type ProgressMap, progressOf } from './progress';
import type { Episode } from '../core/entities';

/** SPEC §3: a master descriptor is loaded when the source address contains .json. */
export const isDescriptorAddress = (url: string) => url.includes('.json');

export interface SourceInputs {
  isAvailable: boolean;
  /** The variant already playing (a variant switch sets it first). */
  activeVariantId: number | null;
  /** episode_variant_id of the query. */
  queryVariantId?: number;
  /** SPEC §3 episodeVariants: the variant the viewer chose for this content before. */
  savedVariantId?: unknown;
  /** SPEC §3 episodesTimeProgress. */
  progress: ProgressMap;
  /** Where to start; without it a selection that keeps playing resumes at the saved position. */
  startAt?: number;
  keepPlaying: boolean;
  placeholderUrl: string;
  /** Resolves a catalogue link (relative to the API base). */
  absolute(url: string): string;
}

export interface SourceChoice {
  variantId: number | null;
  /** The address to load: the variant's, the episode's, or the placeholder when not available. */
  url: string;
  startAt: number;
  /** The saved position, for the resume prompt. */
  savedTime: number | undefined;
}

/**
 * Which address an episode plays from and where (SPEC §3/§4): the active variant, else the query's,
 * else the saved one, else the first; content that is not available plays the placeholder from 0.
 */
export function resolveSource(episode: Episode, i: SourceInputs): SourceChoice {
  const variants = episode.episodeVariants ?? [];
  const variant =
    variants.find((v) => v.id === i.activeVariantId) ??
    variants.find((v) => v.id === i.queryVariantId) ??
    variants.find((v) => v.id === i.savedVariantId) ??
    variants[0];
  const variantId = variant ? variant.id : null;
  const savedTime = progressOf(i.progress, episode.id, variantId);
  if (!i.isAvailable) return { variantId, url: i.placeholderUrl, startAt: 0, savedTime };
  return {
    variantId,
    url: i.absolute(variant?.filepath ?? episode.m3u8MasterFilePath),
    startAt: i.startAt ?? (i.keepPlaying ? savedTime ?? 0 : 0),
    savedTime,
  };
}
