import type { Episode } from '../core/entities';

/** SPEC §3: episodes are ordered by season order, then episode order. Films have no season. */
export function sortEpisodes(list: readonly Episode[]): Episode[] {
  return [...list].sort((a, b) => (a.season?.order ?? 0) - (b.season?.order ?? 0) || a.order - b.order);
}

export interface EpisodeRequest {
  episodeId?: number;
  season?: number;
  episode?: number;
}

/** SPEC §4 initial episode choice: by id, by season and number, first not completed, first. */
export function chooseInitialEpisode(sorted: readonly Episode[], want: EpisodeRequest): Episode | undefined {
  return (
    (want.episodeId !== undefined ? sorted.find((e) => e.id === want.episodeId) : undefined) ??
    (want.season !== undefined
      ? sorted.find((e) => e.season?.order === want.season && e.order === (want.episode ?? 1))
      : undefined) ??
    sorted.find((e) => !e.isCompleted) ??
    sorted[0]
  );
}
