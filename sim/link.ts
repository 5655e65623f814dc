// The link model every part of the simulator shares (Sabre's): a request waits the latency of the
// period it starts in, then its bits flow at each period's capacity in turn; the trace repeats when it
// ends, and a period of 0 kb/s carries nothing. Whole-trace sums make each answer a binary search.
import type { Trace } from './types';

interface Prepared {
  /** Period starts within one cycle, ms (n + 1 entries, the last one the cycle's length). */
  startMs: Float64Array;
  /** Bits carried from the cycle's start to each period's start (n + 1 entries). */
  startBits: Float64Array;
  /** Each period's capacity, bits per ms (kb/s × scale). */
  rate: Float64Array;
  cycleMs: number;
  cycleBits: number;
}

// A trace is prepared once per scale: the optimum asks about the same trace hundreds of thousands of times.
const prepared = new WeakMap<Trace, Map<number, Prepared>>();

function prepare(trace: Trace, scale: number): Prepared {
  let byScale = prepared.get(trace);
  if (!byScale) prepared.set(trace, (byScale = new Map()));
  const known = byScale.get(scale);
  if (known) return known;
  const n = trace.periods.length;
  const startMs = new Float64Array(n + 1);
  const startBits = new Float64Array(n + 1);
  const rate = new Float64Array(n);
  trace.periods.forEach((p, i) => {
    rate[i] = Math.max(0, p.kbps * scale);
    startMs[i + 1] = startMs[i]! + p.durationMs;
    startBits[i + 1] = startBits[i]! + p.durationMs * rate[i]!;
  });
  const made = { startMs, startBits, rate, cycleMs: startMs[n]!, cycleBits: startBits[n]! };
  byScale.set(scale, made);
  return made;
}

/** The last i in [0, n) with sums[i] <= x, or sums[i] < x when `strict`. */
function lastAtOrBelow(sums: Float64Array, n: number, x: number, strict: boolean): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (strict ? sums[mid]! < x : sums[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The period a moment falls in, and how many whole cycles came before it. */
function periodAt(p: Prepared, ms: number): { cycles: number; inCycle: number; i: number } {
  const cycles = Math.floor(ms / p.cycleMs);
  const inCycle = ms - cycles * p.cycleMs;
  return { cycles, inCycle, i: lastAtOrBelow(p.startMs, p.rate.length, inCycle, false) };
}

/** Bits the link carries from the session's start to `ms`. */
function bitsBy(p: Prepared, ms: number): number {
  const { cycles, inCycle, i } = periodAt(p, ms);
  return cycles * p.cycleBits + p.startBits[i]! + (inCycle - p.startMs[i]!) * p.rate[i]!;
}

/** The first moment by which the link has carried `bits` since the session's start. */
function timeOfBits(p: Prepared, bits: number): number {
  if (bits <= 0) return 0;
  let cycles = Math.floor(bits / p.cycleBits);
  let rest = bits - cycles * p.cycleBits;
  if (rest <= 0) {
    cycles -= 1;
    rest = p.cycleBits;
  }
  // The period in which the count reaches `rest`: the last one starting below it (it carries bits).
  const i = lastAtOrBelow(p.startBits, p.rate.length, rest, true);
  return cycles * p.cycleMs + p.startMs[i]! + (rest - p.startBits[i]!) / p.rate[i]!;
}

/** The link's sums, for callers that step through many requests on one trace (the optimum). */
export interface LinkSums {
  /** The latency of the period a moment falls in, ms. */
  latencyAt(ms: number): number;
  /** Bits carried from the session's start to `ms`. */
  bitsBy(ms: number): number;
  /** The first moment by which `bits` have been carried since the session's start (Infinity if never). */
  timeOfBits(bits: number): number;
}

export function linkSums(trace: Trace, scale: number): LinkSums {
  const p = prepare(trace, scale);
  const dead = p.rate.length === 0 || !(p.cycleMs > 0);
  return {
    latencyAt: (ms) => (dead ? Infinity : trace.periods[periodAt(p, ms).i]!.latencyMs),
    bitsBy: (ms) => (dead ? 0 : bitsBy(p, ms)),
    timeOfBits: (bits) => (bits <= 0 ? 0 : dead || !(p.cycleBits > 0) ? Infinity : timeOfBits(p, bits)),
  };
}

/**
 * A request for `bits` asked at `startMs`: its first byte comes after the latency of the period it is
 * asked in, and after the link has carried its count up to `busyBits` (the bytes of a response given
 * up but still queued on it); its last when the link has carried them all. A trace that carries
 * nothing never delivers.
 */
export function downloadEnd(trace: Trace, scale: number, startMs: number, bits: number, busyBits = 0): { firstByteMs: number; endMs: number } {
  const link = linkSums(trace, scale);
  const answeredMs = startMs + link.latencyAt(startMs);
  const firstByteMs = Number.isFinite(answeredMs) && busyBits > link.bitsBy(answeredMs) ? link.timeOfBits(busyBits) : answeredMs;
  if (bits <= 0 || !Number.isFinite(firstByteMs)) return { firstByteMs, endMs: firstByteMs };
  return { firstByteMs, endMs: Math.max(firstByteMs, link.timeOfBits(link.bitsBy(firstByteMs) + bits)) };
}

/** Bits the link carries between two moments (what a request in flight has received so far). */
export function bitsBetween(trace: Trace, scale: number, fromMs: number, toMs: number): number {
  if (!(toMs > fromMs)) return 0;
  const link = linkSums(trace, scale);
  return link.bitsBy(toMs) - link.bitsBy(fromMs);
}
