// DYNAMIC as Spiteri, Sitaraman and Sparacio describe it ("From Theory to Practice: Improving Bitrate
// Adaptation in the DASH Reference Player", ACM MMSys 2018; dash.js's default rule since): THROUGHPUT
// while the buffer is low, where a buffer-based rule has too little to go on, and BOLA once it is high.
// - It starts with THROUGHPUT and moves to BOLA when the buffer is above 10 s and BOLA asks at least the
//   level THROUGHPUT asks; it goes back when the buffer is below 10 s and BOLA asks a lower level.
// - BOLA here is the paper's BOLA-E (sim/policies/bola-e.ts), as dash.js runs it; both rules see every
//   decision, so BOLA's placeholder and the insufficient buffer rule's safety stay current.
// - THROUGHPUT: the highest level sustained by 0.9 of the estimate (Sabre's EWMA), latency included,
//   capped by the insufficient buffer rule.
// - Abandonment is THROUGHPUT's, in either mode (as in Sabre's DYNAMIC and dash.js's AbandonRequestsRule):
//   after 500 ms, a request that will take more than 1.8 segment durations in all is restarted at the
//   level its own throughput sustains, if that segment is smaller than what is left.
import type { Manifest, PolicyFactory, Progress, SimView } from '../types';
import { createBolaCore, createEstimate, type Estimate, fullBufferWait, levelForThroughput, planned } from './bola-e';

/** BOLA's side of the switch, s (the paper's threshold, in both directions; Sabre's DYNAMIC). */
const SWITCH_BUFFER_S = 10;
/** The share of the estimate THROUGHPUT uses (the paper; Sabre's and dash.js's ThroughputRule). */
const SAFETY = 0.9;
/** The insufficient buffer rule's safety share: 0.9 at first, × 0.9 each decision, down to 0.5 (Sabre). */
const IBR_START = 0.9;
const IBR_FLOOR = 0.5;
/** The abandonment rule waits this long, then drops a request due after this many segment durations
 * (Sabre's ThroughputRule; dash.js's AbandonRequestsRule). */
const ABANDON_GRACE_MS = 500;
const ABANDON_MULTIPLIER = 1.8;

interface ThroughputRule {
  plan(bufferS: number): { level: number; commit(): void };
  abandon(view: SimView, progress: Progress): number;
}

function createThroughputRule(manifest: Manifest, estimate: Estimate): ThroughputRule {
  const kbps = manifest.bitratesKbps;
  const segMs = manifest.segmentS * 1000;
  let ibrSafety = IBR_START;
  return {
    plan(bufferS) {
      const tput = estimate.kbps() ?? 0;
      const latencyMs = estimate.latencyMs();
      let level = tput > 0 ? levelForThroughput(manifest, tput * SAFETY, latencyMs) : 0;
      // No level whose segment, at the safety share of the estimate, outlasts the buffer.
      const safeBits = ibrSafety * (bufferS * 1000 - latencyMs) * tput;
      for (let q = 0; q < level; q++) {
        if (kbps[q + 1]! * segMs > safeBits) {
          level = q;
          break;
        }
      }
      return { level, commit: () => void (ibrSafety = Math.max(IBR_FLOOR, ibrSafety * IBR_START)) };
    },
    abandon(view, p) {
      if (p.firstByteMs === undefined) return -1;
      const elapsedMs = view.nowMs - p.startMs;
      const flowingMs = view.nowMs - p.firstByteMs;
      if (elapsedMs < ABANDON_GRACE_MS || flowingMs <= 0 || p.bitsLoaded <= 0) return -1;
      const bitsPerMs = p.bitsLoaded / flowingMs;
      const left = p.bitsTotal - p.bitsLoaded;
      if (elapsedMs + left / bitsPerMs <= ABANDON_MULTIPLIER * segMs) return -1;
      const level = levelForThroughput(manifest, bitsPerMs * SAFETY, estimate.latencyMs());
      const size = (p.bitsTotal * kbps[level]!) / kbps[p.level]!;
      return level < p.level && size < left ? level : -1;
    },
  };
}

export const dynamic: PolicyFactory = (manifest) => {
  const estimate = createEstimate(manifest.segmentS);
  const bola = createBolaCore(manifest, estimate);
  const rule = createThroughputRule(manifest, estimate);
  let useBola = false;
  let abandonedTo: number | undefined;
  const glue = planned((view) => {
    // Sabre asks the rules from the second segment on; the first is the lowest level.
    if (view.index === 0 && view.lastLevel < 0) return { index: view.index, level: 0, targetS: Infinity, commit: () => {} };
    const { bufferS, waitedS } = fullBufferWait(view);
    const b = bola.plan(bufferS, waitedS);
    const t = rule.plan(bufferS);
    let next = useBola;
    if (useBola && bufferS < SWITCH_BUFFER_S && b.level < t.level) next = false;
    else if (!useBola && bufferS > SWITCH_BUFFER_S && b.level >= t.level) next = true;
    const chosen = next ? b : { level: t.level, waitS: 0 };
    return {
      index: view.index,
      level: chosen.level,
      targetS: bufferS - chosen.waitS,
      commit: () => {
        b.commit();
        t.commit();
        useBola = next;
      },
    };
  });
  return {
    choose: glue.choose,
    bufferTargetS: glue.bufferTargetS,
    abandon(view, progress) {
      // Nothing is buffered yet to weigh the first segment against: Sabre lets it finish.
      if (view.lastLevel < 0) return -1;
      const to = rule.abandon(view, progress);
      if (to >= 0) abandonedTo = to;
      return to;
    },
    onDownload(view, d) {
      // A failed request tells nothing; one dropped by a seek is followed by a new start (onSeek).
      if (d.failed || (d.abandoned && abandonedTo === undefined)) return;
      bola.onDownload(view, d.level, d.abandoned ? abandonedTo : undefined, d.endMs - d.startMs);
      if (!d.abandoned && d.endMs > d.firstByteMs) estimate.push(d.endMs - d.firstByteMs, d.bits / (d.endMs - d.firstByteMs), d.firstByteMs - d.startMs);
      if (d.abandoned) abandonedTo = undefined;
    },
    onSeek() {
      // After a seek the buffer is empty again: back to THROUGHPUT, and BOLA to its start.
      bola.onSeek();
      useBola = false;
      glue.reset();
    },
  };
};
