import { IDLE_MS, OUTAGE_MS, START_IDLE_MS } from './deadlines';

/** One kind of load's retries: of a request timed out (no byte for idleMs), of an HTTP error, and the delay before each error's retry (ms, doubling up to maxDelayMs). */
export interface Retry {
  timeouts: number;
  errors: number;
  delayMs: number;
  maxDelayMs: number;
}
/** The retries of the master playlist, the media playlists and the fragments. */
export interface LoadRetries {
  manifest: Retry;
  playlist: Retry;
  fragment: Retry;
}

/**
 * Every constant of the playback policy (policy.ts). docs/playback.md "Tuning" gives each its reason
 * and the simulation (`npm run sim`) that chose it; change one here and the table there together.
 */
export interface Tuning {
  /** Segments the level choice looks ahead (the plan enumerates every level sequence this long). */
  horizon: number;
  /** Throughput samples the estimate keeps (harmonic mean) and judges its own error over. */
  samples: number;
  /** How much of its worst recent miss the estimate is discounted by (1: robust MPC's whole error). */
  errorWeight: number;
  /** The miss the estimate counts before it has made one (1: as if it had just been off by 100 %). */
  priorError: number;
  /** A miss counts at most this much (2 at weight 0.5: the plan trusts at least half the mean, which already carries the dips). */
  errorCap: number;
  /** Seconds of stall that cost as much as one second of 1 Mb/s more: the QoE's own weight. */
  stallWeight: number;
  /** The cost of a switch per Mb/s of change: the QoE's own weight. */
  switchWeight: number;
  /**
   * Seconds of buffer the plan wants left at the end of its horizon, at the cost of stall seconds short
   * of it: earlyReserveS for the first earlyS after the picture starts (the first frame, or playing
   * after a seek), while the buffer is still being built; reserveS from then on. Never more than the top
   * level's forward buffer holds (forwardS), which a plan could not otherwise spend.
   */
  reserveS: number;
  earlyReserveS: number;
  earlyS: number;
  /** How much of the reserve the plan counts as owed while the buffer is still below it. */
  reserveWeight: number;
  /** The estimate before any sample, kb/s (the page's own downloads give a better one when it has them). */
  startKbps: number;
  /** The forward buffer: seconds ahead at most, and at least, and the bytes that decide between. */
  forwardMaxS: number;
  forwardMinS: number;
  forwardBytes: number;
  /** An in-flight segment is judged only after this long since its first byte (a rate needs time). */
  abandonAfterMs: number;
  /** A lower level is taken when its whole segment weighs less than this share of what is left of the one in flight. */
  restartShare: number;
  /**
   * A request with no byte for idleMs is asked again, at the lowest level; once nothing at all has come
   * for outageMs the session fails (a tunnel is waited for, a dead server is not). Before the first
   * frame the start fails after startIdleMs without a byte (deadlines.ts).
   */
  idleMs: number;
  outageMs: number;
  startIdleMs: number;
  /**
   * After a stall, the film plays once the segments on their way would land before landsShare of what
   * is buffered has played (else it would stop again in a few seconds); it is held at most holdShare of
   * the stall before, and never more than holdMaxS: a stall grows by half at the most.
   */
  landsShare: number;
  holdShare: number;
  holdMaxS: number;
  /** A rendition that failed is avoided for this long (a 404 is not retried at every segment). */
  avoidMs: number;
  /**
   * A start asked to play with stuckAheadS buffered ahead and no frame for stuckStartMs is stuck: the
   * engine keeps it from its first frame (WebKitGTK under load stays at HAVE_METADATA), and the
   * browser's media watchdog would end it on SPEC §8's screen at startIdleMs.
   */
  stuckStartMs: number;
  stuckAheadS: number;
  /**
   * Until the first frame a failure that persists reaches SPEC §8's screen quickly: errors are retried
   * once or twice (startRetries); from the first frame on, as hls.js's own (playRetries).
   */
  startRetries: LoadRetries;
  playRetries: LoadRetries;
  /**
   * A period of dropPeriodMs in which more than dropShare of the decoded frames was dropped is
   * reported (analytics' fps_drop; hls.js's own measure), never acted on: a moment of load is not a
   * device that cannot decode.
   */
  dropShare: number;
  dropPeriodMs: number;
}

export const TUNING: Tuning = {
  horizon: 5,
  samples: 5,
  errorWeight: 0.5,
  priorError: 1,
  errorCap: 2,
  stallWeight: 4.3,
  switchWeight: 1,
  reserveS: 40,
  earlyReserveS: 30,
  earlyS: 60,
  reserveWeight: 0.5,
  startKbps: 500,
  forwardMaxS: 120,
  forwardMinS: 30,
  forwardBytes: 45e6,
  abandonAfterMs: 1000,
  restartShare: 0.8,
  idleMs: IDLE_MS,
  outageMs: OUTAGE_MS,
  startIdleMs: START_IDLE_MS,
  landsShare: 0.5,
  holdShare: 0.5,
  holdMaxS: 4,
  avoidMs: 60000,
  stuckStartMs: 3000,
  stuckAheadS: 1,
  startRetries: {
    manifest: { timeouts: 1, errors: 1, delayMs: 500, maxDelayMs: 1000 },
    playlist: { timeouts: 1, errors: 1, delayMs: 500, maxDelayMs: 1000 },
    fragment: { timeouts: 1, errors: 2, delayMs: 500, maxDelayMs: 1000 },
  },
  playRetries: {
    manifest: { timeouts: 2, errors: 1, delayMs: 1000, maxDelayMs: 8000 },
    playlist: { timeouts: 2, errors: 2, delayMs: 1000, maxDelayMs: 8000 },
    fragment: { timeouts: 2, errors: 3, delayMs: 1000, maxDelayMs: 4000 },
  },
  dropShare: 0.2,
  dropPeriodMs: 5000,
};
