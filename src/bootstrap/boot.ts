// The first script of the page (DESIGN "critical path"): before the entry has landed, it starts the
// requests the first frame waits for, each through the same code the entry uses, so the entry takes
// them over (api/http.ts startEarly, providers/playlist-prefetch.ts startPrefetch) and nothing is
// fetched twice: the four catalogue calls and the ad list at once, then, as soon as the episodes and
// availability answer, the chosen episode's playlists, init segments and first fragments.
import { isFresh } from '../api/auth';
import { getAvailability } from '../api/catalog';
import { getJson, startEarly } from '../api/http';
import { readEmbedConfig } from '../config/embed-config';
import { embeddingAddress } from '../config/embedding-address';
import { createPieceLoader } from '../core/pieces';
import { chooseInitialEpisode } from '../content/episodes';
import { loadContent, loadEpisodes } from '../content/load-content';
import { isDescriptorAddress, resolveSource } from '../content/source';
import { readAvailability } from '../content/validate';
import { detectCapabilities, pickEngine } from '../providers/engine';
import { startPrefetch, useAudioPreferences } from '../providers/playlist-prefetch';
import { readCookie } from '../storage/cookies';
import { AUDIO_KEY, PROGRESS_KEY, VARIANTS_KEY, readMap } from '../storage/local';

const mount = document.getElementById('root');
let frame: DOMStringMap | undefined;
try {
  frame = (window.frameElement as HTMLElement | null)?.dataset;
} catch {
  frame = undefined;
}
// The same reading as the entry's (main.tsx), so every address comes out the same.
const config = readEmbedConfig({
  datasets: [mount?.dataset, frame],
  globals: window as unknown as Record<string, unknown>,
  search: location.search,
  scriptUrl: import.meta.url,
});
const { query, movieId } = config;
const budget = config.requestTimeoutMs;

/**
 * The ad list and the ads piece with its chunks (the same URLs as the entry's, so one download each):
 * the content waits for the first VAST answer and the pre-roll for the ad after it, and the VAST
 * request waits for both.
 */
const startAds = config.envAdListUrl
  ? () => {
      createPieceLoader(config.assetBase)('ads').catch(() => {});
      startEarly(budget, () => getJson(new URL(config.envAdListUrl!, document.baseURI).href)).catch(() => {});
    }
  : undefined;

const token = readCookie('authToken');
// An expired token is the client's to refresh, under its lock (SPEC §4): the calls are left to it.
if (movieId !== undefined && (!token || isFresh(token))) {
  useAudioPreferences(() => {
    const saved = readMap(AUDIO_KEY)[movieId];
    return { saved: typeof saved === 'string' ? saved : undefined, voiceAuthor: query.voiceAuthor, langOrder: config.langOrder };
  });
  // As controller/player.ts: from the address (a sandboxed frame's location.origin is 'null').
  const apiBase = config.envBaseUrl || new URL(location.href).origin;
  const domain = embeddingAddress({ inFrame: window.parent !== window, ancestorOrigins: location.ancestorOrigins, referrer: document.referrer, href: location.href });
  const check = !query.disableCheckingAvailable;
  // The episodes and the availability are read as each answers (asked again while starting early, an
  // address is the same request), without waiting for the other calls. They are asked first: on
  // HTTP/1.1 the calls share six connections with the entry's downloads, and the episodes are the
  // ones the next request (the master playlist) waits for.
  const [episodes, availability] = startEarly(budget, () => {
    const started = [loadEpisodes(apiBase, movieId), check ? getAvailability(apiBase, movieId, domain).then(readAvailability) : undefined] as const;
    loadContent(apiBase, movieId, { checkAvailability: check, domain }).catch(() => {});
    // The ads after the catalogue calls, which the first frame waits for longer (HTTP/1.1 hands out
    // connections in order). Their fetch() waits one microtask (api/http.ts: the Bearer), so the ads
    // wait one too, queued after theirs: started at once, they went first (bench waterfalls: the
    // episodes then waited ~0.5 s for a connection, and a no-fill list cost the content that more).
    if (startAds) void Promise.resolve().then(startAds);
    return started;
  });
  let available = true;
  availability?.then((a) => (available = a), () => {});
  // As controller/content-session.ts chooses the first episode and its source. Content known to be
  // not available by then plays the placeholder: nothing is prefetched for it (an availability that
  // answers later only costs the prefetch's bandwidth; the entry still plays the placeholder).
  episodes
    .then((list) => {
      const episode = chooseInitialEpisode(list, query);
      if (!episode || !available) return;
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
      if (!isDescriptorAddress(source.url) && pickEngine(source.url, detectCapabilities()) === 'hls') startPrefetch(source.url, source.startAt);
    })
    // A failure is the entry's to report (it takes the requests over); a bad address is left to it too.
    .catch(() => {});
} else startAds?.();
