// Lazy pieces: the registry (pieces.json, read by build.mjs and size-limit's check too), the contract
// of each piece's module, and the loader. The loader is handed to whoever needs it, so tests load fakes.
import type { ComponentType } from 'preact';
import { pieceCss, pieceFiles } from 'virtual:pieces';
import type { PastEvent } from './bus';
import type { Descriptor, DescriptorSource } from './entities';
import type { PlayerApi, PlayerParts, AdsHandle } from './player-api';
import type { Store } from './store';
import type { MediaTrack } from './tracks';
import type registry from './pieces.json';
import type { Bus } from './bus';

export type PieceName = keyof typeof registry;

/** Playlist address → its text (undefined when the prefetch failed, so the engine loads it itself). */
export type PlaylistCache = Map<string, Promise<string | undefined>>;

/** What the hls piece writes to and tells: it fills the store's stream data itself (SPEC §3). */
export interface HlsContext {
  store: Store;
  bus: Bus;
  /** The descriptor's own subtitle files, offered for languages the stream lacks. */
  externalTracks(): MediaTrack[];
  /** A fatal error hls.js could not recover from, after the retries. */
  onFatal(data: { details: string; type: string; url?: string; response?: unknown }): void;
  /** A non-fatal error hls.js recovers from by itself (stalls, retried loads). */
  onRecoverable(details: string): void;
}

export interface HlsHandle {
  destroy(): void;
  /** -1 for automatic. */
  setQuality(level: number): void;
  setAudioTrack(id: number): void;
  /** -1 turns subtitles off. */
  setTextTrack(id: number): void;
}

export interface CueBinding {
  /** Shows one of the descriptor's files (an external track id) or none (-1). */
  showExternal(id: number, subs: Array<{ label: string; src: string; language: string }>): void;
  /** A new source: the old files go. */
  reset(): void;
  dispose(): void;
}

export interface Extras {
  togglePip(): void;
  /** Picture-in-picture back to the content from an ad that held it. */
  takePip(): Promise<void>;
  /** false: the browser offers no cast. */
  cast(): Promise<boolean>;
  airplay(): void;
  dispose(): void;
}

export interface AdsHost {
  store: Store;
  bus: Bus;
  adListUrl: string;
  /** api/http getJson, handed over so the piece shares no module with the entry but preact's. */
  getJson: (url: string, signal?: AbortSignal) => Promise<unknown>;
  /** The sandboxed page VPAID creatives run in (player asset path + vpaid.html). */
  vpaidFrameUrl: string;
  /** Gives picture-in-picture back to the content (the ads never touch the content's <video>). */
  takeContentPip?: () => Promise<void>;
}

type Telemetry = { start(player: PlayerApi, past: PastEvent[]): void };

/** What each piece's module exports (test/unit/core/pieces.test.ts checks the real modules against it). */
export interface PieceModules {
  hls: {
    attachHls(video: HTMLVideoElement, url: string, startAt: number, context: HlsContext, prefetched?: PlaylistCache): HlsHandle;
  };
  controls: { Chrome: ComponentType<{ player: PlayerApi }> };
  features: { attachFeatures(parts: PlayerParts): () => void };
  'audio-gain': { createAudioGain(video: HTMLMediaElement): { set(gain: number): void } | undefined };
  cues: { bindCues(video: HTMLVideoElement, store: Store): CueBinding };
  descriptor: {
    /** Validates a descriptor and resolves its links; throws on a shape the player cannot use. */
    readDescriptor(raw: unknown, descriptorUrl: string): Descriptor;
    /** SPEC §4 initial audio choice: the saved label, else the source flagged default, else the first. */
    chooseSource(sources: readonly DescriptorSource[], savedLabel?: string): DescriptorSource | undefined;
  };
  ads: { runAds(host: AdsHost): AdsHandle };
  vpaid: Record<string, never>;
  extras: { bindExtras(video: HTMLVideoElement, store: Store): Extras };
  analytics: Telemetry;
  sentry: Telemetry;
  fingerprint: Telemetry;
}

export type PieceLoader = <K extends PieceName>(name: K) => Promise<PieceModules[K]>;

/**
 * Imports lazy pieces from the player-asset path with ?widget=NAME (SPEC §2), once per name for every
 * caller (a failed load may be tried again). The URL must be the exact one the HTML preloads, query
 * included, or the browser downloads the module twice.
 */
export function createPieceLoader(assetBase: string, importModule = (url: string) => import(url)): PieceLoader {
  const loads = new Map<string, Promise<unknown>>();
  const importPiece = (name: PieceName): Promise<unknown> => {
    const mod = importModule(`${assetBase}${name}-${pieceFiles[name]}.js?widget=${name}`);
    const css = pieceCss[name];
    if (!css) return mod;
    // Its stylesheet first, so the piece never shows unstyled; a failed sheet does not block it.
    const sheet = new Promise((done) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = assetBase + css;
      link.onload = link.onerror = done;
      document.head.appendChild(link);
    });
    return Promise.all([mod, sheet]).then(([m]) => m);
  };
  return <K extends PieceName>(name: K) => {
    let p = loads.get(name);
    if (!p) {
      p = importPiece(name);
      p.catch(() => loads.delete(name));
      loads.set(name, p);
    }
    return p as Promise<PieceModules[K]>;
  };
}
