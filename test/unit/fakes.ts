// Fakes for controller and feature tests: a catalogue served from a table through `fetch`, a piece
// loader that hands out real or fake modules, a happy-dom <video> whose play()/pause() confirm with
// media events the way a browser does, a clock, and a fake provider (Media) for the controller's
// smaller parts. Nothing here waits on real time beyond a few zero-delay turns.
import { freshMemory } from './storage/memory-kit';
import type { Window } from 'happy-dom';
import { readEmbedConfig } from '../../src/config/embed-config';
import * as laterRequests from '../../src/controller/later-requests';
import { createPlayer } from '../../src/controller/player';
import type { Cause } from '../../src/core/bus';
import type { PieceLoader, PieceModules, PieceName } from '../../src/core/player-api';
import type { PlayerApi } from '../../src/core/player-api';
import type { Media } from '../../src/providers/media-contract';
import { installDom } from './dom';

export const ORIGIN = 'https://player.example';

const realSetTimeout = globalThis.setTimeout;

/** The fake clock installed now, if any: flush runs its zero-delay timers too. */
let installedClock: { advance(ms: number): void } | undefined;

/** A few turns of the event loop: promises settle, zero-delay timers run, the fake clock's too (never a real wait). */
export async function flush(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) {
    await new Promise((r) => realSetTimeout(r, 0));
    installedClock?.advance(0);
  }
}

/** Runs fn with console.error/warn silenced; returns what was logged. */
export async function quiet<T>(fn: () => T | Promise<T>): Promise<{ result: T; errors: unknown[][]; warnings: unknown[][] }> {
  const { error, warn } = console;
  const errors: unknown[][] = [];
  const warnings: unknown[][] = [];
  console.error = (...a: unknown[]) => errors.push(a);
  console.warn = (...a: unknown[]) => warnings.push(a);
  try {
    return { result: await fn(), errors, warnings };
  } finally {
    console.error = error;
    console.warn = warn;
  }
}

export type Route = unknown | ((url: string) => Response | Promise<Response>);

/** A fetch that answers from a table: JSON bodies, a status number, or a function. Returns the URLs asked. */
export function serve(routes: Record<string, Route>): string[] {
  const seen: string[] = [];
  globalThis.fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    seen.push(url);
    const aborted = new Promise<never>((_, reject) =>
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
    aborted.catch(() => {});
    const path = url.replace(ORIGIN, '');
    const key = Object.keys(routes).find((k) => path === k || path.startsWith(k + '?'));
    if (!key) return new Response('{"error":"not found"}', { status: 404 });
    const r = routes[key];
    if (typeof r === 'function') return Promise.race([(r as (u: string) => Response)(url), aborted]);
    if (typeof r === 'number') return new Response('{}', { status: r });
    return new Response(JSON.stringify(r), { status: 200 });
  }) as typeof fetch;
  return seen;
}

/** What a fake piece is: its module, an Error to fail with, or 'never' to stay loading. */
export type FakePieces = { [K in PieceName]?: PieceModules[K] | Error | 'never' };

/**
 * A PieceLoader over a table. A piece not in the table stays loading (as on a slow network), so
 * tests that do not care about it see nothing of it; but `requests` (the controller's own requests
 * beyond play and pause) is the real module unless the table says otherwise. `asked` lists every call in order.
 */
export function fakeLoader(pieces: FakePieces = {}) {
  const asked: PieceName[] = [];
  const table: FakePieces = { requests: laterRequests, ...pieces };
  const load: PieceLoader = (name) => {
    asked.push(name);
    const p = table[name];
    if (p === undefined || p === 'never') return new Promise(() => {});
    if (p instanceof Error) return Promise.reject(p);
    return Promise.resolve(p as never);
  };
  return { load, asked };
}

/**
 * A fake clock for code that reads performance.now() and schedules with setTimeout: install() swaps
 * both globals until restore(); advance() runs the timers due, in order.
 */
