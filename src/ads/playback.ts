import type { AdError } from './ad-error';

/** What an ad's media reports: the <video> provider and the VPAID bridge speak the same language. */
export type PlaybackEvent =
  | { type: 'canplaythrough' }
  | { type: 'playing' }
  | { type: 'pause'; ended: boolean }
  | { type: 'ended' }
  | { type: 'error'; error: AdError }
  | { type: 'time'; currentTime: number; duration: number }
  | { type: 'skip' }
  | { type: 'stop' }
  /** A VPAID creative asked to open its click-through. */
  | { type: 'click'; url?: string }
  /** iOS-style native fullscreen began (SPEC §4: the ad stops). */
  | { type: 'native-fullscreen' }
  /** The media changed its own volume (muted to get past the autoplay policy). */
  | { type: 'volume'; volume: number }
  /** The ad entered or left picture-in-picture (SPEC §3 playState.isPIP). */
  | { type: 'pip'; active: boolean };

export interface AdPlayback {
  /** The element the overlay shows (the ad's <video>, or the VPAID frame). */
  el: HTMLElement;
  start(): void;
  /** false when the browser refused (autoplay policy) even muted. */
  play(): Promise<boolean>;
  pause(): void;
  setVolume(volume: number): void;
  skip(): void;
  /** Moves picture-in-picture to the ad (only while the content holds it: no gesture is needed then). */
  takePip?(): Promise<void>;
  destroy(): void;
}
