// The rest of the bootstrap's start (boot.ts), run by the entry as it lands, long before the episodes
// answer: as soon as they do, the chosen episode's playlists, init segments and first fragments
// (providers/playlist-prefetch.ts, which hls.js takes over); then, at low priority, the other
// catalogue calls. Each through the code the entry uses, so it takes them over and nothing is
// fetched twice; the episodes are the bootstrap's request, found by its address (api/http.ts).
import { startEarly } from '../api/http';
import type { EmbedConfig } from '../config/embed-config';
import { loadContent, loadEpisodes } from '../content/load-content';
import { settleGuess, startPrefetch, useAudioPreferences } from '../providers/playlist-prefetch';
import { FIRST_ASK_WAIT_MS, firstAsk } from '../providers/start-guess';
import { AUDIO_KEY, recallMap } from '../storage/memory';
import { chooseFirstSource } from './first-source';
import { earlyCatalogue } from './page-config';

/** `domain`: the embedding page's address, as the entry's availability call sends it. */
export function continueStart(config: EmbedConfig, domain: string): void {
  const catalogue = earlyCatalogue(config);
  if (!catalogue) return;
  const { apiBase, movieId } = catalogue;
  const { query } = config;
  const budget = config.requestTimeoutMs;
  useAudioPreferences(() => {
    const saved = recallMap(AUDIO_KEY)[movieId];
    return { saved: typeof saved === 'string' ? saved : undefined, voiceAuthor: query.voiceAuthor, langOrder: config.langOrder };
  });
  const playlistAsked = startEarly(budget, () => loadEpisodes(apiBase, movieId))
    // The bootstrap's handler of the same answer asks for the master (boot.ts); whichever of the two
    // chains settles first, this one takes that request over rather than asking again (an entry landed
    // before the answer asked for the master a second time in a third of the bench's runs).
    .then((list) => firstAsk(FIRST_ASK_WAIT_MS).then(() => list))
    .then((list) => {
      const first = chooseFirstSource(list, config, apiBase);
      if (!first) return;
      const { episode, source } = first;
      // A returning viewer's guess, or the bootstrap's own master (boot.ts), holds or is dropped here,
      // before the entry needs it.
      settleGuess(episode.id, source.variantId, source.url);
      if (first.isHls) startPrefetch(source.url, source.startAt);
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
