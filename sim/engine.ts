// The playback engine (Sabre's model, in virtual time): one request at a time over a trace-driven link,
// a buffer the playhead drains, stalls, abandons, failing levels and seeks; the clock jumps from event
// to event (a download's end, the buffer running dry, a check instant, a seek, the viewer leaving).
// A segment's audio, when the manifest knows it, crosses the link with its video, but the policy is
// told the video's bits only, as a browser's player measures with the audio in requests of its own.
import { createTally, metricsOf } from './metrics';
import { bitsBetween, downloadEnd, linkSums } from './link';
import type { Download, Manifest, Metrics, PolicyFactory, SimView, Trace } from './types';

/** How often a request in flight is weighed by the policy's abandon rule (and a held start by mayPlay). */
export const CHECK_MS = 100;

/** A viewer's seek: at `atMs` of the session, to `toS` of the content. */
export interface Seek {
  atMs: number;
  toS: number;
}

export interface SessionOptions {
  /** Content seconds the viewer watches before leaving. */
  seconds: number;
  /**
   * Or the seconds of the session's clock after which the viewer leaves, however much was played (a
   * `bench:playback` run ends this long after it began, stalls or not).
   */
  wallSeconds?: number | undefined;
  /** Multiplies every bandwidth of the trace. */
  scale?: number;
  seeks?: Seek[];
  /** Every request at these levels fails once its latency has passed (a broken rendition). */
  failingLevels?: number[];
  /** What a response given up still has queued on the link, at most, KiB (default QUEUED_KIB). */
  queuedKiB?: number;
}

export interface SessionResult extends Metrics {
  /** The policy gave up ('fail'), or the session could not go on (see FAILED_REQUESTS, MAX_SESSION_MS). */
  failed: boolean;
}

/** Buffer comparisons tolerate this much float error, s. */
const EPS = 1e-6;
/** A policy asking a failing level this many times in a row has no way out: the session fails. */
const FAILED_REQUESTS = 1000;
/** A session still running after a virtual day is going nowhere (a link scaled to almost nothing). */
const MAX_SESSION_MS = 24 * 3600 * 1000;
/**
 * A response given up does not leave the link at once: what the server had already sent still crosses
 * it, up to this much, before the next request's bytes (a base station's per-phone buffer; the browser
 * benchmark's emulated link queues 64 KiB a connection, bench/link.ts). At a trickle that is seconds.
 */
export const QUEUED_KIB = 64;
/** A start held with the buffer above its target and nothing to fetch plays after this long. */
const HOLD_IDLE_MS = 60_000;

/** The ladder repeated, whole, until it covers `seconds`: every index a policy is asked about exists. */
export function sessionManifest(manifest: Manifest, seconds: number): Manifest {
  const segments = manifest.segmentBits[0]!.length;
  const repeats = Math.max(1, Math.ceil(seconds / (segments * manifest.segmentS) - 1e-9));
  if (repeats === 1) return manifest;
  const repeat = (bits: number[]) => Array.from({ length: segments * repeats }, (_, i) => bits[i % segments]!);
  return { ...manifest, segmentBits: manifest.segmentBits.map(repeat), ...(manifest.audioBits ? { audioBits: repeat(manifest.audioBits) } : {}) };
}

interface Entry {
  id: number;
  level: number;
  bits: number;
  startS: number;
  endS: number;
}

type Stop = 'time' | 'seek' | 'end';

