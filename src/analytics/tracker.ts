// Listens on the bus and reads the store (never the components) and turns what happened into the
// SPEC §7 analytics events. No @preact/signals import on purpose: signals' own .subscribe() is
// enough, and importing a module the entry also uses would split it into an extra critical chunk.
import type { AdHistoryItem, Bus, PastEvent, PlayerEvents } from '../core/bus';
import type { PlayerError } from '../core/errors';
import type { Store } from '../core/store';
import type { DeviceType } from './device';
import { type Fields, buildFields, round1 } from './fields';
import { createMilestones } from './milestones';
import { bandwidthKBps } from './network';

export interface TrackerDeps {
  bus: Bus;
  store: Store;
  userId?: string;
  deviceType: DeviceType;
  /** Calls the page's event function with 'videoplayer_{name}'. */
  send(event: string, fields: Fields): void;
  /** The browser's bandwidth guess (Mb/s) for when the engine has none yet. */
  downlinkMbps?(): number | undefined;
  now?(): number;
  setTimer?(fn: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
}

/** SPEC §9 time-update interval. */
export const TIMEUPDATE_MS = 60_000;
/** SPEC §9 ad timeupdate throttle. */
const AD_TIMEUPDATE_MS = 1000;
/** The same engine error is reported at most this often: a stall can repeat it many times a second. */
const BUFFER_ERROR_MS = 10_000;


export function createTracker(d: TrackerDeps) {
  const { bus, store } = d;
  const now = d.now ?? (() => performance.now());
  const setTimer = d.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = d.clearTimer ?? ((t: unknown) => clearTimeout(t as ReturnType<typeof setTimeout>));
  const milestones = createMilestones();
  let ads: AdHistoryItem[] = [];
  let bandwidth = 0;
  let muted = false;
  let realMs = 0;
  let playingSince: number | null = null;
  let videoSec = 0;
  let lastTime = store.currentTime.peek();
  let lastAt = now();
  let nextTick = TIMEUPDATE_MS;
  let timer: unknown;
  let lastAdTick = -Infinity;
  const lastErrors = new Map<string, number>();
  /** Set while replaying a past event: its time, instead of the present. */
  let past: { at: number; time: number } | null = null;

  const at = () => past?.at ?? now();
  const realPlayedMs = (t: number) => realMs + (playingSince === null ? 0 : Math.max(0, t - playingSince));
  const bufferLength = () => round1(Math.max(0, store.bufferedEnd.peek() - store.currentTime.peek()));

  function fields(): Fields {
    const level = store.qualities.peek()[store.level.peek()];
    const audio = store.audioTracks.peek().find((t) => t.id === store.audioTrack.peek());
    return buildFields({
      content: store.content.peek(),
      episode: store.episode.peek(),
      poster: store.poster.peek(),
      duration: store.duration.peek(),
      currentTime: past?.time ?? store.currentTime.peek(),
      playbackRate: store.playbackRate.peek(),
      realPlayed: realPlayedMs(at()) / 1000,
      videoPlayed: videoSec,
      height: level?.height ?? 0,
      audioLanguage: audio?.language ?? '',
      deviceType: d.deviceType,
      userId: d.userId,
      ads,
      bandwidthKBps: bandwidthKBps(bandwidth, d.downlinkMbps?.()),
    });
  }

  const send = (name: string, extra: Fields = {}) => d.send(`videoplayer_${name}`, { ...fields(), ...extra });

  // Real time counts only while the video really plays: not paused, not buffering.
  function syncPlaying(): void {
    const playing = !store.paused.peek() && !store.waiting.peek() && store.started.peek();
    const t = now();
    if (playing && playingSince === null) {
      playingSince = t;
      schedule();
    } else if (!playing && playingSince !== null) {
      realMs += t - playingSince;
      playingSince = null;
      clearTimer(timer);
    }
  }

  // SPEC §9: a time update after every 60 s of real playing time.
  function schedule(): void {
    clearTimer(timer);
    timer = setTimer(tick, Math.max(0, nextTick - realPlayedMs(now())));
  }
  function tick(): void {
    if (playingSince === null) return;
    if (realPlayedMs(now()) >= nextTick) {
      send('timeupdate');
      nextTick += TIMEUPDATE_MS;
    }
    schedule();
  }

  // A step of currentTime counts as played when the video plays and the step is no longer than the
  // wall time since the last one allows (at the current rate); anything else is a seek.
  function onTime(t: number): void {
    const n = now();
    const step = t - lastTime;
    const duration = store.duration.peek();
    if (playingSince !== null && step > 0 && step <= ((n - lastAt) / 1000) * store.playbackRate.peek() + 1) {
      videoSec += step;
      if (duration > 0) {
        for (const m of milestones.played((lastTime / duration) * 100, (t / duration) * 100)) send('progress', { video_percent: m });
      }
    }
    lastTime = t;
    lastAt = n;
  }

  function resetVideo(): void {
    milestones.reset();
    realMs = 0;
    videoSec = 0;
    nextTick = TIMEUPDATE_MS;
    if (playingSince !== null) {
      playingSince = now();
      schedule();
    }
    lastTime = store.currentTime.peek();
    lastAt = now();
  }

  function trackAd(ad: AdHistoryItem): void {
    const i = ads.findIndex((a) => a.id === ad.id && a.position === ad.position);
    ads = i < 0 ? [...ads, ad] : ads.map((a, j) => (j === i ? ad : a));
  }

  const handlers: { [K in keyof PlayerEvents]?: (p: PlayerEvents[K]) => void } = {
    'content:episode-changed': resetVideo,
    'media:play': (p) => send('play', { play_cause: p.cause }),
    'media:pause': (p) => {
      // The pause that comes with the end of the video is not the viewer's.
      const duration = store.duration.peek();
      if (!(duration > 0 && store.currentTime.peek() >= duration - 0.5)) send('pause', { play_cause: p.cause });
    },
    'media:seeked': (p) => send('seek', { seek_from: round1(p.from), seek_to: round1(p.to) }),
    'media:ended': () => milestones.ended().forEach((m) => send('progress', { video_percent: m })),
    'media:volume': (p) => {
      if (p.muted === muted) return;
      muted = p.muted;
      send(muted ? 'mute' : 'unmute');
    },
    'player:fullscreen': (p) => send('fullscreen', { fullscreen: p.active ? 1 : 0 }),
    'media:stats': (s) => {
      if (s.bandwidth) bandwidth = s.bandwidth;
      if (s.dropped) send('fps_drop', { dropped_frames: s.dropped, decoded_frames: s.decoded ?? 0 });
    },
    'playback:decision': (d) => {
      if (d.kind === 'level' && d.estimateKbps > 0) bandwidth = d.estimateKbps * 1000;
      // What a viewer feels as buffering, with the policy's reason (an on-call engineer's first question).
      else if (d.kind === 'abandon' || d.kind === 'hold' || d.kind === 'avoid') send('buffering_error', { error_type: `playback:${d.kind}${'reason' in d ? `:${d.reason}` : ''}`, buffer_length: bufferLength() });
    },
    'player:error': ({ error }) => onError(error),
    'ui:menu-click': (p) => send('menu_click', { menu_page: p.page, menu_item: p.item ?? '' }),
    'ui:share': (p) => send('share', { share_target: p.target, share_with_time: p.withTime ? 1 : 0 }),
    'ui:skip-intro': (p) => send('skip_intro', { skip_from: round1(p.from), skip_to: round1(p.to) }),
    // Sent before the switch: the fields are the episode whose credits were playing.
    'ui:credits-next': (p) => send('credits_next', { next_episode_id: p.next.id }),
    'ad:init': (p) => send('ad_init', { ad_init_type: p.type }),
    'ad:loaded': ({ ad }) => (trackAd(ad), send('ad_loaded')),
    'ad:play': ({ ad }) => (trackAd(ad), send('ad_play')),
    'ad:pause': ({ ad }) => (trackAd(ad), send('ad_pause')),
    'ad:skip': ({ ad }) => (trackAd(ad), send('ad_skip_btn_click')),
    'ad:click': ({ ad, href }) => (trackAd(ad), send('ad_banner_click', { href })),
    'ad:ended': ({ ad }) => (trackAd(ad), send('ad_ended')),
    'ad:timeupdate': ({ ad, currentTime }) => {
      // Real time, even in a replay: the page's function sees at most one a second.
      const t = now();
      if (t - lastAdTick < AD_TIMEUPDATE_MS) return;
      lastAdTick = t;
      trackAd(ad);
      send('ad_timeupdate', { ad_current_time: round1(currentTime) });
    },
  };

  function onError(error: PlayerError): void {
    if (error.category === 'ad') return send('ad_error', { error_type: String(error.data?.vastCode), error_message: error.message });
    if (error.fatal) return send('error', { error_type: `${error.category}:${error.message}`, buffer_length: bufferLength() });
    // The engine's recoverable errors: a stall can repeat one many times a second.
    const t = at();
    if (t - (lastErrors.get(error.message) ?? -Infinity) < BUFFER_ERROR_MS) return;
    lastErrors.set(error.message, t);
    send('buffering_error', { error_type: error.message, buffer_length: bufferLength() });
  }

  const offs = Object.entries(handlers).map(([event, fn]) => bus.on(event as keyof PlayerEvents, fn as (p: unknown) => void));
  let qualitySeen = false;
  offs.push(
    store.paused.subscribe(syncPlaying),
    store.waiting.subscribe(syncPlaying),
    store.started.subscribe(syncPlaying),
    store.currentTime.subscribe(onTime),
    store.quality.subscribe((q) => {
      // Report the viewer's choices, not the value at start.
      if (!qualitySeen) return void (qualitySeen = true);
      const height = store.qualities.peek()[q]?.height;
      send('quality_change', { video_quality: q < 0 ? 'auto' : height ? `${height}p` : String(q) });
    }),
  );

  return {
    /** Reports events seen before analytics loaded, with the time they happened. */
    replay(events: PastEvent[]): void {
      // Of the ad time updates only the newest: the others would all be sent together, now.
      const lastAdTime = events.map((e) => e.event).lastIndexOf('ad:timeupdate');
      for (const [i, e] of events.entries()) {
        if (e.event === 'ad:timeupdate' && i !== lastAdTime) continue;
        past = { at: e.at, time: e.time };
        try {
          (handlers[e.event] as ((p: unknown) => void) | undefined)?.(e.payload);
        } finally {
          past = null;
        }
      }
    },
    /** Fields as they are now (for tests and debugging). */
    fields,
    destroy(): void {
      clearTimer(timer);
      offs.forEach((off) => off());
    },
  };
}
