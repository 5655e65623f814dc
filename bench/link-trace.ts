// Link capacity traces in mahimahi's format (../shared/traces/README.md): one line per delivery
// opportunity, the millisecond from the trace's start at which one packet of up to 1500 bytes may cross;
// a millisecond written N times is N packets in it. The trace repeats with its last time as the period
// (mahimahi's rule), so a packet listed at the period and one listed at 0 both fall on the wrap.
import { readFileSync } from 'node:fs';

/** Bytes one delivery opportunity carries (mahimahi's packet; headers are not modelled apart). */
export const PACKET_BYTES = 1500;

export interface Trace {
  /** Delivery opportunities, ms from the start of one period, non-decreasing; the last equals periodMs. */
  readonly times: readonly number[];
  /** The trace repeats after this many ms (> 0). */
  readonly periodMs: number;
  /** Where it came from, for messages and reports. */
  readonly name: string;
}

/** Parses a mahimahi trace; throws an Error naming the line for anything a trace cannot be. */
export function parseTrace(text: string, name = 'trace'): Trace {
  const times: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    if (!/^\d+$/.test(line)) throw new Error(`${name}:${i + 1}: '${line.slice(0, 40)}' is not a whole number of milliseconds`);
    const ms = Number(line);
    if (!Number.isSafeInteger(ms)) throw new Error(`${name}:${i + 1}: ${line.slice(0, 40)} ms is too large`);
    const previous = times[times.length - 1];
    if (previous !== undefined && ms < previous) throw new Error(`${name}:${i + 1}: ${ms} comes after ${previous}: times must not decrease`);
    times.push(ms);
  }
  if (times.length === 0) throw new Error(`${name}: no delivery times (an empty trace carries nothing)`);
  const periodMs = times[times.length - 1]!;
  if (periodMs === 0) throw new Error(`${name}: every time is 0, so the trace has no length to repeat over`);
  return { times, periodMs, name };
}

export function readTrace(path: string): Trace {
  return parseTrace(readFileSync(path, 'utf8'), path);
}

/**
 * A fixed-rate link as a trace: packets spread evenly over a 60 s period (integer ms, as trace files
 * are), so the rate is exact over each minute and within one packet in any shorter window.
 */
export function constantTrace(bitsPerSecond: number): Trace {
  const periodMs = 60_000;
  const packets = Math.round((bitsPerSecond * periodMs) / 1000 / (PACKET_BYTES * 8));
  if (!Number.isFinite(packets) || packets < 1) throw new Error(`constant link of ${bitsPerSecond} b/s: below one packet a minute`);
  const times = Array.from({ length: packets }, (_, i) => Math.floor(((i + 1) * periodMs) / packets));
  return { times, periodMs, name: `constant ${(bitsPerSecond / 1e6).toFixed(3)} Mb/s` };
}

/**
 * A link of phases, each [ms long, bits/s] (0: a hole, nothing crosses), packets spread evenly within
 * each; it repeats after the last phase. What the end-to-end tests drive a link's falls and returns with.
 */
export function phasedTrace(phases: ReadonlyArray<readonly [number, number]>, name = 'phased'): Trace {
  const times: number[] = [];
  let from = 0;
  for (const [ms, bps] of phases) {
    if (!(ms > 0) || !(bps >= 0)) throw new Error(`${name}: a phase of ${ms} ms at ${bps} b/s (expected ms > 0, bits/s ≥ 0)`);
    const packets = Math.round((bps * ms) / 1000 / (PACKET_BYTES * 8));
    for (let i = 1; i <= packets; i++) times.push(from + Math.floor((i * ms) / packets));
    from += ms;
  }
  if (!times.length) throw new Error(`${name}: no phase carries a packet`);
  return { times, periodMs: from, name };
}

/** The trace's mean rate in bits per second. */
export function meanBitsPerSecond(trace: Trace): number {
  return (trace.times.length * PACKET_BYTES * 8 * 1000) / trace.periodMs;
}

/**
 * The bytes the trace lets cross in [fromMs, toMs) of its time (past its period, it repeats: every line
 * of each repetition counts, so a wrap carries the packets listed at the period and at 0 alike).
 */
export function capacityBytes(trace: Trace, fromMs: number, toMs: number): number {
  let packets = 0;
  for (let p = Math.floor(fromMs / trace.periodMs); p * trace.periodMs < toMs; p++) {
    const base = p * trace.periodMs;
    for (const t of trace.times) if (base + t >= fromMs && base + t < toMs) packets++;
  }
  return packets * PACKET_BYTES;
}
