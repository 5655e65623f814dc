// The player's contract: what the UI, the features, the ads and telemetry may use of one player.
// The controller implements it; nothing outside main.tsx knows the implementation.
import type { ReadonlySignal } from '@preact/signals';
import type { ComponentType } from 'preact';
import type { EmbedConfig } from '../config/embed-config';
import type { Bus, Cause } from './bus';
import type { Episode } from './entities';
import type { PieceLoader } from './pieces';
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

/** What every lazy piece is handed: the player's store, bus, requests, config and piece loader. */
export interface PlayerParts {
  store: Store;
  bus: Bus;
  requests: Requests;
  config: EmbedConfig;
  load: PieceLoader;
}

/** The running ads (lazy piece `ads`), as the player's UI uses them. */
export interface AdsHandle {
  Overlay: ComponentType;
  /** Without an argument: the opposite of what the ad does now. */
  togglePlay(play?: boolean): void;
  /** SPEC §9: the ad volume button toggles 0 and 1. */
  toggleVolume(): void;
  destroy(): void;
}

export interface PlayerApi extends PlayerParts {
  /** The running ads, once their piece has loaded. */
  ads: ReadonlySignal<AdsHandle | undefined>;
  /** Hands the player its <video> and container; called once by the UI on mount. */
  attach(video: HTMLVideoElement, root: HTMLElement): void;
  start(): Promise<void>;
  /** Runs fn when the player is destroyed (at once if it already was): lazy pieces undo themselves. */
  onDestroy(fn: () => void): void;
  destroy(): void;
}
