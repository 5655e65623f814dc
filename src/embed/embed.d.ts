// The partner SDK's public types (docs/embedding.md "Partner SDK"), served as /player/embed.d.ts for both
// /player/embed.mjs (`import { createPlayer }`) and /player/embed.js (`window.EmbedPlayer`).
// src/embed/ is written against this file, so the two cannot drift apart.

export type Loading = 'eager' | 'lazy' | 'facade';

export interface PlayerOptions {
  /** Content id (SPEC §2 `movie_id`), required unless `target` is an existing player iframe. */
  movieId?: number;
  /** `episode_id`: start on this episode. */
  episodeId?: number;
  /** `season` and `episode`: start on this season and episode number (episode defaults to 1). */
  season?: number;
  episode?: number;
  /** `t`: start time in seconds. */
  t?: number;
  /** `auto_play`. */
  autoplay?: boolean;
  /** `enabled_share`. */
  share?: boolean;
  /** `lang_order` (repeated): preferred audio languages. */
  langOrder?: string[];
  /** `user_id`. */
  userId?: string | number;
  /** `voice_author`: preferred audio voice. */
  voiceAuthor?: string;
  /** `episode_variant_id`. */
  episodeVariantId?: number;
  /** The player page's address; default: the folder the SDK was loaded from (`…/player/`). */
  playerUrl?: string;
  /** 'facade' only: base of the catalogue API for the poster and title; default: the player page's origin. */
  apiBase?: string;
  /** 'eager' (default): the frame at once; 'lazy': when the container nears the viewport; 'facade': poster and play button, the frame on the first click. */
  loading?: Loading;
  /**
   * 'partner': your page keeps the viewer's memory (progress, volume, mute, audio and variant choices,
   * where each title last started) in its own localStorage, under the key 'embed-player-memory', so the
   * player remembers wherever the browser blocks its frame's storage, and across your site's pages. The
   * SDK hands the record to the frame in its address (`#memory=…`) and stores each update the frame
   * posts. An existing iframe is only listened to: give it its address with `partnerMemory()` first.
   */
  memory?: 'partner';
}

/** A command's refusal: `code` is docs/errors.md (SDK). */
export interface SdkError {
  code: string;
  message: string;
}

export interface ReadyInfo {
  version: number;
  methods: string[];
  events: string[];
}

/** SPEC §3 episode, as the player has it. */
export interface Episode {
  id: number;
  contentId: number;
  title: string;
  order: number;
  season?: { id: number; order: number } | null;
  [field: string]: unknown;
}

/** SPEC §3 season. */
export interface Season {
  id: number;
  order: number;
  title?: string;
}

/** The quality playing: its height (null before the first frame of a stream) and whether the player chooses it (auto). */
export interface QualityState {
  height: number | null;
  auto: boolean;
}

export interface Qualities extends QualityState {
  /** The stream's renditions, highest first. */
  levels: Array<{ height: number; width: number; bitrate: number }>;
}

/** An audio track (voice-over) or a subtitle track; `active`: the one playing. */
export interface Track {
  label: string;
  /** The stream's language code ('' when it has none). */
  language: string;
  active: boolean;
}

/** The ad that starts: SPEC §3 ad history item, with when it may be skipped. */
export interface AdInfo {
  id: string;
  type: 'preroll' | 'midroll';
  /** The running ad counter. */
  position: number;
  /** Seconds. */
  duration: number;
  /** Seconds into the ad from which the viewer may skip it; null: not skippable. */
  skipOffset: number | null;
}

