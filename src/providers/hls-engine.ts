// Lazy widget "hls": hls.js, wired. It and the modules only it imports (its loader, its ABR slot for the
// playback policy, its load policies, the hold after a stall, the adapter) are the only code that
// imports hls.js; of hls.js's internals, only the adapter (hls-internals.ts) knows.
import Hls, { ErrorTypes, Events, type ErrorData, type FragmentLoaderConstructor, type PlaylistLoaderConstructor } from 'hls.js';
import { batch } from '@preact/signals-core';
import { nextTask } from '../core/deadline';
import type { EarlyMedia, HlsContext, HlsHandle, PlaylistCache } from '../core/player-api';
import { EXTERNAL_TRACK_BASE, type MediaTrack } from '../core/tracks';
import { retriesFor } from '../playback/policy';
import { TUNING } from '../playback/tuning';
import { watchFrameDrops } from './frame-drops';
import { loadPolicies } from './hls-load-policy';
import { forgetStatsOfRemoved, reconfigure, takeOver } from './hls-internals';
import { watchPlayIntent } from './play-intent';
import { resumeHold } from './resume-hold';
import { measuredBandwidth } from './link-estimate';
import { policyAbr, type PolicySlot } from './policy-abr';
import { watchStuckStart } from './stuck-start';
import { watchedLoader } from './watched-loader';

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
  { store, bus, externalTracks, onFatal, onRecoverable, traffic, waitForLink, released }: HlsContext,
  prefetched?: PlaylistCache,
  early?: EarlyMedia,
): Promise<HlsHandle> {
  // The prefetch chooses the audio when the master playlist answers, which can be after hls.js was
  // created (the entry is quick when the network is not): hls.js reads the preference when it sorts
  // the playlist's audio groups, so it is set just before the answer is handed over.
  const loader = watchedLoader(traffic, prefetched ?? new Map(), () => {
    if (prefetched?.audio) reconfigure(hls, { audioPreference: hls.config.audioPreference ?? prefetched.audio });
  });
  const pLoader = loader as unknown as PlaylistLoaderConstructor;
  const fLoader = loader as unknown as FragmentLoaderConstructor;
  const life = new AbortController();
  let networkRetries = 0;
  let lastMediaRecovery = -Infinity;
  let codecSwapped = false;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The policy's 'drops', on the bus and as the frames analytics reports (fps_drop).
  const stopDropWatch = watchFrameDrops(video, (d) => {
    bus.emit('playback:decision', d);
    bus.emit('media:stats', { dropped: d.dropped, decoded: d.decoded });
  });
  // A new MediaSource (a restart, a media recovery: ours or hls.js's own) resets the element to paused:
  // a film that was playing goes on once the new one is attached, or it would stand paused under the
  // spinner after a restart or a recovered bad fragment.
  const intent = watchPlayIntent(video);
  // A page that keeps `__playbackDecisions` (bench:playback's probe) is handed every decision too, so a
  // benchmark run's stall can be read back to the decisions before it; other pages have no such list.
  const decisionLog = (globalThis as { __playbackDecisions?: unknown[] }).__playbackDecisions;
  const stopDecisionLog = Array.isArray(decisionLog) ? bus.on('playback:decision', (d) => void decisionLog.push(d)) : undefined;
  // The playback policy of the current hls.js instance (its ABR slot); the hold after a stall asks it too.
  const playback: PolicySlot = {};
  // After a stall, the film plays again once what is buffered outlasts the fragments on their way (the policy's rule).
  const hold = resumeHold(video, () => playback.current?.(), (level) => hls.levels[level]?.bitrate ?? 0, released);
  // hls.js only logs the element's own failure while its MediaSource stays open (Chromium, a jump
  // over a hole between renditions: MEDIA_ERR_DECODE, the element paused under the spinner): it is
  // a media error like those hls.js reports, recovered the same way.
  const onElementError = () => {
    const error = video.error;
    if (error && hls.media === video) onError(hls, { type: ErrorTypes.MEDIA_ERROR, details: `elementError ${error.code}`, fatal: true, error } as unknown as ErrorData);
  };
  video.addEventListener('error', onElementError);
  // The stream has started once its first data is in the element (MSE fires this whatever preload says).
  const markStarted = () => {
    started = true;
    stopStuckWatch();
  };
  // The policy's first frame: its 'retries' decision (policy-abr.ts) gives hls.js playback's retries.
  const onStarted = () => {
    markStarted();
    playback.current?.()?.media({ t: performance.now(), event: 'frame' });
  };
  // A start the engine keeps from its first frame (the policy's 'stuck') is recovered as hls.js advises
  // for a media error (a new MediaSource, the buffer loaded again), once per source.
  const stopStuckWatch = watchStuckStart(
    video,
    () => hls.mainForwardBufferInfo?.len ?? 0,
    (decision) => bus.emit('playback:decision', decision),
    () => {
      onRecoverable('start stuck');
      hls.recoverMediaError();
    },
  );
  video.addEventListener('loadeddata', onStarted, { once: true });
  // The page's own start (early-media.ts) is in the element already.
  if (early && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) markStarted();
  let earlyVariant = early?.variant;
  // Where the fragments the page appended itself end (the early start is one fragment from 0).
  const earlyEnd = early && video.buffered.length ? video.buffered.end(0) : 0;
  // hls.js's setup (its controllers) in this task, the element's MediaSource and the first playlist
  // in the next: two tasks under 50 ms in front of the first frame, not one long one.
  let hls = create(startAt, false);
  const handle: HlsHandle = {
    destroy() {
      clearTimeout(timer);
      hold.stop();
      stopStuckWatch();
      stopDropWatch();
      stopDecisionLog?.();
      intent.stop();
      life.abort();
      video.removeEventListener('loadeddata', onStarted);
      video.removeEventListener('error', onElementError);
      hls.destroy();
    },
    holds: () => hold.holds(),
    setQuality(level) {
      // nextLevel switches at the next fragment boundary without flushing what is buffered; auto
      // hands the choice back to ABR. Within the early start hls.js knows no fragment to switch after
      // (it did not append it): there the switch is immediate, or it would wait for the buffer to run out.
      // Paused, no boundary comes: the switch is immediate too (the buffer is the chosen level's from here on).
      if (level < 0) hls.currentLevel = -1;
      else if (video.currentTime < earlyEnd || video.paused) hls.currentLevel = level;
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
    const measured = measuredBandwidth(performance.getEntriesByType('resource') as PerformanceResourceTiming[]);
    const h = new Hls({
      startLevel: 0,
      // ABR's first estimate from what the page's own downloads measured, not hls.js's fixed 500 kb/s:
      // the second fragment goes to the rendition the link can pay for.
      ...(measured && { abrEwmaDefaultEstimate: Math.min(Math.max(measured, 1e5), 5e6) }),
      testBandwidth: false,
      // The first fragment asked as soon as its playlist is in, before the MediaSource has opened:
      // opening it does not tick hls.js, so playlists already fetched (the start's prefetch, a
      // returning viewer's guess) left the fragment to hls.js's 100 ms timer (a returning viewer's
      // trace: sourceopen at 809 ms, the fragment asked at 900).
      startFragPrefetch: true,
      startPosition: at > 0 ? at : -1,
      // The forward buffer is the playback policy's (policy-abr.ts sets maxBufferLength for each level
      // it chooses); these are its bounds until the first choice.
      maxBufferLength: TUNING.forwardMinS,
      maxMaxBufferLength: TUNING.forwardMaxS,
      // Behind the playhead: enough for a step back (10 s), not half a minute of 1080p (18 MB).
      backBufferLength: 15,
      // What is left ahead of a seek back (a range the playhead no longer reaches) goes once it is
      // further than the longest buffer target: after seeks across a film, memory holds what is set here.
      frontBufferFlushThreshold: TUNING.forwardMaxS,
      abrController: policyAbr(bus, measured, playback),
      ...loadPolicies(retriesFor(started)),
      pLoader,
      fLoader,
      // The audio rendition the prefetch chose (and fetched) by the player's rule, so hls.js starts on it.
      ...(prefetched?.audio && { audioPreference: prefetched.audio }),
    });
    forgetStatsOfRemoved(h);
    // Cues are rendered by the UI: tracks stay 'hidden', never natively shown.
    h.subtitleDisplay = false;
    h.on(Events.ERROR, (_e, data) => onError(h, data));
    h.on(Events.MANIFEST_PARSED, (_e, data) => {
      // The early start's frames are its variant's: hls.js reports a level once a fragment of its own
      // plays, which may be the next one (4 s later).
      const early = earlyVariant ? data.levels.findIndex((l) => l.uri === earlyVariant) : -1;
      earlyVariant = undefined;
      if (early >= 0 && store.level.peek() < 0) store.level.value = early;
      // hls.js loads on from the early start's rendition (read as it starts loading, right after this
      // event), not from the lowest when the start fell back from it (playlist-prefetch.ts).
      if (early > 0) h.startLevel = early;
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
    h.on(Events.MEDIA_ATTACHED, () => {
      if (intent.playing() && video.paused) video.play().catch(() => {});
    });
    h.on(Events.FRAG_LOADED, () => bus.emit('media:stats', { bandwidth: h.bandwidthEstimate }));
    h.on(Events.FRAG_LOADING, (_e, { frag, part }) => void (frag.type !== 'subtitle' && !part && !frag.bitrateTest && hold.loading(frag)));
    if (attach) load(h);
    return h;
  }

  function load(h: Hls, transfer?: EarlyMedia): void {
    h.loadSource(url);
    // The page's own start: its MediaSource and SourceBuffers taken over, what they hold kept.
    if (transfer) takeOver(h, transfer);
    else h.attachMedia(video);
  }

  function onError(h: Hls, data: ErrorData) {
    if (h !== hls) return;
    if (!data.fatal) return onRecoverable(data.details);
    const restart = () => {
      timer = setTimeout(() => {
        // Read now, not at the error: the buffer may have played on meanwhile, and a viewer who
        // paused in between stays paused.
        const at = video.currentTime;
        hls.destroy();
        hls = create(at);
      }, NETWORK_RETRY_DELAY_MS);
    };
    // Once playing, a network error may be the link, not the server (a tunnel): while no answer
    // comes from anywhere the spinner stays; when the link is back the stream goes on from here.
    if (data.type === ErrorTypes.NETWORK_ERROR && started) {
      void waitForLink(life.signal).then((link) => {
        if (h !== hls || life.signal.aborted) return;
        // The same instance loads on from where playback is (its buffer and tracks kept).
        if (link === 'back') h.startLoad(video.currentTime);
        else if (link === 'up' && networkRetries++ < 1) restart();
        else fatal(data);
      });
      return;
    }
    if (data.type === ErrorTypes.NETWORK_ERROR && networkRetries++ < 1) return restart();
    if (data.type === ErrorTypes.MEDIA_ERROR) {
      const now = performance.now();
      const again = now - lastMediaRecovery < MEDIA_RECOVERY_INTERVAL_MS;
      if (!again || !codecSwapped) {
        if (again) {
          codecSwapped = true;
          h.swapAudioCodec();
        }
        lastMediaRecovery = now;
        return h.recoverMediaError();
      }
    }
    fatal(data);
  }

  function fatal(data: ErrorData) {
    onFatal({
      details: data.details,
      type: data.type,
      url: data.url ?? data.context?.url,
      response: data.response,
    });
  }

  await nextTask();
  load(hls, early);
  return handle;
}
