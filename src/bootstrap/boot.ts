// The first script of the page (DESIGN "critical path"): before the entry has landed, it starts the
// requests whose addresses the page's own address gives, through the same code the entry uses, so the
// entry takes them over (api/http.ts startEarly) and nothing is fetched twice: the episodes, the ad
// list, hls.js and the ads piece at once; as soon as the list answers, the first pre-roll's VAST. For a
// title this device played before, the other catalogue calls and what it played first too.
// Only those: everything it imports is in the page's first wave and must arrive before the first of
// them can go out (each kilobyte there shares the 1.44 Mb/s with the entry's). What follows from the
// episodes' answer is the chosen episode's master, asked here (a first visit), and then its playlists
// and fragments and the other catalogue calls: continue.ts, run by the entry.
import { getAvailability, getContent, getSeasons } from '../api/catalog';
import { getCrossOriginText, getJson, startEarly } from '../api/http';
import { createPieceLoader, preloadPieces } from '../core/pieces';
import { loadEpisodes } from '../content/load-content';
import { chooseFirstSource } from './first-source';
import { startGuess } from './guess';
import { canAppendEarly, deferEngine, offerFirstAsk } from '../providers/start-guess';
import { recallStart } from '../storage/start-memory';
import { earlyCatalogue, pageDomain, readPageConfig } from './page-config';

/** Starts the page's first requests: run once a page (build.mjs: the page's modules, set up before it). */
export function boot(): void {
  const config = readPageConfig(document.getElementById('root'), import.meta.url);
  const budget = config.requestTimeoutMs;
  const catalogue = earlyCatalogue(config);

  // In the order the first frame needs them: on HTTP/1.1 the page has six connections a host, and a
  // connection freed goes to the first asked among the highest priority waiting (each fetch() goes out
  // as it is called: api/http.ts sends a valid Bearer without a wait). The episodes first: the master
  // playlist waits for them. The entry's files are not among them: they are the page's first wave
  // (build.mjs FIRST_WAVE_MAX), three files, so three connections are free here. A failure is the
  // entry's to report, when it takes the request over.
  const episodes = catalogue && startEarly(budget, () => loadEpisodes(catalogue.apiBase, catalogue.movieId).catch(() => undefined));
  // A title this device played before (storage/start-memory.ts): the entry and hls.js come from the
  // HTTP cache, so the connections are free for the other catalogue calls at once (the first frame
  // waits for all four, the availability above all: SPEC §4).
  const remembered = catalogue && recallStart(catalogue.movieId);
  if (remembered) {
    const { apiBase, movieId } = catalogue;
    startEarly(budget, () => {
      const calls = [getContent(apiBase, movieId), getSeasons(apiBase, movieId)];
      if (!config.query.disableCheckingAvailable) calls.push(getAvailability(apiBase, movieId, pageDomain()));
      calls.forEach((call) => call.catch(() => {}));
    });
  }

  /**
   * The ad list next (the pre-roll and the no-ad answer wait for it and one VAST), then hls.js, then the
   * ads piece with its chunks (the same URLs as the entry's, so one download each) and, as soon as the
   * list answers, the first pre-roll's VAST: the pre-roll waits for it, and so does the content until it
   * knows there is no ad; the piece that will read it may not have arrived yet. hls.js before the
   * piece: asked after it, it waited for a connection and was still downloading when the ad's media
   * file came, sharing the 1.44 Mb/s with it; asked here, it is in before then.
   */
  if (config.envAdListUrl) {
    const listUrl = new URL(config.envAdListUrl, document.baseURI).href;
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
  } else if (!remembered && !(config.query.timeCode ?? config.query.episodeTime) && canAppendEarly()) {
    // A first visit from the start without ads: the page appends the start's first fragments itself
    // (providers/early-media.ts), and hls.js is asked once they are in, not before: on a slow link its
    // 154 kB shared the link with them.
    deferEngine();
  } else preloadPieces(config.assetBase);
  // And what it played first last time, guessed: the catalogue's answer keeps it or drops it
  // (bootstrap/continue.ts). Last: a guess is worth less than any request above.
  if (remembered) startGuess(remembered, config.query.timeCode ?? config.query.episodeTime ?? 0);
  // A first visit: the master of the episode the entry will choose, as soon as the episodes answer. The
  // entry is still downloading then (on Fast 3G it lands ~0.15 s later, bench chain); its prefetch takes
  // the master over as it would a returning viewer's guess (continue.ts settleGuess), and asks for the
  // rest. This handler runs before the entry's for the same answer: the bootstrap asked first.
  else if (episodes)
    offerFirstAsk(
      episodes
        .then((list) => {
          const first = list && chooseFirstSource(list, config, catalogue.apiBase);
          if (!first?.isHls) return;
          const { episode, source } = first;
          const { movieId: movie } = catalogue;
          startGuess({ movie, episode: episode.id, variant: source.variantId, master: source.url, at: source.startAt, playlists: [], segments: [] }, source.startAt);
        })
        // A bad address is the entry's to report too.
        .catch(() => {}),
    );
}
