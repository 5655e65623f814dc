// What callers may ask of the player, and the half of it the lazy piece `requests` answers.
import type { Bus, Cause } from './bus';
import type { Episode } from './entities';
import type { Store } from './store';

/**
 * What callers may ask of the player (DESIGN "Requests, not writes"). State changes only when the
 * media confirms it; a request carries its cause, which analytics reads.
 */
export interface Requests {
  play(cause?: Cause): void;
  pause(cause?: Cause): void;
  /** Before the first start: play (SPEC §2 start-play flow); afterwards: play or pause. */
  togglePlay(cause?: Cause): void;
  seek(time: number): void;
  /** Relative to a seek still waiting for its turn, so no key press is lost. */
  seekBy(delta: number): void;
  setPlaybackRate(rate: number): void;
  /** -1 for automatic. */
  setQuality(level: number): void;
  /** With a descriptor of several sources the sources are the audio choices (SPEC §4). */
  setAudioTrack(id: number): void;
  setAudioGain(gain: number): void;
  /** -1 turns subtitles off. */
  setTextTrack(id: number): void;
  /** SPEC §4: only while the content is available; false when refused. */
  selectEpisode(episode: Episode, startAt?: number): boolean;
  /** Switches the current episode to another of its variants; false when refused. */
  selectVariant(variantId: number, startAt?: number): boolean;
  /** SPEC §4 ended: the next episode, played; false when there is none or moving on is not allowed. */
  playNext(): boolean;
  setVolume(volume: number): void;
  toggleMute(): void;
  toggleFullscreen(): void;
  togglePip(): void;
  /** false when the browser offers no cast. */
  cast(): Promise<boolean>;
  airplay(): void;
  /** The error screen's reload button: reset the error and try again from where it failed. */
  retry(): void;
}

/** Requests the lazy piece `requests` answers (the entry forwards them to it; see controller/requests.ts). */
export type LaterRequestName =
  | 'seek'
  | 'seekBy'
  | 'setPlaybackRate'
  | 'setQuality'
  | 'setAudioTrack'
  | 'setAudioGain'
  | 'setTextTrack'
  | 'setVolume'
  | 'toggleFullscreen'
  | 'togglePip'
  | 'cast'
  | 'airplay';

/** The media calls behind those requests (providers/media.ts and media-controls.ts implement them). */
export interface MediaControls {
  seek(time: number): void;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  setPlaybackRate(rate: number): void;
  /** -1 for automatic. */
  setQuality(level: number): void;
  setAudioTrack(id: number): void;
  /** -1 turns subtitles off. */
  setTextTrack(id: number): void;
  /** Audio gain (1 = untouched) through the lazy audio module. */
  setAudioGain(gain: number): void;
  togglePip(): void;
  cast(): Promise<boolean>;
  airplay(): void;
}

export interface LaterRequestDeps {
  store: Store;
  bus: Bus;
  /** config fullscreen_mode */
  fullscreenMode?: string;
  /** The player's container, once the UI attached it. */
  container(): HTMLElement | undefined;
  /** The media, when the UI has attached it. */
  media(): MediaControls | undefined;
  /** The media for a viewer's request; before the UI attached it, SPEC §8 'media not ready' is logged. */
  ready(): MediaControls | undefined;
  /** Switches to another source of the same episode, keeping the time (descriptor audio). */
  setSource(url: string, startAt: number): void;
}

export type LaterRequests = Pick<Requests, LaterRequestName> & {
  /** A seek still waiting for its turn belonged to the old source. */
  cancelSeeks(): void;
  dispose(): void;
};
