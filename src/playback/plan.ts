import type { Tuning } from './tuning';

/** What the level choice weighs: the ladder, the buffer, the link as estimated. */
export interface PlanInput {
  /** Each level's mean bitrate, kb/s, ascending; `allowed[i]` false for a level that may not be chosen. */
  kbps: readonly number[];
  allowed: readonly boolean[];
  segmentS: number;
  bufferS: number;
  /** The level of the segment before (-1: none yet, no switch to pay for). */
  lastLevel: number;
  capacityKbps: number;
  latencyS: number;
  /** No request starts above this much buffered: the plan waits for the buffer to drain to it. */
  targetS: number;
  /** Segments left to plan for (the horizon, or fewer at the end of the film). */
  steps: number;
  /** Seconds of buffer wanted at the horizon's end (tuning.reserveS). */
  reserveS: number;
}

/**
 * The level of the next segment: the first of the level sequences over the horizon that scores best by
 * the viewer's QoE itself (Mb/s played for each second, minus stallWeight for each second of stall,
 * minus switchWeight for each Mb/s of a switch) with the link as estimated, and a buffer short of
 * `reserveS` at the horizon's end counted as stall still to come (reserveWeight of it): the estimate
 * is a guess, and the seconds past the horizon are the viewer's too. The lowest allowed level when none is.
 */
export function planLevel(input: PlanInput, tuning: Tuning): number {
  const { kbps, allowed, segmentS, capacityKbps, latencyS, targetS } = input;
  const levels: number[] = [];
  for (let i = 0; i < kbps.length; i++) if (allowed[i]) levels.push(i);
  if (!levels.length) return 0;
  if (!(capacityKbps > 0)) return levels[0];
  const steps = Math.max(1, Math.min(input.steps, tuning.horizon));
  const seconds = levels.map((l) => latencyS + (kbps[l] * segmentS) / capacityKbps);
  const mbps = levels.map((l) => kbps[l] / 1000);
  const lastMbps = input.lastLevel >= 0 && input.lastLevel < kbps.length ? kbps[input.lastLevel] / 1000 : -1;
  let best = -Infinity;
  let bestFirst = 0;
  const walk = (step: number, buffer: number, prev: number, value: number, first: number) => {
    if (step === steps) {
      const short = Math.max(0, input.reserveS - buffer);
      const total = value - tuning.reserveWeight * tuning.stallWeight * short;
      if (total > best) {
        best = total;
        bestFirst = first;
      }
      return;
    }
    const start = Math.min(buffer, targetS);
    for (let i = 0; i < levels.length; i++) {
      const stall = Math.max(0, seconds[i] - start);
      const switchCost = prev >= 0 ? tuning.switchWeight * Math.abs(mbps[i] - prev) : 0;
      const next = value + mbps[i] * segmentS - tuning.stallWeight * stall - switchCost;
      walk(step + 1, Math.max(0, start - seconds[i]) + segmentS, mbps[i], next, step === 0 ? levels[i] : first);
    }
  };
  walk(0, Math.max(0, input.bufferS), lastMbps, 0, levels[0]);
  return bestFirst;
}
