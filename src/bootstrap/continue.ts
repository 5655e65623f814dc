// The rest of the bootstrap's start (boot.ts), run by the entry as it lands, long before the episodes
// answer: as soon as they do, the chosen episode's playlists, init segments and first fragments
// (providers/playlist-prefetch.ts, which hls.js takes over); then, at low priority, the other
// catalogue calls. Each through the code the entry uses, so it takes them over and nothing is
// fetched twice; the episodes are the bootstrap's request, found by its address (api/http.ts).
import { startEarly } from '../api/http';
import type { EmbedConfig } from '../config/embed-config';
import { chooseInitialEpisode } from '../content/episodes';
import { loadContent, loadEpisodes } from '../content/load-content';
import { isDescriptorAddress, resolveSource } from '../content/source';
import { detectCapabilities, pickEngine } from '../providers/engine';
import { settleGuess, startPrefetch, useAudioPreferences } from '../providers/playlist-prefetch';
import { AUDIO_KEY, PROGRESS_KEY, VARIANTS_KEY, readMap } from '../storage/local';
import { earlyCatalogue } from './page-config';

/** `domain`: the embedding page's address, as the entry's availability call sends it. */
export function continueStart(config: EmbedConfig, domain: string): void {
  const catalogue = earlyCatalogue(config);
  if (!catalogue) return;
  const { apiBase, movieId } = catalogue;
  const { query } = config;
  const budget = config.requestTimeoutMs;
  useAudioPreferences(() => {
    const saved = readMap(AUDIO_KEY)[movieId];
    return { saved: typeof saved === 'string' ? saved : undefined, voiceAuthor: query.voiceAuthor, langOrder: config.langOrder };
  });
  // As controller/content-session.ts chooses the first episode and its source. The availability is not
  // known yet: content not available here costs the prefetch's bandwidth, and the entry plays the
  // placeholder.
  const playlistAsked = startEarly(budget, () => loadEpisodes(apiBase, movieId))
    .then((list) => {
      const episode = chooseInitialEpisode(list, query);
      if (!episode) return;
      const source = resolveSource(episode, {
        isAvailable: true,
        activeVariantId: null,
        queryVariantId: query.episodeVariantId,
        savedVariantId: readMap(VARIANTS_KEY)[episode.contentId],
        progress: readMap(PROGRESS_KEY),
        startAt: query.timeCode ?? query.episodeTime ?? 0,
        keepPlaying: false,
        placeholderUrl: '',
        absolute: (url) => new URL(url, apiBase + '/').href,
      });
      // A returning viewer's guess (boot.ts) holds or is dropped here, before the entry needs it.
      settleGuess(episode.id, source.variantId, source.url);
      if (!isDescriptorAddress(source.url) && pickEngine(source.url, detectCapabilities()) === 'hls') startPrefetch(source.url, source.startAt);
    })
    // A failure is the entry's to report (it takes the requests over); a bad address is left to it too.
    .catch(() => {});
  // The availability, content and seasons once the master playlist is asked for, at low priority: only
  // the entry needs them, once hls.js is there; asked alongside, they held the connections the ad list
  // and the master playlist then waited ~0.5 s for (bench waterfalls). The entry taking one over
  // meanwhile waits for it.
  startEarly(budget, () => loadContent(apiBase, movieId, { checkAvailability: !query.disableCheckingAvailable, domain }).catch(() => {}), {
    priority: 'low',
    after: playlistAsked,
  });
}