export function fakeClock(start = 1000) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const saved = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, now: performance.now };
  const clock = {
    now: () => now,
    setTimeout: ((fn: () => void, ms = 0) => (timers.set(++seq, { at: now + ms, fn }), seq)) as unknown as typeof setTimeout,
    clearTimeout: ((id: number | undefined) => void timers.delete(id as number)) as typeof clearTimeout,
    pending: () => timers.size,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        timers.delete(next[0]);
        // A timer overdue after a freeze runs late, at the clock's time.
        now = Math.max(now, next[1].at);
        next[1].fn();
      }
      now = end;
    },
    /** The page does not run for `ms` (a busy main thread): the clock moves on and no timer fires; the overdue ones run at the next advance. */
    freeze(ms: number) {
      now += ms;
    },
    install() {
      installedClock = clock;
      globalThis.setTimeout = clock.setTimeout;
      globalThis.clearTimeout = clock.clearTimeout;
      performance.now = () => now;
      return clock;
    },
    restore() {
      if (installedClock === clock) installedClock = undefined;
      globalThis.setTimeout = saved.setTimeout;
      globalThis.clearTimeout = saved.clearTimeout;
      performance.now = saved.now;
    },
  };
  return clock;
}

/** setInterval and performance.now on a virtual clock for one test (fakeClock's are setTimeout's); restore() puts them back. */
export function intervals() {
  let now = 0;
  const timers = new Map<number, { at: number; every: number; fn: () => void }>();
  let seq = 0;
  const saved = { set: globalThis.setInterval, clear: globalThis.clearInterval, now: performance.now };
  globalThis.setInterval = ((fn: () => void, ms: number) => (timers.set(++seq, { at: now + ms, every: ms, fn }), seq)) as unknown as typeof setInterval;
  globalThis.clearInterval = ((id: number) => void timers.delete(id)) as typeof clearInterval;
  performance.now = () => now;
  return {
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.values()].filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        // An interval overdue after a freeze runs once, late, then every period from then.
        now = Math.max(now, next.at);
        next.at = now + next.every;
        next.fn();
      }
      now = end;
    },
    /** The page does not run for `ms`: the clock moves on and no timer fires; an overdue one runs once at the next advance. */
    freeze(ms: number) {
      now += ms;
    },
    now: () => now,
    pending: () => timers.size,
    restore() {
      globalThis.setInterval = saved.set;
      globalThis.clearInterval = saved.clear;
      performance.now = saved.now;
    },
  };
}

export interface VideoStub {
  video: HTMLVideoElement;
  /** What the player did to the element, in order: 'src URL', 'play', 'play muted', 'pause', 'seek T', 'muted B', 'volume V'. */
  calls: string[];
  /** The next play() calls reject with a DOMException of these names (e.g. 'NotAllowedError'). */
  refuse(...names: string[]): void;
  /** Plays to `time`: a timeupdate at that position. */
  tick(time: number): void;
  /** The element reached its end. */
  end(): void;
  /** The element fails as MediaError `code`. */
  fail(code: number, message?: string): void;
}

/**
 * Makes a happy-dom <video> behave like a browser's for the player: play() and pause() confirm with
 * play/playing/pause events a little later (media events are queued tasks), a new src stops playback
 * (the media load algorithm), and volume/mute changes fire volumechange. The element stays a real one.
 */
