import { batch, effect } from '@preact/signals';
import { createAdGate } from '../ads/gate';
import { getJson, httpError, isAbortError } from '../api/http';
import type { EmbedConfig } from '../config/embed-config';
import { chooseSource, isDescriptorAddress, readDescriptor } from '../content/descriptor';
import { chooseInitialEpisode } from '../content/episodes';
import { loadContent } from '../content/load-content';
import type { Episode } from '../content/types';
import { type Cause, createBus } from '../core/bus';
import { type ErrorType, type PlayerError, classify } from '../core/errors';
import { createStore } from '../core/store';
import { loadWidget } from '../core/widgets';
import { detectCapabilities, pickEngine } from '../providers/engine';
import { shouldStretch } from './fullscreen';
import { AUDIO_KEY, MUTED_KEY, PROGRESS_KEY, VARIANTS_KEY, VOLUME_KEY, readMap, readStored } from '../storage/local';
import { progressOf } from '../storage/progress';
import { type Media, bindMedia } from '../providers/media';
import { type PlaylistCache, prefetchPlaylists } from '../providers/playlist-prefetch';

export interface PlayerEnv {
  /** The embedding page's address, for the availability check. */
  domain: string;
  /** The player page's own address: relative catalogue links resolve against the API base or it. */
  pageUrl: string;
}

/** SPEC §9 player default: seek request throttle. */
export const SEEK_THROTTLE_MS = 100;

/**
 * Wires one player: loads the content, chooses the episode and its source, hands it to the media
 * provider, and turns requests into provider calls. UI and other callers only use `requests`.
 */