export interface PlayerEvents {
  ready: ReadyInfo;
  play: Record<string, never>;
  pause: Record<string, never>;
  ended: Record<string, never>;
  /** At most 4 a second. */
  timeupdate: { currentTime: number; duration: number };
  volumechange: { volume: number; muted: boolean };
  fullscreenchange: { fullscreen: boolean };
  episodeChanged: { episode: Episode };
  episodeVariantChanged: { episodeVariant: { id: number; title: string; filepath: string } };
  timeProgressChanged: { currentTime: number; duration: number };
  /** The level playing changed, or the choice between auto and a fixed height. */
  qualityChanged: QualityState;
  audioTrackChanged: { label: string; language: string };
  /** language 'off' (label null) when subtitles are off. */
  subtitlesChanged: { language: string; label: string | null };
  playbackRateChanged: { playbackRate: number };
  adStart: AdInfo;
  /** The viewer skipped the ad; adEnd follows. */
  adSkipped: Pick<AdInfo, 'id' | 'type' | 'position'>;
  /** The viewer clicked through to the advertiser (`href`, '' when the ad has none); the ad pauses. */
  adClick: Pick<AdInfo, 'id' | 'type' | 'position'> & { href: string };
  adEnd: Record<string, never>;
  error: { code: string; fatal: boolean; message: string };
  /** The viewer pressed 'Пропустить заставку': the video's time before the jump and the intro's end (seconds). */
  introSkipped: { from: number; to: number };
  /** The video reached the episode's credits marker (once an episode); `next` is the episode the countdown leads to, or null. */
  creditsReached: { episode: Episode; next: Episode | null };
}

export interface Player {
  /** The player frame, once it exists ('lazy' and 'facade' create it later). */
  readonly iframe: HTMLIFrameElement | null;
  /** Resolves once, when the player first answers; rejects with 'timeout' 30 s after the frame was created without one. */
  ready(): Promise<ReadyInfo>;
  /** Returns the function that removes the listener. */
  on<K extends keyof PlayerEvents>(event: K, listener: (data: PlayerEvents[K]) => void): () => void;
  play(): Promise<void>;
  pause(): Promise<void>;
  /** Resolves with the time the player landed on. */
  seek(seconds: number): Promise<number>;
  setVolume(volume: number): Promise<void>;
  mute(): Promise<void>;
  unmute(): Promise<void>;
  /** Resolves with the episode once it is the current one. */
  selectEpisode(which: { season: number; episode?: number } | { id: number }): Promise<Episode>;
  getCurrentTime(): Promise<number>;
  getDuration(): Promise<number>;
  getPaused(): Promise<boolean>;
  getVolume(): Promise<number>;
  getMuted(): Promise<boolean>;
  getEpisode(): Promise<Episode | null>;
  getQualities(): Promise<Qualities>;
  /** 'auto' hands the choice to the player; a height (720) fixes that rendition. Resolves once it plays. */
  setQuality(quality: 'auto' | number): Promise<void>;
  /** The voice-overs the viewer may choose among. */
  getAudioTracks(): Promise<Track[]>;
  /** By its label; remembered for this content as the viewer's own choice. Resolves once it plays. */
  setAudioTrack(label: string): Promise<void>;
  getSubtitles(): Promise<Track[]>;
  /** A language code ('ru', 'rus' alike) or 'off'. */
  setSubtitles(language: string): Promise<void>;
  getPlaybackRate(): Promise<number>;
  /** One of SPEC §9's 0.25, 0.5, … 2. */
  setPlaybackRate(rate: number): Promise<void>;
  /** Once the catalogue has answered: the content's seasons, and its episodes in order (SPEC §3). */
  getSeasons(): Promise<Season[]>;
  getEpisodes(): Promise<Episode[]>;
  /** Removes the frame (or the facade) and every listener; pending promises reject with 'destroyed'. */
  destroy(): void;
}

/** `target`: a container (the SDK builds a 16:9 frame in it) or an existing player iframe. */
export declare function createPlayer(target: HTMLElement, options?: PlayerOptions): Player;

/**
 * Partner memory for a plain iframe: sets `iframe.src` to `src` (the player page's address) with your
 * page's record of the viewer's memory and stores each update the frame posts, as
 * `createPlayer(…, { memory: 'partner' })` does. Returns the function that stops listening.
 */
export declare function partnerMemory(iframe: HTMLIFrameElement, src: string): () => void;

declare global {
  interface Window {
    /** /player/embed.js (classic script). */
    EmbedPlayer: { createPlayer: typeof createPlayer; partnerMemory: typeof partnerMemory };
  }
}
