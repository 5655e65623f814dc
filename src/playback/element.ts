// What the element shows, judged: the provider samples the <video> element on its own timer and hands
// each sample here with its clock's `t` (ms); the rules and their constants are the policy's. One watch
// a source (it outlives an hls.js instance, and needs no levels: the early start has none yet).
import type { Decision } from './decisions';
import { TUNING, type Tuning } from './tuning';

export interface StartSample {
  t: number;
  /** Asked to play (not paused). */
  asked: boolean;
  /** A frame to show (readyState HAVE_CURRENT_DATA or more). */
  frame: boolean;
  /** Seconds buffered ahead of the playhead. */
  aheadS: number;
}

/**
 * The stuck start: asked to play, `stuckAheadS` buffered ahead and no frame, in every sample for
 * `stuckStartMs` (counted from the last sample that was not: the wait may have begun right after it).
 * `sample` is true once, at the 'stuck' decision; never again for this watch. A sample whose clock is
 * not a number is ignored, one whose clock went back starts the count again, and a buffer that is not
 * a number is nothing buffered.
 */
export function createStartWatch(emit: (d: Decision) => void, tuning: Tuning = TUNING): { sample(s: StartSample): boolean } {
  let since = NaN;
  let done = false;
  return {
    sample({ t, asked, frame, aheadS }) {
      if (done || !Number.isFinite(t)) return false;
      const waiting = asked && !frame && aheadS >= tuning.stuckAheadS;
      if (!waiting || !(t >= since)) since = t;
      if (!waiting || t - since < tuning.stuckStartMs) return false;
      done = true;
      emit({ kind: 'stuck', t, aheadS, waitedMs: t - since, reason: 'no-frame' });
      return true;
    },
  };
}
