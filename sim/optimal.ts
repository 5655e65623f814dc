// The offline optimum: the best QoE a policy could reach with the whole trace known in advance, in the
// engine's model (latency, then capacity; one request at a time; the ladder repeated to cover `seconds`).
//
// What makes the search small:
// - Waiting never pays when the future is known. With a latency that is the same in every period (as in
//   every corpus trace), a request asked earlier ends no later, so the optimum asks each segment as soon
//   as the last one is in, never abandons (it would have asked the final level at once), and plays each
//   segment as soon as it is in: a second waited costs 4.3 whether at the start or in a stall.
// - With segment i in at c_i (ms after the first request), all the waiting of the session (start and
//   stalls) is M = max_i (c_i − i × segment). A partial schedule is summed up by its level, c, M and R
//   (Mb/s × s played, less the switches' |Δ Mb/s|); the QoE is (R − 4.3 M) ÷ content seconds at the end.
//
// The discretisation: per segment, the states are kept per (level, buffer cell), the buffer (content in,
// less content played, when the segment is in) cut into cells 10 % wide (the first one 0.25 s): a stall a
// minute away depends on the buffer less finely than one a second away. A cell keeps the best state by
// each of three rankings, as none of them alone knows what the rest of the trace holds:
// - the QoE so far, R − 4.3 M (the buffer worth nothing more);
// - the QoE so far less what it has used of the link, R − 4.3 M − ρ C(c) (C(c): the bits the link has
//   carried by c; ρ: the ladder's QoE per bit, about 1 Mb/s·s per Mbit): a state that earned the same
//   from less of a slow link has the rest for what follows;
// - the QoE so far plus 4.3 a second buffered, R − 4.3 M + 4.3 b: a second buffered saves at most a
//   second of stall, and before a long slow stretch every one of them does.
// The schedule found is real (it is replayed with `downloadEnd`), so its QoE is a lower bound of the
// optimum, and a near-bound: cells five times finer raise the corpus's mean QoE by at most 0.3 % in a
// class (the production ladder's 3G; under 0.1 % elsewhere) and no trace's by more than 0.02; on small
// random cases it equals brute force in 286 of 288 and is never more than 2 % under it
// (test/unit/sim/optimal.test.ts). The corpus (113 traces × 600 s, 5 levels) takes 3 to 4 s of CPU.
import { downloadEnd, linkSums } from './link';
import type { Manifest, Metrics, Trace } from './types';

/** The stall weight: a second waited costs 4.3 Mb/s of a second played. */
const STALL_WEIGHT = 4.3;
/** The buffer cells' growth, and the first cell's width (s). */
const CELL_RATIO = 1.1;
const CELL_FLOOR_S = 0.25;
/** States kept per (level, buffer cell): one per ranking (see above). */
const SLOTS = 3;
/** Moments closer than this are the same (float error in sums of ms). */
const EPS_MS = 1e-6;

export interface OptimalOptions {
  /** Content seconds watched (the segments repeat to cover them). */
  seconds: number;
  /** Multiplies every bandwidth of the trace. */
  scale: number;
  /** The buffer cells' growth (1.1: each cell 10 % wider than the last). */
  cellRatio?: number;
}

export interface Optimum {
  metrics: Metrics;
  /** The level of every segment, in order. */
  levels: number[];
}

interface Session {
  count: number;
  /** Seconds of segment i played (the last one only in part when `seconds` ends inside it). */
  playedS: (i: number) => number;
  bits: (level: number, i: number) => number;
}

function sessionOf(manifest: Manifest, seconds: number): Session {
  const segS = manifest.segmentS;
  const total = manifest.segmentBits[0]!.length;
  const count = Math.max(1, Math.ceil(seconds / segS - 1e-9));
  return {
    count,
    playedS: (i) => (i < count - 1 ? segS : seconds - (count - 1) * segS),
    bits: (level, i) => manifest.segmentBits[level]![i % total]!,
  };
}

