// A returning viewer's start (issue 26), as the page's bootstrap asks for it before the catalogue has
// answered (bootstrap/guess.ts): the fetches ahead of the engine, and the guess handed from the
// bootstrap to the entry's prefetch (playlist-prefetch.ts), which takes it over, or drops it when the
// catalogue's answer names something else. Small on purpose: it is in the page's inline bootstrap.
import { idleDeadline } from '../core/deadline';
import type { ChunkFeed, MediaTraffic, Prefetched } from '../core/player-api';
import type { StartMemory } from '../storage/start-memory';

/**
 * A playlist or fragment from which no byte has come for this long is left to hls.js's own loader,
 * with its own retries: a stalled answer costs this much, never the whole start; a slow one that keeps
 * arriving is waited for (cutting it would only ask for the same bytes again).
 */
export const PREFETCH_IDLE_MS = 5000;

export interface Guess {
  start: StartMemory;
  drop: AbortController;
  /** Address → what came. */
  got: Map<string, Promise<Prefetched | undefined>>;
  traffic: MediaTraffic;
}

// Between the bootstrap and the entry, which run one instance of this module (scripts/page-modules.mjs).
const shared: { guess?: Guess; asked?: Promise<void>; engineLater?: boolean } = {};

/**
 * Where the page can append the start itself (early-media.ts): a plain MediaSource. WebKit's
 * ManagedMediaSource opens only on the conditions hls.js sets up, so there hls.js starts as before.
 */
export const canAppendEarly = (): boolean => 'MediaSource' in globalThis && !('ManagedMediaSource' in globalThis);

/**
 * A first visit's bootstrap, without ads, leaves hls.js unasked until the start's first fragments are
 * in (media.ts): on a slow link its 154 kB shared the link with them, and the first frame waited for both.
 */
export function deferEngine(): void {
  shared.engineLater = true;
}

/** Whether hls.js is to wait for the start's first fragments: for the first source only. */
export const engineDeferred = (): boolean => !!shared.engineLater;

/** The deferral, taken by the first source (media.ts): every later one asks for hls.js at once. */
export function takeEngineDeferral(): boolean {
  const later = !!shared.engineLater;
  shared.engineLater = false;
  return later;
}

/**
 * `url`'s body fetched ahead of the engine: a playlist's text (only if it is one: an error page or
 * garbage is left to hls.js) or a fragment's bytes, each chunk told to `traffic`, and kept in `feed`
 * until the last has come (early-media.ts appends them as they arrive); undefined when it failed, went
 * PREFETCH_IDLE_MS without a byte, or `drop` aborted it.
 */
export function fetchAhead(url: string, binary: boolean, traffic: MediaTraffic, drop?: AbortSignal, feed?: ChunkFeed): Promise<Prefetched | undefined> {
  const wait = idleDeadline(PREFETCH_IDLE_MS, drop);
  const start = performance.now();
  const arrived = (chunk: Uint8Array<ArrayBuffer>) => {
    traffic.last = performance.now();
    traffic.bytes = (traffic.bytes ?? 0) + chunk.byteLength;
    wait.progress();
    feed?.chunks.push(chunk);
    feed?.arrived?.();
  };
  let first = 0;
  return fetch(url, { signal: wait.signal })
    .then((r) => ((first = performance.now()), r.ok ? readAll(r, arrived) : undefined))
    .then((body): Promise<string | ArrayBuffer> | undefined => body && (binary ? body.arrayBuffer() : body.text()))
    .then((data) => (data !== undefined && (binary || String(data).startsWith('#EXTM3U')) ? { data, start, first, end: performance.now() } : undefined))
    .catch(() => undefined)
    .finally(() => {
      wait.done();
      // The whole answer (or none) is what follows: the chunks are not kept twice.
      if (feed) feed.chunks = [];
    });
}

/** The body, every chunk of it told to `arrived` as it comes. */
async function readAll(response: Response, arrived: (chunk: Uint8Array<ArrayBuffer>) => void): Promise<Blob> {
  const chunks: BlobPart[] = [];
  const reader = response.body!.getReader();
  for (let got; !(got = await reader.read()).done; arrived(got.value)) chunks.push(got.value);
  return new Blob(chunks);
}

/** Leaves `guess` on the page for the entry's prefetch (bootstrap/guess.ts makes it). */
export function offerGuess(guess: Guess): void {
  shared.guess = guess;
}

/**
 * The bootstrap's first step after the episodes' answer (a first visit's master asked, or not to be):
 * the entry's start waits for it, briefly (main.tsx).
 */
export function offerFirstAsk(asked: Promise<void>): void {
  shared.asked = asked;
}

/** How long the entry waits for the bootstrap's first ask: a slow catalogue does not hold the start longer. */
export const FIRST_ASK_WAIT_MS = 250;

/** Settles once the bootstrap has asked what the episodes' answer let it ask, or after `maxMs`; at once without one. */
export const firstAsk = (maxMs: number): Promise<unknown> =>
  shared.asked ? Promise.race([shared.asked, new Promise((done) => setTimeout(done, maxMs))]) : Promise.resolve();

/** The guess, handed over once (to keep or to drop); undefined when there is none (left). */
export function takeGuess(): Guess | undefined {
  const g = shared.guess;
  shared.guess = undefined;
  return g;
}
