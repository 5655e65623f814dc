// providers/stuck-start.ts: the element sampled for the policy's rule (playback/element.ts) on a virtual
// clock: the 'stuck' decision handed on, then `stuck` called once; a stopped watch does nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Decision } from '../../../src/playback/decisions';
import { watchStuckStart } from '../../../src/providers/stuck-start';
import { intervals } from '../fakes';

/** A stuck-start watch on an element asked to play, 4 s ahead, no frame: its decisions and its calls of `stuck`. */
function watchedStart() {
  const video = { paused: false, readyState: 1 };
  const seen = { video, decisions: [] as Decision[], calls: 0 };
  watchStuckStart(video, () => 4, (d) => seen.decisions.push(d), () => seen.calls++);
  return seen;
}

test('asked to play, 4 s ahead, no frame: the decision at 3 s of samples, the recovery once, the watch stopped', () => {
  const clock = intervals();
  try {
    const watch = watchedStart();
    clock.advance(20000);
    assert.is(watch.calls, 1);
    assert.equal(watch.decisions, [{ kind: 'stuck', t: 3500, aheadS: 4, waitedMs: 3000, reason: 'no-frame' }]);
    assert.is(clock.pending(), 0, 'the watch stops itself');
  } finally {
    clock.restore();
  }
});

test('a pause resets the count; a frame never stuck; a stopped watch never calls', () => {
  const clock = intervals();
  try {
    const video = { paused: false, readyState: 1 };
    let calls = 0;
    const stop = watchStuckStart(video, () => 4, () => {}, () => calls++);
    clock.advance(2600);
    video.paused = true;
    clock.advance(500);
    video.paused = false;
    clock.advance(2600);
    assert.is(calls, 0, 'the pause reset it');
    video.readyState = 2;
    clock.advance(10000);
    assert.is(calls, 0, 'a frame');
    video.readyState = 1;
    stop();
    clock.advance(10000);
    assert.is(calls, 0, 'stopped');
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test('a freeze longer than the rule, the frame queued behind the late sample: not stuck; nothing after it: stuck, a period on', () => {
  const clock = intervals();
  try {
    const framed = watchedStart();
    clock.advance(1000);
    // The page does not run for 5 s (WebKitGTK tearing a source down); the late sample runs first.
    clock.freeze(5000);
    clock.advance(0);
    assert.is(framed.calls, 0, 'the late sample judges nothing');
    framed.video.readyState = 2;
    clock.advance(10000);
    assert.is(framed.calls, 0, 'the frame came meanwhile');
    assert.equal(framed.decisions, []);

    const still = watchedStart();
    clock.advance(1000);
    clock.freeze(5000);
    clock.advance(0);
    assert.is(still.calls, 0);
    clock.advance(500);
    assert.is(still.calls, 1, 'no frame after the freeze either: stuck at the next sample');
    assert.is(still.decisions[0]?.kind, 'stuck');
  } finally {
    clock.restore();
  }
});

test.run();
