import { getAvailability, getContent, getEpisodes, getSeasons } from '../api/catalog';
import { sortEpisodes } from './episodes';
import { readAvailability, readContent, readEpisodes, readSeasons } from './validate';
import type { Content, Episode, Season } from '../core/entities';

export interface LoadedContent {
  content: Content;
  episodes: Episode[];
  seasons: Season[];
  /** SPEC §4: an absent availability answer means available. */
  isAvailable: boolean;
}

/** The episodes of a content, playable ones only, in SPEC §3 order. */
export const loadEpisodes = (base: string, id: number, signal?: AbortSignal): Promise<Episode[]> =>
  getEpisodes(base, id, signal).then((raw) => sortEpisodes(readEpisodes(raw, id)));

/** SPEC §4: details, seasons, episodes and (unless disabled) availability, together in parallel. */
export async function loadContent(
  base: string,
  id: number,
  opts: { checkAvailability: boolean; domain: string; signal?: AbortSignal },
): Promise<LoadedContent> {
  const { signal } = opts;
  const [content, seasons, episodes, availability] = await Promise.all([
    getContent(base, id, signal),
    getSeasons(base, id, signal),
    loadEpisodes(base, id, signal),
    opts.checkAvailability ? getAvailability(base, id, opts.domain, signal) : undefined,
  ]);
  return {
    content: readContent(content, id),
    seasons: readSeasons(seasons).sort((a, b) => a.order - b.order),
    episodes,
    isAvailable: readAvailability(availability),
  };
}
