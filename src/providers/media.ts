import { batch } from '@preact/signals';
import type { Bus, Cause } from '../core/bus';
import type { Store } from '../core/store';
import { loadWidget } from '../core/widgets';
import { type Engine, type MediaCapabilities, pickEngine } from './engine';
import type { HlsHandle } from './hls-engine';

export interface SourceFailure {
  /** 4 is MediaError's MEDIA_ERR_SRC_NOT_SUPPORTED, used by SPEC §8 for "Failed to load resource." */
  code: number;
  message: string;
  details: string;
  url: string;
  data?: unknown;
}

export interface Media {
  load(url: string, startAt: number): Promise<void>;
  play(cause: Cause): Promise<boolean>;
  pause(cause: Cause): void;
  seek(time: number): void;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  setPlaybackRate(rate: number): void;
  /** -1 for automatic. */
  setQuality(level: number): void;
  setAudioTrack(id: number): void;
  /** -1 turns subtitles off. */
  setTextTrack(id: number): void;
  destroy(): void;
}

export interface MediaOptions {
  store: Store;
  bus: Bus;
  caps: MediaCapabilities;
  assetBase: string;
  onFailure(f: SourceFailure): void;
}

/** The only code that touches <video>: it turns media events into store state and requests into calls. */
export function bindMedia(video: HTMLVideoElement, opts: MediaOptions): Media {
  const { store, bus } = opts;
  const startedAt = performance.now();
  let engine: HlsHandle | undefined;
  let lastCause: Cause = 'user';
  let loadToken = 0;
  let seekFrom = 0;
  let firstFrame = false;

  const bufferedEnd = () => {
    const b = video.buffered;
    for (let i = 0; i < b.length; i++) {
      if (b.start(i) <= video.currentTime + 0.5 && b.end(i) >= video.currentTime) return b.end(i);
    }
    return b.length ? b.end(b.length - 1) : 0;
  };

  const listeners: Record<string, () => void> = {
    play: () => {
      store.paused.value = false;
      bus.emit('media:play', { cause: lastCause });
    },
    playing: () =>
      batch(() => {
        store.paused.value = false;
        store.waiting.value = false;
        store.started.value = true;
        store.ended.value = false;
        store.playRequested.value = false;
        bus.emit('media:playing', { currentTime: video.currentTime });
      }),
    pause: () => {
      store.paused.value = true;
      bus.emit('media:pause', { cause: lastCause });
      lastCause = 'user';
    },
    waiting: () => (store.waiting.value = true),
    canplay: () => (store.waiting.value = false),
    seeking: () => (store.waiting.value = true),
    seeked: () => {
      store.waiting.value = false;
      bus.emit('media:seeked', { from: seekFrom, to: video.currentTime });
    },
    timeupdate: () =>
      batch(() => {
        store.currentTime.value = video.currentTime;
        store.bufferedEnd.value = bufferedEnd();
        if (!firstFrame && video.currentTime > 0) {
          firstFrame = true;
          bus.emit('media:first-frame', { sinceStartMs: performance.now() - startedAt });
        }
      }),
    progress: () => (store.bufferedEnd.value = bufferedEnd()),
    durationchange: () => (store.duration.value = Number.isFinite(video.duration) ? video.duration : 0),
    volumechange: () => {
      batch(() => {
        store.volume.value = video.volume;
        store.muted.value = video.muted;
        if (!video.muted) store.mutedAutoplay.value = false;
      });
      bus.emit('media:volume', { volume: video.volume, muted: video.muted });
    },
    ratechange: () => (store.playbackRate.value = video.playbackRate),
    ended: () => {
      batch(() => {
        store.ended.value = true;
        store.paused.value = true;
      });
      bus.emit('media:ended', { currentTime: video.currentTime });
    },
    error: () => {
      const err = video.error;
      if (!err || engine) return;
      opts.onFailure({
        code: err.code,
        message: 'Failed to load resource.',
        details: err.message || `MediaError ${err.code}`,
        url: video.currentSrc,
      });
    },
  };
  for (const [name, fn] of Object.entries(listeners)) video.addEventListener(name, fn);

  const dropEngine = () => {
    engine?.destroy();
    engine = undefined;
  };

  return {
    async load(url, startAt) {
      const token = ++loadToken;
      dropEngine();
      firstFrame = false;
      batch(() => {
        store.started.value = false;
        store.ended.value = false;
        store.currentTime.value = startAt;
        store.duration.value = 0;
        store.bufferedEnd.value = 0;
        store.qualities.value = [];
        store.quality.value = -1;
        store.level.value = -1;
        store.audioTracks.value = [];
        store.audioTrack.value = -1;
        store.textTracks.value = [];
        store.textTrack.value = -1;
      });
      const kind: Engine | undefined = pickEngine(url, opts.caps);
      if (!kind) {
        opts.onFailure({ code: 4, message: 'Failed to load resource.', details: 'hls unsupported', url });
        return;
      }
      if (kind === 'native') {
        video.removeAttribute('src');
        video.src = url;
        if (startAt > 0) video.currentTime = startAt;
      } else {
        let mod;
        try {
          mod = await loadWidget('hls', opts.assetBase);
        } catch (err) {
          if (token === loadToken)
            opts.onFailure({ code: 4, message: 'Failed to load resource.', details: 'hls module failed to load', url, data: err });
          return;
        }
        if (token !== loadToken) return;
        engine = mod.attachHls(video, url, startAt, {
          onFatal: (data) =>
            opts.onFailure({ code: 4, message: 'Failed to load resource.', details: data.details, url: data.url || url, data }),
          onQualities: (levels) => (store.qualities.value = levels),
          onLevel: (level, auto) =>
            batch(() => {
              store.level.value = level;
              store.quality.value = auto ? -1 : level;
            }),
          onAudioTracks: (tracks, active) =>
            batch(() => {
              store.audioTracks.value = tracks;
              store.audioTrack.value = active;
            }),
          onAudioTrack: (id) => (store.audioTrack.value = id),
          onTextTracks: (tracks, active) =>
            batch(() => {
              store.textTracks.value = tracks;
              store.textTrack.value = active;
            }),
          onTextTrack: (id) => (store.textTrack.value = id),
          onStats: (stats) => bus.emit('media:stats', stats),
        });
      }
      bus.emit('media:source', { url, engine: kind });
    },
    async play(cause) {
      lastCause = cause;
      try {
        await video.play();
        return true;
      } catch (err) {
        if ((err as Error)?.name === 'NotAllowedError') return false;
        if ((err as Error)?.name !== 'AbortError') console.warn('[player] play failed', err);
        return true;
      }
    },
    pause(cause) {
      lastCause = cause;
      video.pause();
    },
    seek(time) {
      const max = Number.isFinite(video.duration) ? video.duration : Infinity;
      seekFrom = video.currentTime;
      video.currentTime = Math.max(0, Math.min(time, max));
    },
    setVolume(volume) {
      video.volume = Math.max(0, Math.min(1, volume));
    },
    setMuted(muted) {
      video.muted = muted;
    },
    setPlaybackRate(rate) {
      video.playbackRate = rate;
    },
    setQuality(level) {
      engine?.setQuality(level);
      // ABR's choice is only confirmed by the next switch; a manual one is what was asked for.
      store.quality.value = level;
    },
    setAudioTrack(id) {
      engine?.setAudioTrack(id);
    },
    setTextTrack(id) {
      engine?.setTextTrack(id);
    },
    destroy() {
      loadToken++;
      dropEngine();
      for (const [name, fn] of Object.entries(listeners)) video.removeEventListener(name, fn);
    },
  };
}
