// providers/buffer-aware-abr.ts: no step up until 10 s are buffered ahead; steps down and the first level pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ahead, gated } from '../../../src/providers/buffer-aware-abr';

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

test.run();
