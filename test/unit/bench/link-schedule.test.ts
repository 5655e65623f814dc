// One direction of the emulated link against a small known trace: exactly when queued bytes leave.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLinkQueue, type Departure } from '../../../bench/link-schedule';
import { parseTrace } from '../../../bench/link-trace';

// Two packets at 2 ms, one at 5, one at 10; then again from 10: 12, 12, 15, 20, 22, …
const TRACE = parseTrace('2\n2\n5\n10\n');
const rows = (departures: Departure<string>[]) => departures.map((d) => `${d.item}[${d.start},${d.end})@${d.at}`);

test('bytes leave 1500 to an opportunity, at the times the trace lists, a repeated ms carrying several', () => {
  const q = createLinkQueue<string>(TRACE, 0);
  q.enqueue(0, 1, 'a', 4000);
  assert.is(q.nextDepartureAt(), 2);
  assert.is(q.queuedBytes(1), 4000);
  assert.equal(rows(q.drain(4)), ['a[0,1500)@2', 'a[1500,3000)@2']);
  assert.is(q.queuedBytes(1), 1000);
  assert.is(q.nextDepartureAt(), 5);
  assert.equal(rows(q.drain(5)), ['a[3000,4000)@5']);
  assert.is(q.nextDepartureAt(), undefined);
  assert.is(q.queuedBytes(1), 0);
});

test('the trace wraps with its last time as the period', () => {
  const q = createLinkQueue<string>(TRACE, 0);
  q.enqueue(0, 1, 'a', 9000);
  assert.equal(
    q.drain(1000).map((d) => d.at),
    [2, 2, 5, 10, 12, 12],
  );
  q.enqueue(31, 1, 'b', 1);
  assert.equal(rows(q.drain(1000)), ['b[0,1)@32']);
});

test('an offset starts the link that far into the trace, modulo its period', () => {
  for (const offset of [4, 14, 104]) {
    const q = createLinkQueue<string>(TRACE, offset);
    q.enqueue(0, 1, 'a', 4500);
    assert.equal(
      q.drain(1000).map((d) => d.at),
      [1, 6, 8],
      `offset ${offset}`,
    );
  }
  // At an offset on an opportunity, that opportunity is the link's first.
  const q = createLinkQueue<string>(TRACE, 5);
  q.enqueue(0, 1, 'a', 1);
  assert.equal(rows(q.drain(0)), ['a[0,1)@0']);
});

test('opportunities that find the queue empty are lost, and so is the rest of a packet the queue ran dry in', () => {
  const q = createLinkQueue<string>(TRACE, 0);
  q.enqueue(0, 1, 'a', 100);
  assert.equal(rows(q.drain(2)), ['a[0,100)@2']);
  // The same ms: not the 1400 bytes left of the first packet at 2, but the second one at 2 is there.
  q.enqueue(2, 1, 'b', 1500);
  assert.equal(rows(q.drain(2)), ['b[0,1500)@2']);
  // Idle from 2 to 11: the packets at 5 and 10 went by unused.
  assert.is(q.nextDepartureAt(), undefined);
  assert.equal(rows(q.drain(11)), []);
  q.enqueue(11, 1, 'c', 200);
  assert.is(q.nextDepartureAt(), 12);
  assert.equal(rows(q.drain(12)), ['c[0,200)@12']);
});

test('bytes never leave before they were queued, however late the queue is drained', () => {
  const q = createLinkQueue<string>(TRACE, 0);
  q.enqueue(0, 1, 'a', 1500);
  q.enqueue(6, 2, 'b', 1500);
  q.enqueue(6.5, 2, 'c', 0);
  assert.equal(rows(q.drain(100)), ['a[0,1500)@2', 'b[0,1500)@10', 'c[0,0)@12']);
});

test('two flows, each with a window queued at most, share the link evenly; a late small request waits behind a window of each', () => {
  // One packet a ms. Flows A and B each have 15000 bytes to send and may queue 3000 at a time.
  const q = createLinkQueue<string>(parseTrace('1\n'), 0);
  const window = 3000;
  const left = new Map([
    [1, 15_000],
    [2, 15_000],
  ]);
  const sent = new Map([
    [1, 0],
    [2, 0],
  ]);
  const feed = (now: number) => {
    for (const [flow, bytes] of left) {
      const n = Math.min(bytes, window - q.queuedBytes(flow));
      if (n > 0) q.enqueue(now, flow, flow === 1 ? 'A' : 'B', n);
      left.set(flow, bytes - n);
    }
  };
  const last = new Map<string, number>();
  let requestAt: number | undefined;
  feed(0);
  for (let now = q.nextDepartureAt(); now !== undefined; now = q.nextDepartureAt()) {
    for (const d of q.drain(now)) {
      if (d.item === 'R') requestAt = d.at;
      else {
        last.set(d.item, d.at);
        sent.set(d.item === 'A' ? 1 : 2, sent.get(d.item === 'A' ? 1 : 2)! + d.end - d.start);
      }
    }
    assert.ok(Math.abs(sent.get(1)! - sent.get(2)!) <= window, `at ${now}: ${[...sent.values()]}`);
    if (now === 5) q.enqueue(5, 3, 'R', 100);
    feed(now);
  }
  assert.is(sent.get(1), 15_000);
  assert.is(sent.get(2), 15_000);
  // Neither response waits for the other to end (whole responses in turn would finish A at 10): both
  // end within a window of each other and of the 30 100 bytes' last packet (21).
  assert.equal([last.get('A'), last.get('B')].sort(), [19, 21]);
  // Behind the bytes each flow had queued at 5: at most a window each (4 packets, 6 to 9).
  assert.is(requestAt, 9);
});

test.run();