export function stubVideo(video: HTMLVideoElement, win: Window): VideoStub {
  const calls: string[] = [];
  const refusals: string[] = [];
  let paused = true;
  let muted = false;
  let volume = 1;
  let currentTime = 0;
  let duration = NaN;
  let error: { code: number; message: string } | null = null;
  const fire = (type: string) => video.dispatchEvent(new win.Event(type) as unknown as Event);
  const later = (fn: () => void) => queueMicrotask(fn);
  Object.defineProperties(video, {
    paused: { configurable: true, get: () => paused },
    ended: { configurable: true, get: () => false },
    error: { configurable: true, get: () => error },
    duration: { configurable: true, get: () => duration },
    currentSrc: { configurable: true, get: () => video.getAttribute('src') ?? '' },
    currentTime: {
      configurable: true,
      get: () => currentTime,
      set: (t: number) => {
        calls.push(`seek ${t}`);
        currentTime = t;
      },
    },
    muted: {
      configurable: true,
      get: () => muted,
      set: (m: boolean) => {
        calls.push(`muted ${!!m}`);
        if (muted === !!m) return;
        muted = !!m;
        later(() => fire('volumechange'));
      },
    },
    volume: {
      configurable: true,
      get: () => volume,
      set: (v: number) => {
        calls.push(`volume ${v}`);
        if (volume === v) return;
        volume = v;
        later(() => fire('volumechange'));
      },
    },
    src: {
      configurable: true,
      get: () => video.getAttribute('src') ?? '',
      set: (url: string) => {
        calls.push(`src ${url}`);
        video.setAttribute('src', url);
        // The media load algorithm: a new source stops playback, without a pause event.
        paused = true;
        currentTime = 0;
        duration = 600;
        error = null;
        later(() => {
          fire('emptied');
          fire('durationchange');
          // preload="metadata": the metadata (and, as browsers do, the first frame) arrive without a play.
          fire('loadedmetadata');
          fire('loadeddata');
          fire('canplay');
        });
      },
    },
  });
  video.play = () => {
    calls.push(muted ? 'play muted' : 'play');
    const refusal = refusals.shift();
    if (refusal) return Promise.reject(new DOMException('play() refused', refusal));
    if (!paused) return Promise.resolve();
    paused = false;
    return new Promise<void>((resolve) =>
      later(() => {
        fire('play');
        fire('playing');
        resolve();
      }),
    );
  };
  video.pause = () => {
    calls.push('pause');
    if (paused) return;
    paused = true;
    later(() => fire('pause'));
  };
  return {
    video,
    calls,
    refuse: (...names) => refusals.push(...names),
    tick(time) {
      currentTime = time;
      fire('timeupdate');
    },
    end() {
      currentTime = duration;
      paused = true;
      fire('pause');
      fire('ended');
    },
    fail(code, message = '') {
      error = { code, message };
      fire('error');
    },
  };
}

export const film = { id: 1, title: 'Фильм', hasMultipleEpisodes: false };
export const filmEpisode = { id: 101, contentId: 1, title: 'Фильм', order: 1, season: null, m3u8MasterFilePath: '/media/hls/master.m3u8' };
export const series = { id: 2, title: 'Сериал', hasMultipleEpisodes: true };
export const seriesEpisodes = [
  { id: 202, contentId: 2, title: 'B', order: 2, season: { id: 21, order: 1 }, m3u8MasterFilePath: '/m/202.m3u8' },
  { id: 201, contentId: 2, title: 'A', order: 1, season: { id: 21, order: 1 }, isCompleted: true, m3u8MasterFilePath: '/m/201.m3u8' },
  { id: 204, contentId: 2, title: 'D', order: 1, season: { id: 22, order: 2 }, m3u8MasterFilePath: '/m/204.m3u8' },
];

export const filmRoutes = (extra: Record<string, Route> = {}): Record<string, Route> => ({
  '/catalog-api/contents/1': film,
  '/catalog-api/contents/1/seasons': [],
  '/catalog-api/episodes': [filmEpisode],
  '/catalog-api/contents/1/available': { available: true },
  ...extra,
});

export const seriesRoutes = (extra: Record<string, Route> = {}): Record<string, Route> => ({
  '/catalog-api/contents/2': series,
  '/catalog-api/contents/2/seasons': [
    { id: 22, order: 2 },
    { id: 21, order: 1 },
  ],
  '/catalog-api/episodes': seriesEpisodes,
  '/catalog-api/contents/2/available': { available: true },
  ...extra,
});