/** The exact metrics of one schedule: each segment asked when the last is in, played as soon as it can be. */
function scheduleMetrics(manifest: Manifest, trace: Trace, options: { seconds: number; scale: number }, levels: number[]): Metrics {
  const { count, playedS, bits } = sessionOf(manifest, options.seconds);
  const kbps = manifest.bitratesKbps;
  let t = 0;
  let playEnd = 0;
  let startupS = 0;
  let stallS = 0;
  let stalls = 0;
  let kbpsS = 0;
  let switches = 0;
  let switchMbps = 0;
  for (let i = 0; i < count; i++) {
    const level = levels[i]!;
    t = downloadEnd(trace, options.scale, t, bits(level, i)).endMs;
    if (i === 0) startupS = t / 1000;
    else if (t > playEnd + EPS_MS) {
      stalls += 1;
      stallS += (t - playEnd) / 1000;
    }
    if (i > 0 && level !== levels[i - 1]) {
      switches += 1;
      switchMbps += Math.abs(kbps[level]! - kbps[levels[i - 1]!]!) / 1000;
    }
    playEnd = Math.max(t, playEnd) + playedS(i) * 1000;
    kbpsS += playedS(i) * kbps[level]!;
  }
  const contentS = options.seconds;
  const lastBits = bits(levels[count - 1]!, count - 1);
  return {
    qoe: (kbpsS / 1000 - STALL_WEIGHT * (stallS + startupS) - switchMbps) / contentS,
    rebufferRatio: stallS / (stallS + contentS),
    stalls,
    stallS,
    startupS,
    kbps: kbpsS / contentS,
    switches,
    // Only the part of the last segment after the viewer leaves: nothing else is fetched.
    unplayedMB: (lastBits * (1 - playedS(count - 1) / manifest.segmentS)) / 8 / 1e6,
  };
}

/** The ladder's QoE per Mbit fetched: Σ Mb/s × s ÷ Σ Mbit over every segment and level. */
function rewardPerMbit(manifest: Manifest): number {
  let reward = 0;
  let mbit = 0;
  manifest.segmentBits.forEach((sizes, level) => {
    for (const bits of sizes) {
      reward += (manifest.segmentS * manifest.bitratesKbps[level]!) / 1000;
      mbit += bits / 1e6;
    }
  });
  return mbit > 0 ? reward / mbit : 0;
}

/** One segment's kept states: each one's level and the index of the state it came from (-1 for the first). */
interface Layer {
  level: Int32Array;
  from: Int32Array;
}

