// What the controller holds of one <video> (Media) and what it hands bindMedia (media.ts) to get it.
import type { Bus, Cause } from '../core/bus';
import type { PieceLoader, PlaylistCache } from '../core/player-api';
import type { MediaControls } from '../core/requests';
import type { Store } from '../core/store';
import type { MediaCapabilities } from './engine';

export interface SourceFailure {
  /** 4 is MediaError's MEDIA_ERR_SRC_NOT_SUPPORTED, used by SPEC §8 for "Failed to load resource." */
  code: number;
  message: string;
  details: string;
  url: string;
  data?: unknown;
}

/** The media calls behind the requests (MediaControls: seek, volume, tracks, PiP, cast) and the rest. */
export interface Media extends MediaControls {
  load(url: string, startAt: number, prefetched?: PlaylistCache): Promise<void>;
  play(cause: Cause): Promise<boolean>;
  pause(cause: Cause): void;
  /** SPEC §9: unmuting at volume 0 sets volume 0.25. */
  toggleMute(): void;
  /** The element's own state: the store's `paused` follows a task later. */
  isPaused(): boolean;
  /** Picture-in-picture back to the content from an ad that held it. */
  takePip(): Promise<void>;
  destroy(): void;
}

export interface MediaOptions {
  store: Store;
  bus: Bus;
  caps: MediaCapabilities;
  load: PieceLoader;
  /** Nothing can play the source (unsupported), or it failed to load or decode past every retry. */
  onFailure(code: 'media-unsupported' | 'media-load-failed', f: SourceFailure): void;
}
