// providers/buffer-aware-abr.ts: no step up until 10 s are buffered ahead; steps down and the first level pass;
// the level the buffer allows.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ahead, bufferCap, gated } from '../../../src/providers/buffer-aware-abr';

const ranges = (...r: Array<[number, number]>) => ({ length: r.length, start: (i: number) => r[i][0], end: (i: number) => r[i][1] }) as TimeRanges;

test('a step up waits for 10 s ahead; at 10 s it goes', () => {
  assert.is(gated(3, 1, 9.9), 1);
  assert.is(gated(3, 1, 10), 3);
  assert.is(gated(2, 1, 0), 1);
});

test('a step down, the same level, and the first choice (nothing loaded yet) are never held', () => {
  assert.is(gated(0, 2, 1), 0);
  assert.is(gated(2, 2, 1), 2);
  assert.is(gated(4, -1, 0), 4);
});

test('ahead: the range the playhead is in (0.5 s of slack before it), nothing when it is in a hole or none', () => {
  assert.is(ahead({ currentTime: 12, buffered: ranges([0, 4], [10, 30]) }), 18);
  assert.is(ahead({ currentTime: 9.6, buffered: ranges([10, 30]) }), 20.4);
  assert.is(ahead({ currentTime: 5, buffered: ranges([0, 4], [10, 30]) }), 0);
  assert.is(ahead({ currentTime: 30, buffered: ranges([10, 30]) }), 0);
  assert.is(ahead({ currentTime: 0, buffered: ranges() }), 0);
  assert.is(ahead(null), 0);
});

// The ladder's averages (bits/s): 240p … 1080p.
const LADDER = [283e3, 730e3, 1.4e6, 2.7e6, 4.5e6];

test('bufferCap: half the estimate with nothing ahead, nine tenths from 30 s on, in between by the buffer', () => {
  assert.is(bufferCap(LADDER, 2e6, 0), 1, '1 Mb/s to spend: 730k');
  assert.is(bufferCap(LADDER, 2e6, 30), 2, '1.8 Mb/s: 1.4M');
  assert.is(bufferCap(LADDER, 2e6, 120), 2, 'more buffer spends no more than 0.9');
  assert.is(bufferCap(LADDER, 3.2e6, 0), 2, '1.6 Mb/s');
  assert.is(bufferCap(LADDER, 3.2e6, 15), 2, '0.7 × 3.2 = 2.24 Mb/s');
  assert.is(bufferCap(LADDER, 3.2e6, 29), 3, '0.887 × 3.2 = 2.84 Mb/s');
  assert.is(bufferCap(LADDER, 6e6, 30), 4);
});

test('bufferCap: the lowest level when none fits; every level with no estimate; nonsense buffers read as none or full', () => {
  assert.is(bufferCap(LADDER, 1e5, 60), 0);
  assert.is(bufferCap(LADDER, 0, 0), 4);
  assert.is(bufferCap(LADDER, Number.NaN, 0), 4);
  assert.is(bufferCap(LADDER, 2e6, -5), 1);
  assert.is(bufferCap(LADDER, 2e6, Number.POSITIVE_INFINITY), 2);
  assert.is(bufferCap([], 2e6, 10), 0);
  assert.is(bufferCap([500e3], 2e6, 10), 0);
});

test.run();
