import type { EmbedConfig } from '../config/embed-config';
import type { Episode } from '../core/entities';
import { chooseInitialEpisode } from '../content/episodes';
import { type SourceChoice, isDescriptorAddress, resolveSource } from '../content/source';
import { detectCapabilities, pickEngine } from '../providers/engine';
import { PROGRESS_KEY, VARIANTS_KEY, recallMap } from '../storage/memory';

export interface FirstSource {
  episode: Episode;
  source: SourceChoice;
  /** The source is an HLS master hls.js will play: its playlists and fragments may be fetched ahead. */
  isHls: boolean;
}

/**
 * The episode and source the entry will start on, as controller/content-session.ts chooses them (the
 * query, the saved variant and start time), from the episodes' answer alone. The availability is not
 * known yet: content not available here costs what is fetched ahead, and the entry plays the
 * placeholder.
 */
export function chooseFirstSource(list: Episode[], config: EmbedConfig, apiBase: string): FirstSource | undefined {
  const { query } = config;
  const episode = chooseInitialEpisode(list, query);
  if (!episode) return;
  const source = resolveSource(episode, {
    isAvailable: true,
    activeVariantId: null,
    queryVariantId: query.episodeVariantId,
    savedVariantId: recallMap(VARIANTS_KEY)[episode.contentId],
    progress: recallMap(PROGRESS_KEY),
    startAt: query.timeCode ?? query.episodeTime ?? 0,
    keepPlaying: false,
    placeholderUrl: '',
    absolute: (url) => new URL(url, apiBase + '/').href,
  });
  const isHls = !isDescriptorAddress(source.url) && pickEngine(source.url, detectCapabilities()) === 'hls';
  return { episode, source, isHls };
}
