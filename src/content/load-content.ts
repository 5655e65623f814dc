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
    getEpisodes(base, id, signal),
    opts.checkAvailability ? getAvailability(base, id, opts.domain, signal) : undefined,
  ]);
  return {
    content: readContent(content, id),
    seasons: readSeasons(seasons).sort((a, b) => a.order - b.order),
    episodes: sortEpisodes(readEpisodes(episodes, id)),
    isAvailable: readAvailability(availability),
  };
}
