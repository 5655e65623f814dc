// The player's contract: what the UI, the features, the ads and telemetry may use of one player, and
// what each lazy piece's module exports. The controller implements it; nothing outside main.tsx knows
// the implementation.
import type { ReadonlySignal } from '@preact/signals-core';
import type { EmbedConfig } from '../config/embed-config';
import type { AdsHandle, AdsHost } from './ads-contract';
import type { Bus, PastEvent } from './bus';
import type { Descriptor, DescriptorSource } from './entities';
import type { CueBinding, Extras } from './extras-contract';
import type registry from './pieces.json';
import type { LaterRequestDeps, LaterRequests, Requests } from './requests';
import type { Store } from './store';
import type { MediaTrack } from './tracks';

/** What every lazy piece is handed: the player's store, bus, requests, config and piece loader. */
export interface PlayerParts {
  store: Store;
  bus: Bus;
  requests: Requests;
  config: EmbedConfig;
  load: PieceLoader;
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

// Lazy pieces (registry: pieces.json; loader: pieces.ts).

export type PieceName = keyof typeof registry;

type Telemetry = { start(player: PlayerApi, past: PastEvent[]): void };

/** What each piece's module exports (test/unit/core/pieces.test.ts checks the real modules against it). */
export interface PieceModules {
  hls: {
    /**
     * Resolves once hls.js is loading the source into the element (a task after its setup). `early`:
     * the start already in the element, for hls.js to take over and load on from.
     */
    attachHls(video: HTMLVideoElement, url: string, startAt: number, context: HlsContext, prefetched?: PlaylistCache, early?: EarlyMedia): Promise<HlsHandle>;
  };
  /** Renders the controls into `into` (a layer of the player's frame); returns what unmounts them. */
  controls: { mountChrome(into: HTMLElement, player: PlayerApi): () => void };
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
  extras: { bindExtras(video: HTMLVideoElement, store: Store, load: PieceLoader): Extras };
  requests: { createLaterRequests(deps: LaterRequestDeps): LaterRequests };
  analytics: Telemetry;
  sentry: Telemetry;
  fingerprint: Telemetry;
}

export type PieceLoader = <K extends PieceName>(name: K) => Promise<PieceModules[K]>;

// The hls piece: what the player hands it, what it hands back, and the start fetched ahead of it
// (providers/playlist-prefetch.ts, early-media.ts), which it takes over.

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
  /** Written on every byte of media the loaders receive: the deadlines count time without one. */
  traffic: MediaTraffic;
  /** After a fatal network error once started: is the link up, back after an outage, or gone? */
  waitForLink(signal: AbortSignal): Promise<LinkState>;
  /** The film held after a stall (`HlsHandle.holds`) is let go: it plays again, or the viewer paused it meanwhile. */
  released(playing: boolean): void;
}

export interface HlsHandle {
  destroy(): void;
  /**
   * The element can play again after a stall: whether the engine holds it until what is buffered
   * outlasts the fragments on their way (providers/resume-hold.ts); the context's `released` says when it lets go.
   */
  holds(): boolean;
  /** -1 for automatic. */
  setQuality(level: number): void;
  setAudioTrack(id: number): void;
  /** -1 turns subtitles off. */
  setTextTrack(id: number): void;
}

/**
 * The start's first fragments already in the element (providers/early-media.ts): its MediaSource and
 * SourceBuffers, one a type, each with the codec it was added for; the hls piece hands them to hls.js
 * (providers/hls-internals.ts `takeOver`).
 */
export interface EarlyMedia {
  /** The variant the appended fragments are of (EarlyStart's). */
  variant: string;
  media: HTMLVideoElement;
  mediaSource: MediaSource;
  buffers: Record<'video' | 'audio', { codec: string; buffer: SourceBuffer }>;
}

/** 'up': the server answers now; 'back': it did not, then did; 'gone': no answer within the outage budget. */
export type LinkState = 'up' | 'back' | 'gone';

/** A playlist's text or a fragment's bytes fetched ahead of the engine, with when its request started and ended. */
export interface Prefetched {
  data: string | ArrayBuffer;
  /** When it was asked for, when its answer began (headers), when its last byte came. */
  start: number;
  first: number;
  end: number;
}

/**
 * Address → what the prefetch got (undefined when it failed, so the engine loads it itself), each
 * handed over once; `audio` is the rendition the prefetch chose, which the engine must start on.
 */
export type PlaylistCache = Map<string, Promise<Prefetched | undefined>> & {
  audio?: { groupId?: string; name?: string; lang?: string };
  /** When the prefetch last received a byte. */
  traffic?: MediaTraffic;
  /** The start's init segments once both are in, its first fragments to come, for the page to append before hls.js (providers/early-media.ts); undefined when it cannot. */
  early?: Promise<EarlyStart | undefined>;
};

/** What the first frame needs from a start at 0: the variant's and the audio's first fragments, and the film's length. */
export interface EarlyStart {
  duration: number;
  /** The variant's playlist address: the level the early frames are of. */
  variant: string;
  video: EarlyTrack;
  audio: EarlyTrack;
}

/** A rendition's init segment, its first fragment as it comes (undefined: it did not), and the codec its SourceBuffer takes. */
export interface EarlyTrack {
  codec: string;
  init: ArrayBuffer;
  first: Promise<ArrayBuffer | undefined>;
  /** The first fragment's bytes so far, as they arrive. */
  coming: ChunkFeed;
}

/** A body's chunks as they arrive (`arrived` called at each), emptied once the whole body (or none) is in. */
export interface ChunkFeed {
  chunks: Uint8Array<ArrayBuffer>[];
  arrived?: () => void;
}

/** The media's bytes as they arrive (performance.now() times): the engine's loaders and the prefetch write them. */
export interface MediaTraffic {
  /** When a byte of media last arrived from anywhere (or the picture moved on). */
  last: number;
  /** The media's bytes received so far, every load together (a load waiting for its turn on the link counts what the others got). */
  bytes?: number;
  /** When the media's server last answered the watchdog's probe. */
  answered?: number;
  /** Each load still open (a fragment by type and number, whatever rendition; else its address) → when a byte of it last came, or it began. */
  open: Map<string, number>;
}
