import { batch, effect } from '@preact/signals-core';
import type { Cause } from '../core/bus';
import { bounded, nextTask } from '../core/deadline';
import { playerError } from '../core/errors';
import type { EarlyMedia, HlsHandle, PlaylistCache } from '../core/player-api';
import { EXTERNAL_TRACK_BASE } from '../core/tracks';
import { lazyExtras } from './lazy-extras';
import type { Media, MediaOptions } from './media-contract';
import { mediaControls } from './media-controls';
import { bufferedAhead, resetStream } from './media-state';
import { appendEarly } from './early-media';
import { OUTAGE_BUDGET_MS, mediaWatchdog } from './media-watchdog';
import { takeEngineDeferral } from './start-guess';
import { type Engine, isHlsAddress, isHlsByContentType, needsContentType, pickEngine } from './engine';

/** The only code that touches <video>: it turns media events into store state and requests into calls. */
export function bindMedia(video: HTMLVideoElement, opts: MediaOptions): Media {
  const { store, bus } = opts;
  const startedAt = performance.now();
  let engine: HlsHandle | undefined;
  let lastCause: Cause = 'user';
  let loadToken = 0;
  let seekFrom = 0;
  let firstFrame = false;
  const external = () =>
    (store.descriptor.value?.subtitles ?? []).map((s, i) => ({ id: EXTERNAL_TRACK_BASE + i, label: s.label, language: s.language }));

  const listeners: Record<string, () => void> = {
    play: () => {
      store.paused.value = false;
      bus.emit('media:play', { cause: lastCause });
    },
    // After a stall the engine may hold the film until it is likely to keep playing (resume-hold.ts):
    // the spinner stays, and 'playing' counts once it lets go (`released`).
    playing: () =>
      engine?.holds() ||
      batch(() => {
        unstall();
        // What was waited for is in; loads still open write themselves back at their next tick.
        watchdog.traffic.open.clear();
        store.paused.value = false;
        store.waiting.value = false;
        store.started.value = true;
        store.ended.value = false;
        store.playRequested.value = false;
        bus.emit('media:playing', { currentTime: video.currentTime });
        void extra(() => {});
      }),
    pause: () => {
      unstall();
      store.paused.value = true;
      bus.emit('media:pause', { cause: lastCause });
      lastCause = 'user';
    },
    waiting: () => {
      store.waiting.value = true;
      stall();
    },
    canplay: () => void (engine?.holds() || (store.waiting.value = false)),
    seeking: () => {
      store.waiting.value = true;
      watchdog.traffic.open.clear();
    },
    seeked: () => {
      store.waiting.value = false;
      bus.emit('media:seeked', { from: seekFrom, to: video.currentTime });
    },
    timeupdate: () =>
      batch(() => {
        // Playback moving on counts as progress, as a native source's download does ('progress').
        if (video.currentTime !== store.currentTime.peek()) watchdog.traffic.last = performance.now();
        store.currentTime.value = video.currentTime;
        store.bufferedEnd.value = bufferedAhead(video);
        if (!firstFrame && video.currentTime > 0) {
          firstFrame = true;
          bus.emit('media:first-frame', { sinceStartMs: performance.now() - startedAt });
        }
      }),
    progress: () => {
      watchdog.traffic.last = performance.now();
      store.bufferedEnd.value = bufferedAhead(video);
    },
    // hls.js: the first media segment, not only the init segment (metadata); native: the metadata. The
    // early start has its metadata once the init segments are in, its first fragments still to come.
    loadeddata: () => started(true),
    loadedmetadata: () => started(native),
    durationchange: () => (store.duration.value = Number.isFinite(video.duration) ? video.duration : 0),
    volumechange: () => {
      if (video.volume === store.volume.peek() && video.muted === store.muted.peek()) return;
      batch(() => {
        store.volume.value = video.volume;
        store.muted.value = video.muted;
        if (!video.muted) store.mutedAutoplay.value = false;
      });
      bus.emit('media:volume', { volume: video.volume, muted: video.muted });
    },
    // 0 is no speed the viewer chooses (SPEC: 0.25 to 2): it is the engine's hold after a stall.
    ratechange: () => void (video.playbackRate && (store.playbackRate.value = video.playbackRate)),
    ended: () => {
      batch(() => {
        store.ended.value = true;
        store.paused.value = true;
      });
      bus.emit('media:ended', { currentTime: video.currentTime });
    },
    error: () => {
      const err = video.error;
      if (!err || engine || earlyPhase) return;
      loadFailed(err.message || `MediaError ${err.code}`, video.currentSrc, err.code);
    },
  };
  for (const [name, fn] of Object.entries(listeners)) video.addEventListener(name, fn);
  // WebKit grants sound per element, to one a gesture changed (muted set to itself is no change): the viewer's
  // play that starts a pre-roll flips the film's mute and back (two volumechange events of no change, dropped
  // above), so the film after the ad has its sound.
  const touchInGesture = effect(() => {
    if (store.playRequested.value && store.adState.peek() !== 'stopped') for (const m of [!video.muted, video.muted]) video.muted = m;
  });
  // PiP, cast, AirPlay, subtitle files and audio gain load after the first frame (or at once where
  // AirPlay may be offered, or at the first subtitle or gain choice).
  const { extra, extras } = lazyExtras(video, store, opts.load);
  if ('webkitShowPlaybackTargetPicker' in video) void extra(() => {});

  // The start and every stall after it are watched: time without a media byte ends the wait
  // (media-watchdog.ts). hls.js loads at once, so its start is watched from the load; a native source
  // may load nothing before a play (iOS ignores preload), so its start is watched from the first play.
  // The source's own address (currentSrc is a blob: with MSE), and it again while its start is watched.
  let sourceUrl = '';
  let startUrl = '';
  const watchdog = mediaWatchdog((details, url) => loadFailed(details, url, details === 'stalled' ? 2 : 4));
  let prefetchTraffic: PlaylistCache['traffic'];
  const arm = () => watchdog.starting(startUrl, prefetchTraffic);
  const started = (yes: boolean) => void (yes && (watchdog.started(), (startUrl = '')));
  const fail: MediaOptions['onFailure'] = (code, f) => {
    startUrl = '';
    // Under the error screen the engine would go on retrying, on the viewer's data plan.
    dropEngine();
    opts.onFailure(code, f);
  };
  const loadFailed = (details: string, url: string, code: number, data?: unknown) =>
    fail('media-load-failed', { code, message: 'Failed to load resource.', details, url, ...(data !== undefined && { data }) });
  // After the start hls.js retries and switches renditions on its own; a stall past all of it ends
  // in the screen when the media's server answers and sends no media, or when the link stays out.
  const unstall = () => watchdog.resumed();
  const stall = () => {
    if (!startUrl && !earlyPhase && !video.paused && store.started.peek()) watchdog.stalled(sourceUrl);
  };
  const dropEngine = () => {
    watchdog.dispose();
    engine?.destroy();
    engine = undefined;
  };

  // The start appended by the page, hls.js still on its way: a stall then waits for hls.js, not a
  // media server's answer (its download is no media byte the watchdog could count).
  let earlyPhase = false;
  // The film was asked to play (and not paused since) for the source loaded last.
  let playAsked = false;
  // The source is the element's own (no MediaSource of ours or hls.js's).
  let native = false;
  const attachEngine = async (token: number, url: string, startAt: number, prefetched?: PlaylistCache, early?: EarlyMedia): Promise<void> => {
    let mod;
    try {
      // While the early start plays, hls.js's download is the wait: bounded as an outage is.
      mod = await (early ? bounded(opts.load('hls'), OUTAGE_BUDGET_MS) : opts.load('hls'));
    } catch (err) {
      if (token === loadToken) loadFailed('hls module failed to load', url, 4, err);
      return;
    }
    // hls.js's setup and first playlists in a task of their own, not in the one that evaluated
    // the module (each under 50 ms: no long task in front of the first frame).
    await nextTask();
    if (token !== loadToken) return;
    const attached = await mod.attachHls(
      video,
      url,
      startAt,
      {
        store,
        bus,
        externalTracks: external,
        onRecoverable: (details) => bus.emit('player:error', { error: playerError('media-recoverable', details) }),
        onFatal: (data) => loadFailed(data.details, data.url || url, 4, data),
        traffic: watchdog.traffic,
        waitForLink: (signal) => watchdog.waitForLink(url, signal),
        released: (playing) => (playing ? listeners.playing() : (store.waiting.value = false)),
      },
      prefetched,
      // An element that failed on the early fragments is hls.js's to start afresh.
      video.error ? undefined : early,
    );
    // Another source (or destroy) came while hls.js set up: this one is let go.
    if (token !== loadToken) return attached.destroy();
    engine = attached;
  };

  return {
    async load(url, startAt, prefetched) {
      const token = ++loadToken;
      dropEngine();
      native = earlyPhase = playAsked = false;
      startUrl = sourceUrl = url;
      prefetchTraffic = prefetched?.traffic;
      arm();
      firstFrame = false;
      resetStream(store, startAt, external());
      extras((x) => x.resetSubtitles());
      const hls = isHlsAddress(url) || (needsContentType(url) && (await isHlsByContentType(url)));
      if (token !== loadToken) return;
      const kind: Engine | undefined = pickEngine(url, opts.caps, hls);
      if (!kind) {
        fail('media-unsupported', { code: 4, message: 'Failed to load resource.', details: 'hls unsupported', url });
        return;
      }
      if (kind === 'native') {
        native = true;
        watchdog.dispose();
        if (!video.paused) arm();
        video.removeAttribute('src');
        video.src = url;
        if (startAt > 0) video.currentTime = startAt;
      } else {
        // A first visit without ads (bootstrap/boot.ts): the start's first fragments go into the element
        // before hls.js is asked (early-media.ts); the film starts on them while hls.js downloads, then
        // hls.js takes them over. Anything in the way, and hls.js is asked now and starts as always.
        const start = takeEngineDeferral() && startAt <= 0 ? prefetched?.early : undefined;
        // An element error meanwhile is the early start's to give up on (hls.js then starts afresh).
        earlyPhase = !!start;
        if (start) {
          // The film may be asked to play once both init segments are in: the first frame then comes
          // as the first fragments' bytes do (early-media.ts), not after their last byte. Given up on
          // before that, the load ends once hls.js has the element, as it always did.
          await new Promise<void>((playable) => {
            void appendEarly(video, start, playable)
              .then(async (early) => {
                if (token !== loadToken) return;
                earlyPhase = !!early;
                if (early) {
                  void attachEngine(token, url, startAt, prefetched, early).finally(() => {
                    earlyPhase = false;
                    // A stall while hls.js was on its way is watched from now, with its loads.
                    if (token === loadToken && store.waiting.peek()) stall();
                  });
                  return;
                }
                // Given up on after the film was asked to play: hls.js's new MediaSource pauses the
                // element without a pause event, and the film is still meant to play.
                const asked = playAsked;
                await attachEngine(token, url, startAt, prefetched);
                if (asked && token === loadToken && video.paused) video.play().catch(() => {});
              })
              .finally(playable);
          });
          if (token !== loadToken) return;
        } else await attachEngine(token, url, startAt, prefetched);
      }
      bus.emit('media:source', { url, engine: kind });
    },
    async play(cause) {
      lastCause = cause;
      playAsked = true;
      if (startUrl) arm();
      try {
        await video.play();
        return true;
      } catch (err) {
        if ((err as Error)?.name === 'NotAllowedError') {
          console.warn('[player] autoplay blocked');
          return false;
        }
        if ((err as Error)?.name !== 'AbortError') console.warn('[player] play failed', err);
        return true;
      }
    },
    pause(cause) {
      lastCause = cause;
      playAsked = false;
      video.pause();
    },
    seek(time) {
      const max = Number.isFinite(video.duration) ? video.duration : Infinity;
      seekFrom = video.currentTime;
      video.currentTime = Math.max(0, Math.min(time, max));
      // The element reports the new position at once; the next relative seek counts from it.
      store.currentTime.value = video.currentTime;
    },
    ...mediaControls(video, store, () => engine, extra),
    destroy() {
      touchInGesture();
      loadToken++;
      dropEngine();
      extras((x) => x.dispose());
      for (const [name, fn] of Object.entries(listeners)) video.removeEventListener(name, fn);
    },
  };
}
