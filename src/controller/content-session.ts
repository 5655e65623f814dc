import { batch } from '@preact/signals-core';
import { getJson } from '../api/http';
import type { EmbedConfig } from '../config/embed-config';
import { chooseInitialEpisode } from '../content/episodes';
import { loadContent } from '../content/load-content';
import type { Bus } from '../core/bus';
import type { Episode } from '../core/entities';
import { type ErrorCode, type ErrorData, httpError, isAbortError, isHttpError } from '../core/errors';
import type { PieceLoader } from '../core/player-api';
import type { Store } from '../core/store';
import { AUDIO_KEY, PROGRESS_KEY, VARIANTS_KEY, recallMap } from '../storage/memory';
import { deadline, isTimeoutError, nextTask, whenAborted } from '../core/deadline';
import { isDescriptorAddress, resolveSource } from '../content/source';

/** The master descriptor's budget: past it, 'Ошибка в загрузке: {address}' (SPEC §8). */
export const DESCRIPTOR_TIMEOUT_MS = 8000;

export interface SessionDeps {
  store: Store;
  bus: Bus;
  config: EmbedConfig;
  /** The embedding page's address, for the availability check. */
  domain: string;
  /** Base of the catalogue API; relative catalogue links resolve against it. */
  apiBase: string;
  load: PieceLoader;
  fail(code: ErrorCode, message: string, data?: ErrorData): void;
  /** Hands an address to the media (once it is attached). */
  setSource(url: string, startAt: number): void;
}

/**
 * One content session (SPEC §4): the four catalogue calls together under one time budget, the first
 * episode's choice, and each episode's source (through its descriptor when it has one).
 */
export function createContentSession({ store, bus, config, domain, apiBase, load, fail, setSource }: SessionDeps) {
  const { query } = config;
  let loadAbort: AbortController | undefined;
  const life = new AbortController();
  let selection = 0;

  const absolute = (url: string) => {
    try {
      return new URL(url, apiBase + '/').href;
    } catch {
      return url;
    }
  };

  async function start(): Promise<void> {
    if (config.movieId === undefined) return fail('movie-id-missing', 'movie_id missing');
    loadAbort?.abort();
    const abort = (loadAbort = new AbortController());
    // The whole catalogue answer has one budget (env_request_timeout): past it, the generic screen.
    const wait = deadline(config.requestTimeoutMs, abort.signal);
    store.loading.value = true;
    let loaded;
    try {
      loaded = await loadContent(apiBase, config.movieId, {
        checkAvailability: !query.disableCheckingAvailable,
        domain,
        signal: wait.signal,
      });
    } catch (err) {
      if (abort !== loadAbort) return;
      const cause = wait.signal.aborted ? wait.signal.reason : err;
      if (isHttpError(cause) && cause.status === 404) return fail('content-not-found', 'content not found', { cause });
      if (isTimeoutError(cause)) return fail('content-timeout', 'content load timed out', { cause });
      return fail('content-load-failed', isAbortError(cause) ? 'content load aborted' : 'content load failed', { cause });
    } finally {
      wait.done();
    }
    if (abort !== loadAbort) return;
    batch(() => {
      store.content.value = loaded.content;
      store.episodes.value = loaded.episodes;
      store.seasons.value = loaded.seasons;
      store.isAvailable.value = loaded.isAvailable;
      store.loading.value = false;
    });
    bus.emit('content:loaded', loaded);
    // The interface shows the content in this task; the episode's source starts in the next one
    // (two short tasks in front of the first frame, not one long one).
    await nextTask();
    if (abort !== loadAbort || life.signal.aborted) return;
    const episode = chooseInitialEpisode(loaded.episodes, query);
    // Nothing to play is, to the viewer, content that is not available: 'Контент не доступен'.
    if (!episode) return fail('content-not-found', 'content has no episodes', { cause: httpError(404, apiBase, 'no episodes') });
    await selectEpisode(episode, query.timeCode ?? query.episodeTime ?? 0);
  }

  /** Without startAt, a selection that keeps playing resumes at the saved position (SPEC §3). */
  async function selectEpisode(episode: Episode, startAt?: number): Promise<void> {
    const mine = ++selection;
    store.episode.value = episode;
    store.descriptor.value = null;
    bus.emit('content:episode-changed', { episode });
    store.sourceUrl.value = '';
    const source = resolveSource(episode, {
      isAvailable: store.isAvailable.value,
      activeVariantId: store.activeVariantId.value,
      queryVariantId: query.episodeVariantId,
      savedVariantId: recallMap(VARIANTS_KEY)[episode.contentId],
      progress: recallMap(PROGRESS_KEY),
      startAt,
      keepPlaying: store.playRequested.value,
      placeholderUrl: config.assetBase + 'placeholder.mp4',
      absolute,
    });
    batch(() => {
      store.activeVariantId.value = source.variantId;
      store.savedTime.value = source.savedTime;
    });
    let url = source.url;
    if (store.isAvailable.value && isDescriptorAddress(url)) {
      const address = url;
      try {
        // Its reader downloads while the descriptor does.
        const wait = deadline(DESCRIPTOR_TIMEOUT_MS, life.signal);
        const [raw, reader] = await Promise.race([
          Promise.all([getJson(address, wait.signal), load('descriptor')]),
          whenAborted(wait.signal),
        ]).finally(wait.done);
        // The viewer may have chosen another episode meanwhile: this one is history.
        if (life.signal.aborted || mine !== selection) return;
        const descriptor = reader.readDescriptor(raw, address);
        store.descriptor.value = descriptor;
        const savedAudio = recallMap(AUDIO_KEY)[episode.contentId];
        url = reader.chooseSource(descriptor.sources, typeof savedAudio === 'string' ? savedAudio : undefined)!.link;
      } catch (err) {
        if (life.signal.aborted || mine !== selection) return;
        return fail('descriptor-load-failed', 'descriptor load failed', { cause: err, address });
      }
    }
    setSource(url, source.startAt);
  }

  return {
    start,
    selectEpisode,
    dispose(): void {
      loadAbort?.abort();
      life.abort();
    },
  };
}