/** The optimum's schedule and metrics. */
export function optimum(manifest: Manifest, trace: Trace, options: OptimalOptions): Optimum {
  const link = linkSums(trace, options.scale);
  if (!Number.isFinite(link.timeOfBits(1))) throw new Error(`trace ${trace.name}: carries nothing`);
  const { count, playedS, bits } = sessionOf(manifest, options.seconds);
  const segS = manifest.segmentS;
  const kbps = manifest.bitratesKbps;
  const levels = kbps.length;
  const rho = rewardPerMbit(manifest);
  const logRatio = Math.log(options.cellRatio ?? CELL_RATIO);
  const cellOf = (bufferS: number) => Math.floor(Math.log(Math.max(bufferS, CELL_FLOOR_S) / CELL_FLOOR_S) / logRatio);
  // Each (cell, level) has three slots, [0, width) [width, 2 width) [2 width, 3 width), one per way of ranking.
  const width = (cellOf(count * segS) + 2) * levels;
  const held = new Float64Array(SLOTS * width);
  const slot = {
    level: new Int32Array(SLOTS * width),
    from: new Int32Array(SLOTS * width),
    c: new Float64Array(SLOTS * width),
    m: new Float64Array(SLOTS * width),
    r: new Float64Array(SLOTS * width),
    used: new Float64Array(SLOTS * width),
  };
  // The current segment's states.
  let cur = { c: new Float64Array(levels), m: new Float64Array(levels), r: new Float64Array(levels), used: new Float64Array(levels), level: new Int32Array(levels) };
  const layers: Layer[] = [];
  for (let level = 0; level < levels; level++) {
    const firstByte = link.latencyAt(0);
    const used = link.bitsBy(firstByte) + bits(level, 0);
    const c = Math.max(firstByte, link.timeOfBits(used));
    cur.c[level] = c;
    cur.m[level] = c;
    cur.r[level] = (playedS(0) * kbps[level]!) / 1000;
    cur.used[level] = used / 1e6;
    cur.level[level] = level;
  }
  layers.push({ level: cur.level, from: new Int32Array(levels).fill(-1) });
  const offer = (k: number, score: number, level: number, from: number, c: number, m: number, r: number, used: number) => {
    if (score < held[k]! || (score === held[k]! && c >= slot.c[k]!)) return;
    held[k] = score;
    slot.level[k] = level;
    slot.from[k] = from;
    slot.c[k] = c;
    slot.m[k] = m;
    slot.r[k] = r;
    slot.used[k] = used;
  };
  for (let i = 1; i < count; i++) {
    held.fill(-Infinity);
    for (let k = 0; k < cur.c.length; k++) {
      // The request's first byte, and the link's count then, are the same whatever level it asks.
      const firstByte = cur.c[k]! + link.latencyAt(cur.c[k]!);
      const before = link.bitsBy(firstByte);
      const lastKbps = kbps[cur.level[k]!]!;
      for (let level = 0; level < levels; level++) {
        const usedBits = before + bits(level, i);
        const c = Math.max(firstByte, link.timeOfBits(usedBits));
        const m = Math.max(cur.m[k]!, c - i * segS * 1000);
        const r = cur.r[k]! + (playedS(i) * kbps[level]! - Math.abs(kbps[level]! - lastKbps)) / 1000;
        const used = usedBits / 1e6;
        const so = r - (STALL_WEIGHT * m) / 1000;
        const bufferS = (i + 1) * segS - (c - m) / 1000;
        const at = cellOf(bufferS) * levels + level;
        offer(at, so, level, k, c, m, r, used);
        offer(width + at, so - rho * used, level, k, c, m, r, used);
        offer(2 * width + at, so + STALL_WEIGHT * bufferS, level, k, c, m, r, used);
      }
    }
    const kept: number[] = [];
    for (let k = 0; k < width; k++) {
      // A state that leads in more than one ranking is kept once.
      for (let j = k; j < SLOTS * width; j += width) {
        let twice = false;
        for (let o = k; o < j; o += width) twice ||= held[o]! > -Infinity && slot.from[o] === slot.from[j];
        if (held[j]! > -Infinity && !twice) kept.push(j);
      }
    }
    const n = kept.length;
    cur = { c: new Float64Array(n), m: new Float64Array(n), r: new Float64Array(n), used: new Float64Array(n), level: new Int32Array(n) };
    const from = new Int32Array(n);
    kept.forEach((k, j) => {
      cur.c[j] = slot.c[k]!;
      cur.m[j] = slot.m[k]!;
      cur.r[j] = slot.r[k]!;
      cur.used[j] = slot.used[k]!;
      cur.level[j] = slot.level[k]!;
      from[j] = slot.from[k]!;
    });
    layers.push({ level: cur.level, from });
  }
  let best = 0;
  const total = (k: number) => cur.r[k]! - (STALL_WEIGHT * cur.m[k]!) / 1000;
  for (let k = 1; k < cur.c.length; k++) if (total(k) > total(best)) best = k;
  const schedule = new Array<number>(count);
  for (let i = count - 1, k = best; i >= 0; i--) {
    schedule[i] = layers[i]!.level[k]!;
    k = layers[i]!.from[k]!;
  }
  return { metrics: scheduleMetrics(manifest, trace, options, schedule), levels: schedule };
}

/** The offline optimum's metrics (see above): the limit the baselines and the player are measured against. */
export function optimal(manifest: Manifest, trace: Trace, options: { seconds: number; scale: number }): Metrics {
  return optimum(manifest, trace, options).metrics;
}
