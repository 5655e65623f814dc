// The lazy ads piece's contract: what the player hands it (AdsHost) and what it hands back (AdsHandle).
import type { Bus } from './bus';
import type { Store } from './store';

/** The running ads (lazy piece `ads`), as the player's UI uses them. */
export interface AdsHandle {
  /** Renders the ad overlay into `into` (a layer of the player's frame); returns what unmounts it. */
  mountOverlay(into: HTMLElement): () => void;
  /** Without an argument: the opposite of what the ad does now. */
  togglePlay(play?: boolean): void;
  /** SPEC §9: the ad volume button toggles 0 and 1. */
  toggleVolume(): void;
  destroy(): void;
}

/** The GET the bootstrap started for an address, handed over once (api/http takeEarly); else undefined. */
export type TakeEarly = (url: string, signal?: AbortSignal) => Promise<{ ok: boolean; status: number; text: string }> | undefined;

export interface AdsHost {
  store: Store;
  bus: Bus;
  adListUrl: string;
  /** api/http getJson, handed over so the piece shares no module with the entry but preact's. */
  getJson: (url: string, signal?: AbortSignal) => Promise<unknown>;
  /** api/http takeEarly: a VAST the bootstrap started (the first pre-roll's, as the list answered). */
  takeEarly?: TakeEarly;
  /** The sandboxed page VPAID creatives run in (player asset path + vpaid.html). */
  vpaidFrameUrl: string;
  /** Gives picture-in-picture back to the content (the ads never touch the content's <video>). */
  takeContentPip?: () => Promise<void>;
}
