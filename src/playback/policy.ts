// The playback policy: every decision that shapes what a viewer feels on a bad network, made from one
// stream of observations on one clock (the caller's `t`, ms). Pure: no DOM, no hls.js, no timers. The
// browser drives it through providers/ (hls.js's adapter), the simulator (sim/) in virtual time.
import type { Decision, PlaybackState } from './decisions';
import { createEstimate } from './estimate';
import { planLevel } from './plan';
import { TUNING, type LoadRetries, type Tuning } from './tuning';

export interface PolicyOptions {
  /** Each level's mean bitrate, kb/s, ascending, and the segments' length (s). */
  kbps: readonly number[];
  segmentS: number;
  /** A better first estimate than tuning.startKbps (the page's own downloads), kb/s. */
  estimateKbps?: number;
  tuning?: Partial<Tuning>;
  emit?: (decision: Decision) => void;
}

/** A segment in flight, as the abandon rule and the no-progress deadline weigh it. */
export interface InFlight {
  t: number;
  level: number;
  bitsLoaded: number;
  /** Its size when known (Content-Length), else 0: then its level's mean is assumed. */
  bitsTotal: number;
  requestT: number;
  /** The last byte so far (the request itself while none came). */
  lastByteT: number;
  bufferS: number;
}

/** -1: keep loading; a level: ask the segment again at it; 'fail': nothing answers (SPEC §8). */
export type Verdict = number | 'fail';

export interface Policy {
  state(): PlaybackState;
  /** A segment arrived: its level, bits, and when it was asked, its first byte came and its last. */
  loaded(o: { t: number; level: number; bits: number; requestT: number; firstByteT: number; endT: number }): void;
  /** A rendition's playlist or segment failed (an HTTP error, not a slow link). */
  failed(o: { t: number; level: number }): void;
  /** The element: its first frame in (`frame`), playing (again), a stall, a seek. */
  media(o: { t: number; event: 'frame' | 'playing' | 'stall' | 'seeking' }): void;
  /** The level of the next segment; `steps` are the segments left in the film (the horizon at most). */
  level(o: { t: number; bufferS: number; lastLevel: number; steps?: number; min?: number; max?: number }): number;
  /** Seconds to buffer ahead on `level`. */
  forwardS(level: number): number;
  abandon(o: InFlight): Verdict;
  /**
   * A request the caller's own loader timed out (no byte for idleMs, judged there): the level to ask it
   * again at, the lowest allowed, as abandon() does. The outage budget stays abandon()'s: in the browser
   * the media watchdog owns SPEC §8's screen.
   */
  timedOut(o: { t: number; level: number }): number;
  /**
   * Not playing, with `bufferS` buffered: whether the playhead may move now. `leftBits` are what the
   * segments on their way still lack and `bitsPerS` their rate now, where the caller sees them (else:
   * the next segment at the last level chosen, at the estimate).
   */
  mayPlay(o: { t: number; bufferS: number; leftBits?: number; bitsPerS?: number }): boolean;
  /** The plain estimate, kb/s (analytics' network figure). */
  estimateKbps(): number;
}

/** The loads' retries before the start's first frame and after it (the 'retries' decision is the switch). */
export const retriesFor = (started: boolean, tuning: Tuning = TUNING): LoadRetries => (started ? tuning.playRetries : tuning.startRetries);

