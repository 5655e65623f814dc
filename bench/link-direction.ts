// The socket side of one direction of the emulated link (bench/link.ts): the direction's queue
// (bench/link-schedule.ts) served by timers at the trace's opportunities, its delay line to the far
// end, and each connection's sender that feeds it one window at a time. Timers: one per direction for
// the next opportunity and one for the next arrival; each serves everything due by the time it runs
// (the packets of one ms, or of a late wake-up, in one batch) at the times the trace gave them.
import type net from 'node:net';
import type { Trace } from './link-trace';
import { createLinkQueue, lowerBound } from './link-schedule';

export interface Item {
  flow: number;
  /** Payload; none for a handshake packet or a FIN. */
  data?: Buffer;
  bytes: number;
  /** Called as each piece arrives at the far end (`last` once all of the item has). */
  arrived(piece: Buffer | undefined, last: boolean): void;
}

export interface Direction {
  send(flow: number, item: Item): void;
  queuedBytes(flow: number): number;
  carried(): number;
  /** Payload bytes that had reached the far end by `ms` on the link's clock (to the arrival step's 10 ms). */
  arrivedBy(ms: number): number;
  stop(): void;
}

const ARRIVAL_STEP_MS = 10;

/** One direction: its queue served at the trace's opportunities, then the delay line to the far end. */
export function createDirection(trace: Trace, offsetMs: number, delayMs: number, clock: () => number, onRoom: (flow: number) => void): Direction {
  const queue = createLinkQueue<Item>(trace, offsetMs);
  const line: { at: number; item: Item; piece: Buffer | undefined; last: boolean }[] = [];
  let carried = 0;
  // When payload reached the far end: one step per ARRIVAL_STEP_MS at most (the bytes in by its end), so
  // a 20-minute watch keeps ~120,000 of them, not one per packet.
  const arrivedAt: number[] = [];
  const arrivedTotal: number[] = [];
  let arrivedBytes = 0;
  let serveTimer: NodeJS.Timeout | undefined;
  let serveAt = Infinity;
  let arriveTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  const wake = (at: number, run: () => void) => setTimeout(run, Math.max(0, Math.ceil(at - clock())));

  const scheduleServe = () => {
    const next = queue.nextDepartureAt();
    if (stopped || next === undefined || next >= serveAt) return;
    clearTimeout(serveTimer);
    serveAt = next;
    serveTimer = wake(next, serve);
  };
  const scheduleArrive = () => {
    if (stopped || arriveTimer || line.length === 0) return;
    arriveTimer = wake(line[0]!.at, arrive);
  };

  function serve() {
    serveTimer = undefined;
    serveAt = Infinity;
    const touched = new Set<number>();
    for (const d of queue.drain(clock())) {
      const piece = d.item.data?.subarray(d.start, d.end);
      carried += piece?.length ?? 0;
      line.push({ at: d.at + delayMs, item: d.item, piece, last: d.end === d.item.bytes });
      touched.add(d.item.flow);
    }
    scheduleArrive();
    for (const flow of touched) onRoom(flow);
    scheduleServe();
  }

  function arrive() {
    arriveTimer = undefined;
    const now = clock();
    let n = 0;
    while (n < line.length && line[n]!.at <= now) n++;
    for (const a of line.splice(0, n)) {
      arrivedBytes += a.piece?.length ?? 0;
      a.item.arrived(a.piece, a.last);
    }
    if (n > 0) {
      const last = arrivedAt.length - 1;
      if (last >= 0 && now - arrivedAt[last]! < ARRIVAL_STEP_MS) arrivedTotal[last] = arrivedBytes;
      else {
        arrivedAt.push(now);
        arrivedTotal.push(arrivedBytes);
      }
    }
    scheduleArrive();
  }

  return {
    send(flow, item) {
      if (stopped) return;
      queue.enqueue(clock(), flow, item, item.bytes);
      scheduleServe();
    },
    queuedBytes: (flow) => queue.queuedBytes(flow),
    carried: () => carried,
    arrivedBy(ms) {
      // The steps are at least ARRIVAL_STEP_MS apart: at most one is at `ms` itself, and it counts.
      let steps = lowerBound(arrivedAt, ms);
      if (arrivedAt[steps] === ms) steps++;
      return steps === 0 ? 0 : arrivedTotal[steps - 1]!;
    },
    stop() {
      stopped = true;
      clearTimeout(serveTimer);
      clearTimeout(arriveTimer);
    },
  };
}

/**
 * What one side of a connection writes, fed into a direction at most `windowBytes` queued at a time;
 * the rest waits here, and `source` is paused while that is more than a window too. Its end becomes a
 * FIN that arrives after its last byte.
 */
export function createSender(direction: Direction, flow: number, source: net.Socket, target: net.Socket, windowBytes: number) {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let ended = false;
  let finSent = false;

  const feed = () => {
    let room = windowBytes - direction.queuedBytes(flow);
    while (room > 0 && pending.length > 0) {
      const head = pending[0]!;
      const data = head.length <= room ? head : head.subarray(0, room);
      if (data === head) pending.shift();
      else pending[0] = head.subarray(room);
      pendingBytes -= data.length;
      room -= data.length;
      direction.send(flow, { flow, data, bytes: data.length, arrived: (piece) => piece && !target.destroyed && target.write(piece) });
    }
    if (ended && !finSent && pending.length === 0) {
      finSent = true;
      direction.send(flow, { flow, bytes: 0, arrived: () => !target.destroyed && target.end() });
    }
    if (pendingBytes < windowBytes && source.isPaused() && !ended) source.resume();
  };

  source.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= windowBytes) source.pause();
    feed();
  });
  source.on('end', () => {
    ended = true;
    feed();
  });
  return { feed, start: () => source.resume() };
}