export function createPlayer(config: EmbedConfig, env: PlayerEnv) {
  const store = createStore();
  const bus = createBus();
  const caps = detectCapabilities();
  const { query } = config;
  const apiBase = config.envBaseUrl || new URL(env.pageUrl).origin;
  const placeholderUrl = config.assetBase + 'placeholder.mp4';
  let media: Media | undefined;
  let container: HTMLElement | undefined;
  let pending: { url: string; startAt: number; prefetched?: PlaylistCache } | undefined;
  let loadAbort: AbortController | undefined;
  let autoplayPending = query.autoPlay;
  let sourceReady = false;
  const disposers: Array<() => void> = [];

  // Evaluates the hls.js module the HTML already preloads, in parallel with the catalogue calls.
  if (caps.mediaSource) loadWidget('hls', config.assetBase).catch(() => {});

  // A page going away cuts its requests ("Failed to fetch"): that is not a failure to show or report.
  let leaving = false;
  const onPageHide = () => (leaving = true);
  const onPageShow = () => (leaving = false);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  disposers.push(() => {
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
  });

  function fail(type: ErrorType, details: string, cause?: unknown, address?: string): void {
    if (store.error.value || leaving) return;
    const error: PlayerError = classify(type, details, cause, address);
    if (type !== 'blocked') media?.pause('api');
    batch(() => {
      store.error.value = error;
      store.loading.value = false;
    });
    if (type !== 'config' && type !== 'blocked') console.error(`[player] ${type}: ${details}`, cause ?? '');
    bus.emit('player:error', { error });
  }

  async function start(): Promise<void> {
    if (config.movieId === undefined) return fail('config', 'movie_id missing');
    loadAbort?.abort();
    const abort = (loadAbort = new AbortController());
    const timer = setTimeout(() => abort.abort(new DOMException('catalogue timeout', 'TimeoutError')), config.requestTimeoutMs);
    store.loading.value = true;
    let loaded;
    try {
      loaded = await loadContent(apiBase, config.movieId, {
        checkAvailability: !query.disableCheckingAvailable,
        domain: env.domain,
        signal: abort.signal,
      });
    } catch (err) {
      if (abort !== loadAbort) return;
      const reason = abort.signal.aborted ? abort.signal.reason : err;
      return fail('content', isAbortError(reason) ? 'content load aborted' : 'content load failed', reason);
    } finally {
      clearTimeout(timer);
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
    const episode = chooseInitialEpisode(loaded.episodes, query);
    // Nothing to play is, to the viewer, content that is not available: 'Контент не доступен'.
    if (!episode) return fail('content', 'content has no episodes', httpError(404, apiBase, 'no episodes'));
    await selectEpisode(episode, query.timeCode ?? query.episodeTime ?? 0);
  }

  /** Without startAt, a selection that keeps playing resumes at the saved position (SPEC §3). */
  async function selectEpisode(episode: Episode, startAt?: number): Promise<void> {
    store.episode.value = episode;
    store.descriptor.value = null;
    bus.emit('content:episode-changed', { episode });
    store.sourceUrl.value = '';
    const variants = episode.episodeVariants ?? [];
    const variant =
      variants.find((v) => v.id === store.activeVariantId.value) ??
      variants.find((v) => v.id === query.episodeVariantId) ??
      variants.find((v) => v.id === readMap(VARIANTS_KEY)[episode.contentId]) ??
      variants[0];
    store.activeVariantId.value = variant ? variant.id : null;
    const at =
      startAt ?? (store.playRequested.value ? progressOf(readMap(PROGRESS_KEY), episode.id, store.activeVariantId.value) ?? 0 : 0);
    let url = store.isAvailable.value
      ? absolute(variant?.filepath ?? episode.m3u8MasterFilePath)
      : placeholderUrl;
    if (store.isAvailable.value && isDescriptorAddress(url)) {
      const address = url;
      try {
        const descriptor = readDescriptor(await getJson(address), address);
        store.descriptor.value = descriptor;
        const savedAudio = readMap(AUDIO_KEY)[episode.contentId];
        url = chooseSource(descriptor.sources, typeof savedAudio === 'string' ? savedAudio : undefined)!.link;
      } catch (err) {
        return fail('source', 'descriptor load failed', err, address);
      }
    }
    setSource(url, store.isAvailable.value ? at : 0);
  }

  function absolute(url: string): string {
    try {
      return new URL(url, apiBase + '/').href;
    } catch {
      return url;
    }
  }

  function setSource(url: string, startAt: number, prefetched?: PlaylistCache): void {
    // A seek still waiting for its turn belonged to the old source.
    seekTarget = undefined;
    store.sourceUrl.value = url;
    // Playlists are fetched the moment the address is known, while hls.js itself still downloads.
    prefetched ??= pickEngine(url, caps) === 'hls' ? prefetchPlaylists(url) : undefined;
    if (!media) {
      pending = { url, startAt, prefetched };
      return;
    }
    sourceReady = false;
    void media.load(url, startAt, prefetched).then(() => {
      sourceReady = true;
      startIfAsked('user');
    });
  }

  /** Autoplay or a play asked for earlier, once the source is set and no ad holds the content. */
  function startIfAsked(cause: Cause): void {
    if (!media || !sourceReady || gate.holds()) return;
    if (autoplayPending) {
      autoplayPending = false;
      void autoplay();
    } else if (store.playRequested.value) void media.play(cause);
  }

  /** With sound first; when the browser refuses, muted with an unmute button (DESIGN). */
  async function autoplay(): Promise<void> {
    if (!media || (await media.play('autoplay'))) return;
    media.setMuted(true);
    store.mutedAutoplay.value = true;
    if (await media.play('autoplay')) return;
    store.mutedAutoplay.value = false;
    media.setMuted(false);
  }

  // SPEC §4 ad loader: an ad that is ready pauses the content (to resume after it); stopped releases it.
  const gate = createAdGate(
    store,
    bus,
    config,
    () => {
      if (!store.paused.peek()) store.playRequested.value = true;
      media?.pause('ad');
    },
    () => startIfAsked('ad'),
    async () => media?.takePip(),
  );
  disposers.push(gate.destroy);

  disposers.push(
    // SPEC §4: content that is not available raises the blocked error once the placeholder plays.
    effect(() => {
      if (!store.isAvailable.value && (store.started.value || store.ended.value)) fail('blocked', 'content not available here');
    }),
  );

  const onFullscreenChange = () => {
    const active = !!container && document.fullscreenElement === container;
    store.fullscreen.value = active;
    bus.emit('player:fullscreen', { active, mode: 'native' });
  };
  const setStretched = (active: boolean) => {
    batch(() => {
      store.stretched.value = active;
      store.fullscreen.value = active;
    });
    bus.emit('player:fullscreen', { active, mode: 'stretched' });
  };
  document.addEventListener('fullscreenchange', onFullscreenChange);
  disposers.push(() => document.removeEventListener('fullscreenchange', onFullscreenChange));

  // SPEC §9 seek request throttle 100 ms: a held arrow key or a dragged media-session scrubber asks
  // for dozens of seeks a second; the first goes at once, the last one of each 100 ms follows, and
  // relative seeks add up from the target still pending so no key press is lost.
  let seekTarget: number | undefined;
  let seekTimer: ReturnType<typeof setTimeout> | undefined;
  let lastSeekAt = -Infinity;
  const flushSeek = () => {
    seekTimer = undefined;
    lastSeekAt = performance.now();
    const to = seekTarget;
    seekTarget = undefined;
    if (to !== undefined) ready()?.seek(to);
  };
  const requestSeek = (to: number) => {
    if (!Number.isFinite(to)) return;
    seekTarget = to;
    const wait = lastSeekAt + SEEK_THROTTLE_MS - performance.now();
    if (wait <= 0) flushSeek();
    else seekTimer ??= setTimeout(flushSeek, wait);
  };
  disposers.push(() => clearTimeout(seekTimer));

  /** The media for a viewer's request; before the UI attached it, SPEC §8 'media not ready' is logged. */
  const ready = (): Media | undefined => media ?? void console.warn('[player] media not ready');

  const requests = {
    play(cause: Cause = 'user'): void {
      if (store.error.value) return;
      store.playRequested.value = true;
      if (!media || !store.sourceUrl.value || gate.holds()) return;
      void media.play(cause).then((ok) => {
        if (!ok) store.playRequested.value = false;
      });
    },
    pause(cause: Cause = 'user'): void {
      store.playRequested.value = false;
      media?.pause(cause);
    },
    togglePlay(cause: Cause = 'user'): void {
      // The element's state, not the store's: a second press right after a play() would read 'paused'.
      if (media ? media.isPaused() : store.paused.value) requests.play(cause);
      else requests.pause(cause);
    },
    seek(time: number): void {
      requestSeek(time);
    },
    setPlaybackRate(rate: number): void {
      if (Number.isFinite(rate) && rate > 0) ready()?.setPlaybackRate(rate);
    },
    /** -1 for automatic. */
    setQuality(level: number): void {
      ready()?.setQuality(level);
    },
    /** With a descriptor of several sources the sources are the audio choices (SPEC §4). */
    setAudioTrack(id: number): void {
      const sources = store.descriptor.value?.sources ?? [];
      if (sources.length < 2) return ready()?.setAudioTrack(id);
      const source = sources[id];
      if (!source || source.link === store.sourceUrl.value) return;
      // Keeps the current time and resumes once the new source can play.
      if (!store.paused.value) store.playRequested.value = true;
      setSource(source.link, store.currentTime.value);
    },
    /** Audio gain (SPEC §9 options); hidden where Web Audio is missing. */
    setAudioGain(gain: number): void {
      if (Number.isFinite(gain) && gain > 0) ready()?.setAudioGain(gain);
    },
    /** -1 turns subtitles off. */
    setTextTrack(id: number): void {
      ready()?.setTextTrack(id);
    },
    /** SPEC §4: selecting an episode is allowed only when the content is available. */
    selectEpisode(episode: Episode, startAt?: number): boolean {
      if (!store.isAvailable.value || store.error.value) return false;
      store.activeVariantId.value = null;
      // A binge viewer who switches while watching (or at the end of an episode) keeps watching.
      if (!store.paused.value || store.ended.value) store.playRequested.value = true;
      void selectEpisode(episode, startAt);
      return true;
    },
    /** Switches the current episode to another of its variants; each variant keeps its own progress. */
    selectVariant(variantId: number, startAt?: number): boolean {
      const episode = store.episode.value;
      const variant = episode?.episodeVariants?.find((v) => v.id === variantId);
      if (!episode || !variant || !store.isAvailable.value || store.error.value) return false;
      store.activeVariantId.value = variantId;
      if (!store.paused.value || store.ended.value) store.playRequested.value = true;
      bus.emit('content:variant-changed', { episode, variant });
      void selectEpisode(episode, startAt);
      return true;
    },
    seekBy(delta: number): void {
      requestSeek((seekTarget ?? store.currentTime.value) + delta);
    },
    setVolume(volume: number): void {
      // SPEC §5: a value that is not a number is ignored with a warning.
      if (!Number.isFinite(volume)) return void console.warn('[player] volume is not a number', volume);
      ready()?.setVolume(volume);
      if (volume > 0 && store.muted.value) media?.setMuted(false);
    },
    toggleMute(): void {
      ready()?.toggleMute();
    },
    toggleFullscreen(): void {
      if (!container) return;
      if (store.stretched.value || (!document.fullscreenElement && shouldStretch(config.fullscreenMode))) {
        return setStretched(!store.stretched.value);
      }
      const done = document.fullscreenElement
        ? document.exitFullscreen?.()
        : container.requestFullscreen?.();
      if (!done) console.warn('[player] no fullscreen support');
      else done.catch(() => console.warn('[player] no fullscreen support'));
    },
    togglePip(): void {
      ready()?.togglePip();
    },
    /** false when the browser offers no cast. */
    cast(): Promise<boolean> {
      return media ? media.cast() : Promise.resolve(false);
    },
    airplay(): void {
      ready()?.airplay();
    },
    /** The error screen's reload button: reset the error and try again from where it failed. */
    retry(): void {
      const episode = store.episode.value;
      const at = store.currentTime.value;
      store.error.value = null;
      if (store.content.value && episode) void selectEpisode(episode, at);
      else void start();
    },
  };

  // Device memory, binge and the parent-page protocol ride in the preloaded controls piece: never in
  // front of the content, and one shared chunk fewer on the critical path than a piece of their own.
  let alive = true;
  loadWidget('controls', config.assetBase).then(
    (m) => alive && disposers.push(m.attachMemory({ store, bus, requests, config })),
    (err) => console.error('[player] widget controls failed to load', err),
  );

  return {
    store,
    bus,
    requests,
    config,
    /** The running ads (lazy widget `ads`), once loaded; ui/player.tsx renders its overlay. */
    ads: gate.handle,
    /** Hands the player its <video> and container; called once by the UI on mount. */
    attach(video: HTMLVideoElement, root: HTMLElement): void {
      container = root;
      media = bindMedia(video, {
        store,
        bus,
        caps,
        assetBase: config.assetBase,
        onFailure: (f) => fail('media', `${f.message} ${f.details}`, f, f.url),
      });
      // SPEC §3: the viewer's volume and mute, before anything plays.
      const volume = readStored(VOLUME_KEY);
      if (typeof volume === 'number' && volume >= 0 && volume <= 1) media.setVolume(volume);
      if (readStored(MUTED_KEY) === true) media.setMuted(true);
      if (pending) {
        const p = pending;
        pending = undefined;
        setSource(p.url, p.startAt, p.prefetched);
      }
    },
    start,
    /** Runs fn when the player is destroyed (at once if it already was): lazy pieces undo themselves. */
    onDestroy(fn: () => void): void {
      if (alive) disposers.push(fn);
      else fn();
    },
    destroy(): void {
      alive = false;
      loadAbort?.abort();
      media?.destroy();
      disposers.forEach((d) => d());
    },
  };
}

export type PlayerApi = ReturnType<typeof createPlayer>;