export function simulate(ladder: Manifest, trace: Trace, factory: PolicyFactory, options: SessionOptions): SessionResult {
  const manifest = sessionManifest(ladder, options.seconds);
  const segS = manifest.segmentS;
  const count = manifest.segmentBits[0]!.length;
  const contentS = count * segS;
  const seconds = Math.min(options.seconds, contentS);
  const untilMs = options.wallSeconds === undefined ? Infinity : options.wallSeconds * 1000;
  if (!(untilMs > 0)) throw new Error(`wallSeconds must be > 0, not ${options.wallSeconds}`);
  const scale = options.scale ?? 1;
  if (!(scale > 0)) throw new Error(`scale must be > 0, not ${scale}`);
  if (!trace.periods.some((p) => p.kbps > 0)) throw new Error(`trace ${trace.name} carries nothing`);
  const failing = new Set(options.failingLevels ?? []);
  const seeks = [...(options.seeks ?? [])].sort((a, b) => a.atMs - b.atMs);
  const policy = factory(manifest);
  const checking = policy.abandon !== undefined || policy.mayPlay !== undefined;
  const tally = createTally(manifest.bitratesKbps);
  const link = linkSums(trace, scale);
  const queuedBits = Math.max(0, options.queuedKiB ?? QUEUED_KIB) * 8192;
  /** The link's count (bits since the session's start) until which it carries given-up bytes. */
  let busyBits = 0;

  let t = 0;
  let index = 0;
  let lastLevel = -1;
  let phase: 'start' | 'play' | 'stall' | 'seek' = 'start';
  let playhead = 0;
  let bufferEnd = 0;
  const buffer: Entry[] = [];
  let nextId = 0;
  let nextSeek = 0;
  let startupS = 0;
  let stallS = 0;
  let stalls = 0;
  let unplayedBits = 0;
  let ended = false;
  let failed = false;

  const bufferS = () => Math.max(0, bufferEnd - playhead);
  const playing = () => phase === 'play';
  const view = (): SimView => ({ nowMs: t, bufferS: bufferS(), index, lastLevel, playing: playing(), manifest });
  const checkLevel = (level: number, from: string) => {
    if (!Number.isInteger(level) || level < 0 || level >= manifest.bitratesKbps.length) throw new Error(`policy ${from} answered level ${level}`);
    return level;
  };
  /** The part of an entry the playhead has not reached. */
  const unplayedOf = (e: Entry) => (e.bits * (e.endS - Math.max(e.startS, playhead))) / (e.endS - e.startS);

  const finish = (asFailed: boolean) => {
    if (ended) return;
    ended = true;
    failed = asFailed;
    for (const e of buffer) unplayedBits += unplayedOf(e);
    buffer.length = 0;
  };

  const movePlayhead = (toS: number) => {
    while (buffer.length > 0) {
      const e = buffer[0]!;
      const from = Math.max(e.startS, playhead);
      const to = Math.min(e.endS, toS);
      tally.play(e.id, e.level, to - from);
      if (e.endS > toS + EPS) break;
      buffer.shift();
    }
    playhead = toS;
  };

  /** Moves the clock to `target`, stopping early at a seek or the session's end. */
  const advanceTo = (target: number): Stop => {
    for (;;) {
      if (ended) return 'end';
      if (t > MAX_SESSION_MS) {
        finish(true);
        return 'end';
      }
      if (t >= untilMs) {
        finish(false);
        return 'end';
      }
      const seekAt = nextSeek < seeks.length ? Math.max(t, seeks[nextSeek]!.atMs) : Infinity;
      if (phase === 'play' && bufferS() <= EPS) {
        phase = 'stall';
        stalls += 1;
        policy.onStall?.(view());
      }
      const limit = Math.min(target, seekAt, untilMs);
      if (phase === 'play') {
        const leftS = Math.min(seconds - tally.playedS, contentS - playhead);
        const untilEmpty = bufferS();
        const dtS = Math.min((limit - t) / 1000, untilEmpty, leftS);
        movePlayhead(dtS === untilEmpty ? bufferEnd : playhead + dtS);
        t += dtS * 1000;
        if (seconds - tally.playedS <= EPS || contentS - playhead <= EPS) {
          finish(false);
          return 'end';
        }
        if (dtS === untilEmpty && t < limit) continue;
        t = Math.max(t, limit);
      } else {
        const dtS = (limit - t) / 1000;
        if (phase === 'start') startupS += dtS;
        else if (phase === 'stall') stallS += dtS;
        t = limit;
      }
      if (t >= seekAt) return 'seek';
      if (t >= target) return 'time';
    }
  };

  /** Whether the playhead moves (after asking the policy, when something is buffered). */
  const tryPlay = (force = false): boolean => {
    if (phase !== 'play' && bufferS() > EPS && (force || (policy.mayPlay?.(view()) ?? true))) phase = 'play';
    return playing();
  };

  /** The viewer's next seek; `drop` abandons the request in flight when the target is not buffered. */
  const applySeek = (drop?: () => void) => {
    const toS = Math.max(0, seeks[nextSeek++]!.toS);
    if (toS >= contentS - EPS) {
      // Past the end: the viewer has seen the film out.
      drop?.();
      return finish(false);
    }
    if (buffer.length > 0 && toS >= playhead && toS < bufferEnd - EPS) {
      // Within the buffer: what lies before the target is skipped, the rest plays on.
      while (buffer[0]!.endS <= toS) unplayedBits += unplayedOf(buffer.shift()!);
      const e = buffer[0]!;
      const skipped = (e.bits * (toS - Math.max(e.startS, playhead))) / (e.endS - e.startS);
      unplayedBits += skipped;
      buffer[0] = { ...e, bits: e.bits - skipped, startS: toS };
      playhead = toS;
    } else {
      drop?.();
      for (const e of buffer) unplayedBits += unplayedOf(e);
      buffer.length = 0;
      playhead = toS;
      bufferEnd = toS;
      index = Math.min(Math.floor(toS / segS), count - 1);
      phase = 'seek';
    }
    policy.onSeek?.(view(), toS);
  };

  const addSegment = (i: number, level: number, bits: number) => {
    let startS = i * segS;
    const endS = startS + segS;
    // After a seek into this segment, its part before the target is never played.
    if (startS < playhead) {
      const cut = (bits * (playhead - startS)) / segS;
      unplayedBits += cut;
      bits -= cut;
      startS = playhead;
    }
    buffer.push({ id: nextId++, level, bits, startS, endS });
    bufferEnd = endS;
  };

  let failedInARow = 0;

  /** One request: 'done' (buffered, or failed by the server), a level to restart at, or 'stop' (a seek dropped it, the session ended). */
  const fetchSegment = (level: number): 'done' | 'stop' | number => {
    const i = index;
    const startMs = t;
    const bitsTotal = manifest.segmentBits[level]![i]!;
    // The policy measures the video alone: the audio's request shares the link through the video's
    // transfer (both start together, the audio's is the smaller), so the video's bytes over its time
    // are the link's rate × the video's share.
    const videoShare = 1 - (manifest.audioBits?.[i] ?? 0) / bitsTotal;
    const fails = failing.has(level);
    const { firstByteMs, endMs } = downloadEnd(trace, scale, t, fails ? 0 : bitsTotal, busyBits);
    const loaded = () => (fails ? 0 : Math.min(bitsTotal, bitsBetween(trace, scale, firstByteMs, t)));
    const download = (bits: number, abandoned: boolean): Download => ({ level, index: i, bits: bits * videoShare, startMs, firstByteMs, endMs: t, abandoned, failed: false });
    const drop = () => {
      const bits = loaded();
      // Its queued rest still crosses the link, paid for and thrown away.
      const queued = fails || t < firstByteMs ? 0 : Math.min(bitsTotal - bits, queuedBits);
      busyBits = Math.max(busyBits, link.bitsBy(t)) + queued;
      unplayedBits += bits + queued;
      policy.onDownload(view(), download(bits, true));
    };
    let nextCheck = startMs + CHECK_MS;
    for (;;) {
      const stop = advanceTo(checking ? Math.min(endMs, nextCheck) : endMs);
      if (stop === 'end') {
        unplayedBits += loaded();
        return 'stop';
      }
      if (stop === 'seek') {
        let dropped = false;
        applySeek(() => {
          drop();
          dropped = true;
        });
        if (dropped || ended) return 'stop';
        continue;
      }
      if (t >= endMs) {
        if (fails) {
          failedInARow += 1;
          policy.onDownload(view(), { ...download(0, false), failed: true });
          if (failedInARow >= FAILED_REQUESTS) finish(true);
          return 'done';
        }
        failedInARow = 0;
        addSegment(i, level, bitsTotal);
        lastLevel = level;
        index = i + 1;
        policy.onDownload(view(), download(bitsTotal, false));
        tryPlay();
        return 'done';
      }
      nextCheck += CHECK_MS;
      tryPlay();
      const verdict = policy.abandon?.(view(), {
        level,
        index: i,
        bitsLoaded: loaded() * videoShare,
        bitsTotal: bitsTotal * videoShare,
        startMs,
        firstByteMs: t >= firstByteMs ? firstByteMs : undefined,
      });
      if (verdict === undefined || verdict === -1) continue;
      drop();
      if (verdict === 'fail') {
        finish(true);
        return 'stop';
      }
      return checkLevel(verdict, 'abandon');
    }
  };

  /** Before a request: drains the buffer down to the policy's target (or holds the start while above it). */
  const waitForTarget = (): boolean => {
    let heldMs = 0;
    for (;;) {
      if (ended) return false;
      const excessS = bufferS() - policy.bufferTargetS(view());
      if (excessS <= EPS) return true;
      if (!tryPlay(heldMs >= HOLD_IDLE_MS)) heldMs += CHECK_MS;
      const stop = advanceTo(t + (playing() ? excessS * 1000 : CHECK_MS));
      if (stop === 'seek') applySeek();
    }
  };

  while (!ended) {
    if (index >= count) {
      // Everything is fetched: nothing more will come, so a held start plays now.
      if (!tryPlay(true)) finish(false);
      else if (advanceTo(Infinity) === 'seek') applySeek();
      continue;
    }
    if (!waitForTarget()) break;
    let next: 'done' | 'stop' | number = checkLevel(policy.choose(view()), 'choose');
    while (typeof next === 'number' && !ended) next = fetchSegment(next);
  }

  return { ...metricsOf({ tally, stallS, stalls, startupS, unplayedBits, failed, seconds }), failed };
}