export function createPolicy(options: PolicyOptions): Policy {
  const tuning: Tuning = { ...TUNING, ...options.tuning };
  const { kbps, segmentS } = options;
  const emit = options.emit ?? (() => {});
  const estimate = createEstimate(tuning.samples, options.estimateKbps ?? tuning.startKbps, tuning.errorWeight, tuning.priorError, tuning.errorCap);
  const avoidUntil = kbps.map(() => -Infinity);
  let current: PlaybackState = 'starting';
  let lastChoice = -1;
  let lastForward = -1;
  let stallT = 0;
  let holdT = -1;
  let started = false;
  /** When the picture started: the first frame, or playing after a seek (-1: not yet, or seeking). */
  let pictureT = -1;
  /** When the last byte of anything came (the outage budget counts from it). */
  let heardT = -Infinity;

  const move = (t: number, to: PlaybackState) => {
    if (to === current || current === 'failed') return;
    emit({ kind: 'state', t, from: current, to });
    current = to;
  };
  const allowed = (t: number, min = 0, max = kbps.length - 1) => kbps.map((_, i) => i >= min && i <= max && avoidUntil[i] <= t);
  const forwardS = (level: number) => {
    const bits = kbps[Math.max(0, Math.min(level, kbps.length - 1))] * 1000;
    return Math.min(tuning.forwardMaxS, Math.max(tuning.forwardMinS, bits > 0 ? (8 * tuning.forwardBytes) / bits : tuning.forwardMaxS));
  };
  const reserveS = (t: number) =>
    Math.min(forwardS(kbps.length - 1), pictureT >= 0 && t - pictureT >= tuning.earlyS * 1000 ? tuning.reserveS : tuning.earlyReserveS);
  const segmentBits = (level: number) => kbps[level] * 1000 * segmentS;
  const askAgain = (t: number, level: number) => {
    const to = Math.max(0, allowed(t).indexOf(true));
    emit({ kind: 'abandon', t, from: level, to, reason: 'idle' });
    return to;
  };

  return {
    state: () => current,
    estimateKbps: () => estimate.meanKbps(),
    forwardS,

    loaded({ t, level, bits, requestT, firstByteT, endT }) {
      estimate.sample(bits, endT - firstByteT, firstByteT - requestT);
      heardT = Math.max(heardT, endT);
      if (avoidUntil[level] > t) avoidUntil[level] = -Infinity;
      const target = forwardS(level);
      if (level !== lastForward) emit({ kind: 'forward', t, level, targetS: target });
      lastForward = level;
    },

    failed({ t, level }) {
      if (level < 0 || level >= kbps.length || current === 'failed') return;
      avoidUntil[level] = t + tuning.avoidMs;
      emit({ kind: 'avoid', t, level, untilT: avoidUntil[level] });
      if (avoidUntil.every((until) => until > t)) {
        emit({ kind: 'fail', t, reason: 'all-failed' });
        move(t, 'failed');
      }
    },

    media({ t, event }) {
      if ((event === 'frame' || event === 'playing') && !started && current !== 'failed') {
        started = true;
        emit({ kind: 'retries', t, retries: retriesFor(true, tuning), reason: 'first-frame' });
      }
      if (event === 'seeking') pictureT = -1;
      else if ((event === 'frame' || event === 'playing') && pictureT < 0) pictureT = t;
      if (event === 'frame') {
        if (current === 'starting') move(t, 'playing');
      } else if (event === 'playing') {
        holdT = -1;
        move(t, 'playing');
      } else if (event === 'seeking') move(t, 'seeking');
      else if (current === 'playing') {
        stallT = t;
        move(t, 'stalled');
      }
    },

    level({ t, bufferS, lastLevel, steps = tuning.horizon, min, max }) {
      const mask = allowed(t, min, max);
      const avoiding = mask.some((ok, i) => !ok && (min ?? 0) <= i && i <= (max ?? kbps.length - 1));
      const level = planLevel(
        { kbps, allowed: mask, segmentS, bufferS, lastLevel, capacityKbps: estimate.kbps(), latencyS: estimate.latencyS(), targetS: forwardS(lastLevel), steps, reserveS: reserveS(t) },
        tuning,
      );
      if (level !== lastChoice) {
        const reason = avoiding && level !== lastLevel ? 'avoid' : lastChoice < 0 ? 'start' : 'plan';
        emit({ kind: 'level', t, level, from: lastChoice, bufferS, estimateKbps: estimate.meanKbps(), planKbps: estimate.kbps(), reason });
      }
      lastChoice = level;
      return level;
    },

    abandon({ t, level, bitsLoaded, bitsTotal, requestT, lastByteT, bufferS }) {
      if (bitsLoaded > 0) heardT = Math.max(heardT, lastByteT);
      const starting = current === 'starting';
      if (t - lastByteT >= (starting ? tuning.startIdleMs : tuning.idleMs)) {
        if (heardT === -Infinity) heardT = lastByteT;
        // A film still playing from its buffer is not failed however long the link is out: the
        // budget runs once it has stalled (from its last byte, or from idleMs before the stall).
        const stalled = current === 'stalled' || current === 'holding';
        if (starting || (stalled && t - Math.max(heardT, stallT - tuning.idleMs) >= tuning.outageMs)) {
          emit({ kind: 'fail', t, reason: 'idle' });
          move(t, 'failed');
          return 'fail';
        }
        return askAgain(t, level);
      }
      const streamingMs = lastByteT - requestT;
      if (level <= 0 || !(bitsLoaded > 0) || streamingMs < tuning.abandonAfterMs) return -1;
      const rate = bitsLoaded / (t - requestT);
      const total = bitsTotal > bitsLoaded ? bitsTotal : Math.max(bitsLoaded, segmentBits(level));
      const rest = total - bitsLoaded;
      // Only a segment that will not land before the buffer runs out is worth its lost bytes.
      if (!(rest / rate > bufferS * 1000)) return -1;
      const weight = total / segmentBits(level);
      const mask = allowed(t);
      for (let i = level - 1; i >= 0; i--) {
        if (!mask[i]) continue;
        const bits = weight * segmentBits(i);
        const fits = bits / rate <= bufferS * 1000;
        if (fits || (i === mask.indexOf(true) && bits < tuning.restartShare * rest)) {
          emit({ kind: 'abandon', t, from: level, to: i, reason: 'slow' });
          return i;
        }
      }
      return -1;
    },

    timedOut: ({ t, level }) => askAgain(t, level),

    mayPlay({ t, bufferS, leftBits, bitsPerS }) {
      if (current === 'failed') return false;
      if (current !== 'stalled' && current !== 'holding') return true;
      const first = holdT < 0;
      if (first) holdT = t;
      const heldS = (t - holdT) / 1000;
      const boundS = Math.min(tuning.holdMaxS, tuning.holdShare * ((holdT - stallT) / 1000));
      const left = leftBits ?? segmentBits(lastChoice >= 0 ? lastChoice : 0);
      const rate = bitsPerS ?? estimate.kbps() * 1000;
      // Written so that a rate or buffer that is not a number holds (within the bound) rather than plays.
      const lands = !(left > 0) || left < rate * tuning.landsShare * Math.max(0, bufferS);
      const reason = lands ? 'landing' : !(heldS < boundS) ? 'bound' : undefined;
      if (reason) {
        emit({ kind: 'resume', t, bufferS, heldS, reason });
        holdT = -1;
        return true;
      }
      if (first) {
        emit({ kind: 'hold', t, bufferS });
        move(t, 'holding');
      }
      return false;
    },
  };
}
