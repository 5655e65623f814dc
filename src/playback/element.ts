// What the element shows, judged: the provider samples the <video> element on its own timer and hands
// each sample here with its clock's `t` (ms); the rules and their constants are the policy's. One watch
// a source (it outlives an hls.js instance, and needs no levels: the early start has none yet): the
// stuck start and the frames dropped.
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

/** The element's frame counters so far (getVideoPlaybackQuality). */
export interface FramesSample {
  t: number;
  dropped: number;
  decoded: number;
}

export type Drops = Extract<Decision, { kind: 'drops' }>;

/**
 * The frames dropped: each sample is weighed against the one before (the provider samples every
 * dropPeriodMs), and a period that dropped more than dropShare of what it decoded is the 'drops'
 * decision. The first sample is only the baseline; counters that went back (a new media element's)
 * or are not numbers decide nothing, and the next sample is weighed against them.
 */
export function createDropWatch(emit: (d: Drops) => void, tuning: Tuning = TUNING): { sample(s: FramesSample): void } {
  let last: FramesSample | undefined;
  return {
    sample(now) {
      const before = last;
      last = now;
      if (!before) return;
      const dropped = now.dropped - before.dropped;
      const decoded = now.decoded - before.decoded;
      if (decoded > 0 && dropped > tuning.dropShare * decoded) emit({ kind: 'drops', t: now.t, dropped, decoded, reason: 'share' });
    },
  };
}
