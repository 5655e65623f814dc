// Lazy widget "hls": the only module that imports hls.js.
import Hls, { ErrorTypes, Events, type ErrorData, type LoaderCallbacks, type LoaderConfiguration, type FragmentLoaderConstructor, type LoaderContext, type PlaylistLoaderConstructor } from 'hls.js';
import { batch } from '@preact/signals';
import { nextTask } from '../core/deadline';
import type { HlsContext, HlsHandle, PlaylistCache } from '../core/player-api';
import { EXTERNAL_TRACK_BASE, type MediaTrack } from '../core/tracks';

type HlsTrack = { name?: string; lang?: string; audioCodec?: string; channels?: string; default?: boolean };

const toTrack = (t: HlsTrack, id: number): MediaTrack => ({
  id,
  label: t.name || t.lang || String(id + 1),
  language: t.lang || '',
  codec: t.audioCodec || t.channels,
  isDefault: !!t.default,
});

const NETWORK_RETRY_DELAY_MS = 5000;
/** hls.js's own advice: recover a media error, but not again within this; then swap the audio codec once. */
const MEDIA_RECOVERY_INTERVAL_MS = 5000;

type LoadPolicy = Hls['config']['fragLoadPolicy'];
const policy = (ttfb: number, load: number, timeouts: number, errors: number, delay: number, maxDelay: number): LoadPolicy => ({
  default: {
    maxTimeToFirstByteMs: ttfb,
    maxLoadTimeMs: load,
    timeoutRetry: { maxNumRetry: timeouts, retryDelayMs: 0, maxRetryDelayMs: 0 },
    errorRetry: { maxNumRetry: errors, retryDelayMs: delay, maxRetryDelayMs: maxDelay },
  },
});
/**
 * Until the stream has started, a failure that persists must reach the error screen quickly: errors
 * are retried once or twice, not hls.js's six times with back-off. Timeouts stay close to hls.js's,
 * so a slow first answer still plays; a stall is cut by the media provider's start budget.
 */
const STARTING = {
  manifestLoadPolicy: policy(5000, 10000, 1, 1, 500, 1000),
  playlistLoadPolicy: policy(5000, 10000, 1, 1, 500, 1000),
  fragLoadPolicy: policy(10000, 20000, 0, 2, 500, 1000),
};
const PLAYING = {
  manifestLoadPolicy: Hls.DefaultConfig.manifestLoadPolicy,
  playlistLoadPolicy: Hls.DefaultConfig.playlistLoadPolicy,
  fragLoadPolicy: policy(10000, 120000, 2, 3, 1000, 4000),
};
const THUMBNAILS_DATA_ID = 'com.embed-player.thumbnails';

/**
 * Starts on the lowest rendition (about -0.7 s to first frame on a slow network, DESIGN) and lets ABR
 * climb. A fatal network error is retried once after 5 s (SPEC §8, streaming code 27); a media error
 * is recovered once, then the codec swap is tried, as hls.js recommends.
 */
