// One direction of the emulated link, pure: a queue of byte runs served at the trace's delivery
// opportunities, given the clock from outside (bench/link.ts feeds it timers and sockets; the unit tests
// feed it numbers). Times are link ms: 0 is where the trace was started (`offsetMs` into the trace).
//
// As in mahimahi's link queue: each opportunity carries up to PACKET_BYTES of whatever is queued, in the
// order it was queued (one FIFO, as a base station's per-phone buffer is), byte-granular (a small run
// and the next share a packet); an opportunity that finds the queue empty, or the part of one left
// when the queue runs dry, is lost. How flows share it is decided by what each may queue (the window,
// bench/link.ts), not here.
import { PACKET_BYTES, type Trace } from './link-trace';

/** Bytes [start, end) of a queued item left the link at `at` (link ms), in its last opportunity. */
export interface Departure<T> {
  item: T;
  start: number;
  end: number;
  at: number;
}

export interface LinkQueue<T> {
  /** Queues `bytes` of `item` for `flow` at link time `now`. An item of 0 bytes leaves with the bytes queued before it. */
  enqueue(now: number, flow: number, item: T, bytes: number): void;
  /** Serves every opportunity up to `now`; what left, in order. */
  drain(now: number): Departure<T>[];
  /** Link time of the opportunity the head of the queue waits for; undefined when nothing is queued. */
  nextDepartureAt(): number | undefined;
  /** Bytes `flow` has queued and not yet sent. */
  queuedBytes(flow: number): number;
}

interface Queued<T> {
  /** Link time it was queued: no opportunity before it may carry it. */
  since: number;
  flow: number;
  item: T;
  bytes: number;
  sent: number;
}

/** Index of the first value >= `value` in a non-decreasing array (its length if none). */
export function lowerBound(values: readonly number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The trace's opportunities as absolute indices counted over its repetitions from trace time 0:
 * opportunity `k` is at trace time floor(k / n) * period + times[k % n].
 */
function opportunities(trace: Trace, offsetMs: number) {
  const n = trace.times.length;
  const period = trace.periodMs;
  const offset = ((offsetMs % period) + period) % period;
  /** Link time of opportunity k. */
  const timeOf = (k: number) => Math.floor(k / n) * period + trace.times[k % n]! - offset;
  /** The first opportunity at link time `t` or later. */
  const firstAtOrAfter = (t: number) => {
    const traceTime = t + offset;
    const cycle = Math.floor(traceTime / period);
    return cycle * n + lowerBound(trace.times, traceTime - cycle * period);
  };
  return { timeOf, firstAtOrAfter };
}

export function createLinkQueue<T>(trace: Trace, offsetMs: number): LinkQueue<T> {
  const { timeOf, firstAtOrAfter } = opportunities(trace, offsetMs);
  const queue: Queued<T>[] = [];
  let head = 0;
  const byFlow = new Map<number, number>();
  /** The next opportunity not yet used or lost, and the bytes of it already used. */
  let cursor = firstAtOrAfter(0);
  let usedInCursor = 0;

  const empty = () => head === queue.length;
  const compact = () => {
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
  };
  const nextOpportunity = () => {
    cursor++;
    usedInCursor = 0;
  };

  return {
    enqueue(now, flow, item, bytes) {
      queue.push({ since: now, flow, item, bytes, sent: 0 });
      byFlow.set(flow, (byFlow.get(flow) ?? 0) + bytes);
    },

    drain(now) {
      const out: Departure<T>[] = [];
      while (!empty()) {
        const q = queue[head]!;
        const first = firstAtOrAfter(q.since);
        if (first > cursor) {
          // The queue was empty when it came (or the caller drains late): what was left of the last
          // opportunity, and every one since, went by unused.
          cursor = first;
          usedInCursor = 0;
          continue;
        }
        const at = timeOf(cursor);
        if (at > now) break;
        const take = Math.min(q.bytes - q.sent, PACKET_BYTES - usedInCursor);
        out.push({ item: q.item, start: q.sent, end: q.sent + take, at });
        q.sent += take;
        usedInCursor += take;
        const left = (byFlow.get(q.flow) ?? 0) - take;
        if (left > 0) byFlow.set(q.flow, left);
        else byFlow.delete(q.flow);
        if (q.sent === q.bytes) head++;
        if (usedInCursor === PACKET_BYTES || empty()) nextOpportunity();
      }
      compact();
      return out;
    },

    nextDepartureAt: () => {
      if (empty()) return undefined;
      return timeOf(Math.max(cursor, firstAtOrAfter(queue[head]!.since)));
    },

    queuedBytes: (flow) => byFlow.get(flow) ?? 0,
  };
}
