/**
 * What the playback policy decided and why: one typed record per decision, on the bus as
 * `playback:decision` (analytics and the on-call engineer read them; the scenario tests assert on them).
 * `t` is the policy's clock (ms; the page's performance.now(), or the simulator's virtual time).
 */

import type { LoadRetries } from './tuning';

/**
 * - starting: no frame yet; playing: the start is over and nothing stops the playhead; stalled: the buffer ran dry; holding: stalled
 *   with something buffered, kept still until it is worth playing; seeking: the viewer moved the
 *   playhead; failed: no rendition answers (SPEC §8's screen is the caller's).
 */
export type PlaybackState = 'starting' | 'playing' | 'stalled' | 'holding' | 'seeking' | 'failed';

export type Decision =
  | { kind: 'state'; t: number; from: PlaybackState; to: PlaybackState }
  /**
   * The level of the next segment; `reason` 'plan' is the QoE plan, 'start' the first one, 'avoid' a
   * failing rendition skipped. `estimateKbps` is the link's mean rate, `planKbps` what the plan trusted of it.
   */
  | { kind: 'level'; t: number; level: number; from: number; bufferS: number; estimateKbps: number; planKbps: number; reason: 'start' | 'plan' | 'avoid' }
  /** The forward buffer (s) for the level being loaded. */
  | { kind: 'forward'; t: number; level: number; targetS: number }
  /** A segment in flight given up and asked again at `to` (a lower level, or the same one after `idle`). */
  | { kind: 'abandon'; t: number; from: number; to: number; reason: 'slow' | 'idle' }
  /** A rendition whose playlist or segment failed, avoided until `untilT`. */
  | { kind: 'avoid'; t: number; level: number; untilT: number }
  | { kind: 'hold'; t: number; bufferS: number }
  | { kind: 'resume'; t: number; bufferS: number; heldS: number; reason: 'landing' | 'bound' }
  | { kind: 'fail'; t: number; reason: 'idle' | 'all-failed' }
  /** A start asked to play, `aheadS` buffered, that has shown no frame for `waitedMs`: its media is loaded again. */
  | { kind: 'stuck'; t: number; aheadS: number; waitedMs: number; reason: 'no-frame' }
  /** The loads' retries from now on: playback's, once the start has its first frame. */
  | { kind: 'retries'; t: number; retries: LoadRetries; reason: 'first-frame' }
  /** A period whose `dropped` frames were more than dropShare of its `decoded` ones: reported, not acted on. */
  | { kind: 'drops'; t: number; dropped: number; decoded: number; reason: 'share' };
