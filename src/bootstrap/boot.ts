// The first script of the page (DESIGN "critical path"): before the entry has landed, it starts the
// requests the first frame waits for, each through the same code the entry uses, so the entry takes
// them over (api/http.ts startEarly, providers/playlist-prefetch.ts startPrefetch) and nothing is
// fetched twice: the four catalogue calls, the ad list and hls.js at once; as soon as the episodes
// answer, the chosen episode's playlists, init segments and first fragments; as soon as the ad list
// answers, the first pre-roll's VAST.
import { isFresh } from '../api/auth';
import { getCrossOriginText, getJson, startEarly } from '../api/http';
import { readEmbedConfig } from '../config/embed-config';
import { embeddingAddress } from '../config/embedding-address';
import { createPieceLoader, preloadPieces } from '../core/pieces';
import { chooseInitialEpisode } from '../content/episodes';
import { loadContent, loadEpisodes } from '../content/load-content';
import { isDescriptorAddress, resolveSource } from '../content/source';
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
 * The ad list, hls.js, the ads piece with its chunks (the same URLs as the entry's, so one download
 * each) and, as soon as the list answers, the first pre-roll's VAST: the pre-roll waits for it, and so
 * does the content until it knows there is no ad; the piece that will read it may not have arrived
 * yet. hls.js before the piece: asked after it, it waited for a connection and was still downloading
 * when the ad's media file came, sharing the 1.44 Mb/s with it; asked here, it is in before then.
 */
const startAds = config.envAdListUrl
  ? () => {
      const listUrl = new URL(config.envAdListUrl!, document.baseURI).href;
      const list = startEarly(budget, () => getJson<{ prerollList?: unknown } | undefined>(listUrl));
      preloadPieces(config.assetBase);
      createPieceLoader(config.assetBase)('ads').catch(() => {});
      list
        .then((raw) => {
          const first: unknown = Array.isArray(raw?.prerollList) ? (raw.prerollList[0] as { vastUrl?: unknown } | undefined)?.vastUrl : undefined;
          if (typeof first !== 'string' || !first.trim()) return;
          // As ads/ad-list.ts reads it (vast-parse safeUrl), so the address is the one the piece asks for.
          const vast = new URL(first.trim(), listUrl);
          if (vast.protocol === 'http:' || vast.protocol === 'https:') startEarly(budget, () => getCrossOriginText(vast.href));
        })
        // A failure is the piece's to report, when it asks for the list or the VAST itself.
        .catch(() => {});
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
  // In the order the first frame needs them: on HTTP/1.1 the page has six connections a host, shared
  // with the entry's downloads, and a connection freed goes to the first asked among the highest
  // priority waiting (each fetch() below goes out as it is called: api/http.ts sends a valid Bearer
  // without a wait). The episodes first, read as they answer: the master playlist waits for them. The
  // ad list next (the pre-roll and the no-ad answer wait for it and one VAST), then hls.js (and the
  // ads piece, startAds). The entry's files are not among them: they are in the page's first wave
  // with the bootstrap's (build.mjs FIRST_WAVE_MAX), so all six connections are free here. The
  // availability, content and seasons once the master playlist is asked for, at low priority: only the
  // entry needs them, once hls.js is there; asked alongside, they held the connections the ad list and
  // the master playlist then waited ~0.5 s for (bench waterfalls). The entry taking one over meanwhile
  // waits for it.
  const episodes = startEarly(budget, () => loadEpisodes(apiBase, movieId));
  if (startAds) startAds();
  else preloadPieces(config.assetBase);
  // As controller/content-session.ts chooses the first episode and its source. The availability is not
  // known yet: content not available here costs the prefetch's bandwidth, and the entry plays the
  // placeholder.
  const playlistAsked = episodes
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
      if (!isDescriptorAddress(source.url) && pickEngine(source.url, detectCapabilities()) === 'hls') startPrefetch(source.url, source.startAt);
    })
    // A failure is the entry's to report (it takes the requests over); a bad address is left to it too.
    .catch(() => {});
  startEarly(budget, () => loadContent(apiBase, movieId, { checkAvailability: check, domain }).catch(() => {}), {
    priority: 'low',
    after: playlistAsked,
  });
} else {
  startAds?.();
  preloadPieces(config.assetBase);
}