/** A player as main.tsx makes one, with the given loader (by default no piece ever arrives). */
export function makePlayer(search: string, globals: Record<string, unknown> = {}, load: PieceLoader = fakeLoader().load): PlayerApi {
  const config = readEmbedConfig({ datasets: [], globals, search, scriptUrl: `${ORIGIN}/player/main.js` });
  // Each player a new page: its memory opened again from storage.
  freshMemory();
  return createPlayer(config, { domain: 'https://partner.example/page', pageUrl: `${ORIGIN}/player/${search}`, load });
}

export interface Stage {
  win: Window;
  player: PlayerApi;
  v: VideoStub;
  asked: PieceName[];
}

/**
 * A fresh DOM (its own window, storage and listeners), a player over the served catalogue, and a
 * stubbed <video> attached to it (unless `attach: false`, when the UI is to attach its own).
 * `engine: 'native'` makes the browser claim native HLS so sources go straight to the element;
 * 'hls' offers MediaSource so the (fake) hls piece is used; 'none' offers neither.
 */
export function stage(
  search: string,
  {
    routes,
    pieces = {},
    globals = {},
    engine = 'native',
    attach = true,
  }: { routes: Record<string, Route>; pieces?: FakePieces; globals?: Record<string, unknown>; engine?: 'native' | 'hls' | 'none'; attach?: boolean },
): Stage {
  const win = installDom(`${ORIGIN}/player/${search}`);
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  freshMemory();
  const proto = win.HTMLMediaElement.prototype as unknown as { canPlayType(t: string): string };
  proto.canPlayType = (t) => (engine === 'native' && /mpegurl/i.test(t) ? 'maybe' : '');
  const w = win as unknown as Record<string, unknown>;
  if (engine === 'hls') w.MediaSource = { isTypeSupported: () => true };
  else delete w.MediaSource;
  serve(routes);
  const { load, asked } = fakeLoader(pieces);
  const player = makePlayer(search, globals, load);
  const v = stubVideo(win.document.createElement('video') as unknown as HTMLVideoElement, win);
  if (attach) player.attach(v.video, win.document.createElement('div') as unknown as HTMLElement);
  return { win, player, v, asked };
}

/**
 * A fake provider (the Media of providers/media-contract.ts) for the controller's parts: it records calls and
 * confirms plays into the store the way the real one does through media events.
 */
export function fakeMedia(store?: { paused: { value: boolean }; started: { value: boolean }; playRequested: { value: boolean } }) {
  const calls: string[] = [];
  const plays: boolean[] = [];
  let paused = true;
  const media: Media = {
    load: async (url, startAt) => void calls.push(`load ${url} @${startAt}`),
    play: async (cause: Cause) => {
      calls.push(`play ${cause}`);
      const ok = plays.length ? plays.shift()! : true;
      if (ok) {
        paused = false;
        if (store) {
          store.paused.value = false;
          store.started.value = true;
          store.playRequested.value = false;
        }
      }
      return ok;
    },
    pause: (cause: Cause) => {
      calls.push(`pause ${cause}`);
      paused = true;
      if (store) store.paused.value = true;
    },
    seek: (t) => void calls.push(`seek ${t}`),
    setVolume: (v) => void calls.push(`volume ${v}`),
    setMuted: (m) => void calls.push(`muted ${m}`),
    toggleMute: () => void calls.push('toggleMute'),
    isPaused: () => paused,
    setPlaybackRate: (r) => void calls.push(`rate ${r}`),
    setQuality: (l) => void calls.push(`quality ${l}`),
    setAudioTrack: (id) => void calls.push(`audio ${id}`),
    setTextTrack: (id) => void calls.push(`text ${id}`),
    setAudioGain: (g) => void calls.push(`gain ${g}`),
    togglePip: () => void calls.push('pip'),
    takePip: async () => void calls.push('takePip'),
    cast: async () => (calls.push('cast'), true),
    airplay: () => void calls.push('airplay'),
    destroy: () => void calls.push('destroy'),
  };
  return { media, calls, answerPlays: (...oks: boolean[]) => plays.push(...oks) };
}
