import { createNanoEvents } from 'nanoevents';
import type { Content, Episode, EpisodeVariant, Season } from './entities';
import type { Decision } from '../playback/decisions';
import type { PlayerError } from './errors';

/** Why something was asked for; analytics reads it (DESIGN "Requests, not writes"). */
export type Cause = 'user' | 'api' | 'ad' | 'autoplay';

/** SPEC §3 ad history item, as analytics reports it. */
export interface AdHistoryItem {
  id: string;
  type: 'preroll' | 'midroll';
  /** Running ad counter. */
  position: number;
  /** Seconds. */
  duration: number;
  /** Percent of the content watched when the ad ran. */
  perc: number;
  /** Not in SPEC's item: seconds into the ad from which it may be skipped, set as it starts (absent: not skippable). */
  skipOffset?: number;
}

/** Things that happened. Payloads are objects so fields can be added without breaking listeners. */
export interface PlayerEvents {
  'content:loaded': { content: Content; episodes: Episode[]; seasons: Season[]; isAvailable: boolean };
  'content:episode-changed': { episode: Episode };
  /** The viewer switched the current episode to another of its variants. */
  'content:variant-changed': { episode: Episode; variant: EpisodeVariant };
  /** A validated command from the embedding page (messenger/, the SDK's play and pause); the ad runner acts on it too. */
  'parent:command': { actionType: 'pause' | 'play' };
  'media:source': { url: string; engine: 'hls' | 'native' };
  'media:play': { cause: Cause };
  'media:playing': { currentTime: number };
  'media:pause': { cause: Cause };
  'media:seeked': { from: number; to: number };
  'media:ended': { currentTime: number };
  'media:first-frame': { sinceStartMs: number };
  'media:volume': { volume: number; muted: boolean };
  /** Playback statistics from the streaming engine: its bandwidth estimate (bits/s), a period that dropped frames. */
  'media:stats': { bandwidth?: number; dropped?: number; decoded?: number };
  /** A playback policy decision and its reason (src/playback/decisions.ts). */
  'playback:decision': Decision;
  /** mode 'stretched' is the iOS-in-a-frame fallback (SPEC §4). */
  'player:fullscreen': { active: boolean; mode?: 'native' | 'stretched' };
  /**
   * Every error, fatal or not: the engine's recoverable ones (stalls, retried loads) and ad errors
   * come with `fatal: false`. Only the controller turns a fatal one into a screen.
   */
  'player:error': { error: PlayerError };
  /** Settings menu and share interactions, for analytics (SPEC §7 "share and menu clicks"). */
  'ui:menu-click': { page: string; item?: string };
  'ui:share': { target: string; withTime: boolean };
  /** The viewer skipped the intro (content/markers.ts), from and to the video's time. */
  'ui:skip-intro': { from: number; to: number };
  /** The video reached the current episode's credits marker (once an episode); `next` when there is one to move on to. */
  'ui:credits': { episode: Episode; next: Episode | null };
  /** The credits countdown ran out: the next episode is asked for (sent before the switch). */
  'ui:credits-next': { next: Episode };
  /** A single touch tap on the video while the controls show: hide them now (a touch has no pointer to move away). */
  'ui:hide-controls': Record<string, never>;
  /** Ads (SPEC §7 ad events); `ad` is the history item of the ad concerned. */
  'ad:init': { type: 'preroll' | 'midroll' };
  'ad:loaded': { ad: AdHistoryItem };
  'ad:play': { ad: AdHistoryItem };
  'ad:pause': { ad: AdHistoryItem };
  'ad:skip': { ad: AdHistoryItem };
  'ad:click': { ad: AdHistoryItem; href: string };
  'ad:ended': { ad: AdHistoryItem };
  'ad:timeupdate': { ad: AdHistoryItem; currentTime: number };
}

/** An event seen before a lazy listener loaded, with when it happened (controller/telemetry-boot.ts). */
export interface PastEvent {
  event: keyof PlayerEvents;
  payload: unknown;
  /** performance.now() at the event. */
  at: number;
  /** The video's current time at the event. */
  time: number;
}

export interface Bus {
  emit<K extends keyof PlayerEvents>(event: K, payload: PlayerEvents[K]): void;
  on<K extends keyof PlayerEvents>(event: K, cb: (payload: PlayerEvents[K]) => void): () => void;
  /** Sees every event first; lazy telemetry uses it to replay what happened before it loaded. */
  tap(cb: (event: keyof PlayerEvents, payload: unknown) => void): () => void;
}

/** A typed bus on which a throwing listener or tap is logged and never stops the others. */
export function createBus(): Bus {
  const emitter = createNanoEvents<{ [K in keyof PlayerEvents]: (p: PlayerEvents[K]) => void }>();
  const taps = new Set<(event: keyof PlayerEvents, payload: unknown) => void>();
  const guard = (event: string, run: () => void) => {
    try {
      run();
    } catch (err) {
      console.error(`[player] listener of ${event} failed`, err);
    }
  };
  return {
    emit: (event, payload) => {
      taps.forEach((t) => guard(event, () => t(event, payload)));
      emitter.emit(event, ...([payload] as never));
    },
    tap: (cb) => (taps.add(cb), () => taps.delete(cb)),
    on: (event, cb) => emitter.on(event, ((payload: never) => guard(event, () => cb(payload))) as never),
  };
}
