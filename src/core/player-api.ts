// The player's contract: what the UI, the features, the ads and telemetry may use of one player.
// The controller implements it; nothing outside main.tsx knows the implementation.
import type { ReadonlySignal } from '@preact/signals-core';
import type { EmbedConfig } from '../config/embed-config';
import type { Bus, Cause, PastEvent } from './bus';
import type { Descriptor, DescriptorSource, Episode } from './entities';
import type registry from './pieces.json';
import type { Store } from './store';
import type { MediaTrack } from './tracks';

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

/** The media calls behind those requests (providers/media.ts implements them). */
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
  /** Renders the ad overlay into `into` (a layer of the player's frame); returns what unmounts it. */
  mountOverlay(into: HTMLElement): () => void;
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

// Lazy pieces (registry: pieces.json; loader: pieces.ts).

export type PieceName = keyof typeof registry;

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

/** What the first frame needs from a start at 0: the variant's and the audio's first fragments, and the film's length. */
export interface EarlyStart {
  duration: number;
  /** The variant's playlist address: the level the early frames are of. */
  variant: string;
  video: EarlyTrack;
  audio: EarlyTrack;
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

/** 'up': the server answers now; 'back': it did not, then did; 'gone': no answer within the outage budget. */
export type LinkState = 'up' | 'back' | 'gone';

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

/**
 * The start's first fragments already in the element (providers/early-media.ts): its MediaSource and
 * SourceBuffers, as hls.js's attachMedia takes them over (its transfer of a MediaSource: the
 * SourceBuffer track set, one a type).
 */
export interface EarlyMedia {
  /** The variant the appended fragments are of (EarlyStart's). */
  variant: string;
  media: HTMLVideoElement;
  mediaSource: MediaSource;
  tracks: Record<'video' | 'audio', { id: 'main' | 'audio'; container: string; codec: string; levelCodec: string; buffer: SourceBuffer; listeners: [] }>;
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

export interface CueBinding {
  /** Shows one of the descriptor's files (an external track id) or none (-1). */
  showExternal(id: number, subs: Array<{ label: string; src: string; language: string }>): void;
  /** A new source: the old files go. */
  reset(): void;
  dispose(): void;
}

export interface Extras {
  /** Shows one of the descriptor's subtitle files (an external track id) or none (-1). */
  showSubtitles(id: number): void;
  /** A new source: the old subtitle files go. */
  resetSubtitles(): void;
  /** Audio gain (1 = untouched), through the lazy `audio-gain` piece. */
  setGain(gain: number): void;
  togglePip(): void;
  /** Picture-in-picture back to the content from an ad that held it. */
  takePip(): Promise<void>;
  /** false: the browser offers no cast. */
  cast(): Promise<boolean>;
  airplay(): void;
  dispose(): void;
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

type Telemetry = { start(player: PlayerApi, past: PastEvent[]): void };

/** What each piece's module exports (test/unit/core/pieces.test.ts checks the real modules against it). */
export interface PieceModules {
  hls: {
    /** Resolves once hls.js is loading the source into the element (a task after its setup). */
    /** `early`: the start already in the element, for hls.js to take over and load on from. */
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