export async function attachHls(
  video: HTMLVideoElement,
  url: string,
  startAt: number,
  { store, bus, externalTracks, onFatal, onRecoverable }: HlsContext,
  prefetched?: PlaylistCache,
): Promise<HlsHandle> {
  // The prefetch chooses the audio when the master playlist answers, which can be after hls.js was
  // created (the entry is quick when the network is not): hls.js reads the preference when it sorts
  // the playlist's audio groups, so it is set just before the answer is handed over.
  const loader =
    prefetched &&
    prefetchingLoader(prefetched, () => {
      if (prefetched.audio) hls.config.audioPreference ??= prefetched.audio;
    });
  const pLoader = loader as unknown as PlaylistLoaderConstructor | undefined;
  const fLoader = loader as unknown as FragmentLoaderConstructor | undefined;
  let networkRetries = 0;
  let lastMediaRecovery = -Infinity;
  let codecSwapped = false;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The stream has started once its first data is in the element (MSE fires this whatever preload says).
  const onStarted = () => {
    started = true;
    Object.assign(hls.config, PLAYING);
  };
  video.addEventListener('loadeddata', onStarted, { once: true });
  // hls.js's setup (its controllers) in this task, the element's MediaSource and the first playlist
  // in the next: two tasks under 50 ms in front of the first frame, not one long one.
  let hls = create(startAt, false);
  const handle: HlsHandle = {
    destroy() {
      clearTimeout(timer);
      video.removeEventListener('loadeddata', onStarted);
      hls.destroy();
    },
    setQuality(level) {
      // nextLevel switches at the next fragment boundary without flushing what is buffered; auto
      // hands the choice back to ABR.
      if (level < 0) hls.currentLevel = -1;
      else hls.nextLevel = level;
    },
    setAudioTrack(id) {
      hls.audioTrack = id;
    },
    setTextTrack(id) {
      // The cues are rendered by the UI (they move up over the controls): the track stays 'hidden'.
      hls.subtitleDisplay = false;
      hls.subtitleTrack = id;
    },
  };

  function create(at: number, attach = true): Hls {
    const h = new Hls({
      startLevel: 0,
      testBandwidth: false,
      capLevelToPlayerSize: true,
      startPosition: at > 0 ? at : -1,
      backBufferLength: 30,
      ...(started ? PLAYING : STARTING),
      ...(pLoader && { pLoader, fLoader }),
      // The audio rendition the prefetch chose (and fetched) by the player's rule, so hls.js starts on it.
      ...(prefetched?.audio && { audioPreference: prefetched.audio }),
      // A slow phone that drops frames steps down a rendition (and analytics hears of the drop).
      capLevelOnFPSDrop: true,
    });
    // Cues are rendered by the UI: tracks stay 'hidden', never natively shown.
    h.subtitleDisplay = false;
    h.on(Events.ERROR, (_e, data) => onError(h, data));
    h.on(Events.MANIFEST_PARSED, (_e, data) => {
      store.qualities.value = data.levels.map((l, id) => ({
        id,
        width: l.width,
        height: l.height,
        bitrate: l.bitrate,
        codec: [l.videoCodec, l.audioCodec].filter(Boolean).join(','),
      }));
    });
    h.on(Events.MANIFEST_LOADED, (_e, data) => {
      const uri = data.sessionData?.[THUMBNAILS_DATA_ID]?.URI;
      if (uri || data.levels.length) store.thumbnailsUrl.value = new URL(uri || 'thumbs.vtt', data.url).href;
    });
    h.on(Events.LEVEL_SWITCHED, (_e, data) =>
      batch(() => {
        store.level.value = data.level;
        store.quality.value = h.autoLevelEnabled ? -1 : data.level;
      }),
    );
    h.on(Events.AUDIO_TRACKS_UPDATED, (_e, data) =>
      batch(() => {
        store.audioTracks.value = data.audioTracks.map(toTrack);
        store.audioTrack.value = h.audioTrack;
      }),
    );
    h.on(Events.AUDIO_TRACK_SWITCHED, (_e, data) => (store.audioTrack.value = data.id));
    h.on(Events.SUBTITLE_TRACKS_UPDATED, (_e, data) =>
      batch(() => {
        const tracks = data.subtitleTracks.map(toTrack);
        // The descriptor's files are offered only for languages the stream itself lacks.
        store.textTracks.value = [...tracks, ...externalTracks().filter((e) => !tracks.some((t) => t.language === e.language))];
        store.textTrack.value = h.subtitleTrack;
      }),
    );
    h.on(Events.SUBTITLE_TRACK_SWITCH, (_e, data) => {
      if (store.textTrack.value < EXTERNAL_TRACK_BASE) store.textTrack.value = data.id;
    });
    h.on(Events.FRAG_LOADED, () => bus.emit('media:stats', { bandwidth: h.bandwidthEstimate }));
    h.on(Events.FPS_DROP, (_e, data) => {
      if (data.currentDropped > h.config.fpsDroppedMonitoringThreshold * data.currentDecoded)
        bus.emit('media:stats', { dropped: data.currentDropped, decoded: data.currentDecoded });
    });
    if (attach) load(h);
    return h;
  }

  function load(h: Hls): void {
    h.loadSource(url);
    h.attachMedia(video);
  }

  function onError(h: Hls, data: ErrorData) {
    if (h !== hls) return;
    if (!data.fatal) return onRecoverable(data.details);
    if (data.type === ErrorTypes.NETWORK_ERROR && networkRetries++ < 1) {
      const at = video.currentTime;
      timer = setTimeout(() => {
        hls.destroy();
        hls = create(at);
      }, NETWORK_RETRY_DELAY_MS);
      return;
    }
    if (data.type === ErrorTypes.MEDIA_ERROR) {
      const now = performance.now();
      const again = now - lastMediaRecovery < MEDIA_RECOVERY_INTERVAL_MS;
      if (!again || !codecSwapped) {
        if (again) {
          codecSwapped = true;
          h.swapAudioCodec();
        }
        lastMediaRecovery = now;
        h.recoverMediaError();
        return;
      }
    }
    onFatal({
      details: data.details,
      type: data.type,
      url: data.url ?? data.context?.url,
      response: data.response,
    });
  }

  await nextTask();
  load(hls);
  return handle;
}

/**
 * hls.js's loader, answering from what the prefetch fetched when it has it (each address once; a
 * retry goes to the network) and loading normally otherwise: as the playlist loader and as the
 * fragment loader (init segments and first fragments).
 */
function prefetchingLoader(cache: PlaylistCache, beforeAnswer: () => void) {
  const Base = Hls.DefaultConfig.loader;
  // hls.js types its playlist and fragment loaders with narrower contexts; the default loader serves all.
  return class PrefetchingLoader extends Base {
    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
      const hit = context.rangeEnd ? undefined : cache.get(context.url);
      if (!hit) return super.load(context, config, callbacks);
      cache.delete(context.url);
      // As hls.js's own load: its playlist loader reads the context to tell a request still under way
      // (ignored when asked again) from one to abort; without it, a second ask for the same playlist
      // while the prefetch was still out went to the network (Fast 3G waterfalls: the audio playlist).
      Object.assign(this, { context, config, callbacks });
      const stats = this.stats;
      stats.loading.start = performance.now();
      // Each answer in a task of its own, even one already in: parsing it (and what hls.js asks for
      // next) is then not added to the task that asked, which would make one long task of the start.
      void hit.then(async (got) => {
        await nextTask();
        if (stats.aborted || !this.stats) return;
        if (!got) {
          stats.loading.start = 0;
          return super.load(context, config, callbacks);
        }
        // The prefetch's own times, so the bandwidth estimate (ABR) sees the real transfer.
        stats.loading.start = got.start;
        stats.loading.first = stats.loading.end = got.end;
        stats.loaded = stats.total = typeof got.data === 'string' ? got.data.length : got.data.byteLength;
        beforeAnswer();
        callbacks.onSuccess({ url: context.url, data: got.data, code: 200 }, stats, context, null);
      });
    }

    abort() {
      // hls.js's abort marks only a request of its own as aborted; the prefetched answer must not land either.
      if (this.stats) this.stats.aborted = true;
      super.abort();
    }
  };
}
