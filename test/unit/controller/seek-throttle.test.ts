import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SEEK_THROTTLE_MS, createSeekThrottle } from '../../../src/controller/seek-throttle';
import { fakeClock } from '../fakes';

/** A throttle on a fake clock (its timers too); `seeks` is what reached the media. */
function setup() {
  const clock = fakeClock().install();
  const seeks: number[] = [];
  const t = createSeekThrottle((to) => seeks.push(to), clock.now);
  return { clock, seeks, t, done: () => (t.dispose(), clock.restore()) };
}

test('SPEC §9: 100 ms', () => assert.is(SEEK_THROTTLE_MS, 100));

test('the first seek goes at once; the last of a burst follows 100 ms after it, the others never', () => {
  const s = setup();
  try {
    s.t.request(10);
    assert.equal(s.seeks, [10], 'at once');
    s.clock.advance(20);
    s.t.request(20);
    s.clock.advance(20);
    s.t.request(30);
    assert.equal(s.seeks, [10]);
    s.clock.advance(59);
    assert.equal(s.seeks, [10], 'not before 100 ms after the first');
    s.clock.advance(1);
    assert.equal(s.seeks, [10, 30], 'the last of the burst');
    s.clock.advance(1000);
    assert.equal(s.seeks, [10, 30], 'nothing more');
    assert.is(s.clock.pending(), 0);
  } finally {
    s.done();
  }
});

test('a seek 100 ms or more after the last one goes at once', () => {
  const s = setup();
  try {
    s.t.request(10);
    s.clock.advance(100);
    s.t.request(20);
    assert.equal(s.seeks, [10, 20]);
    s.clock.advance(30);
    s.t.request(25);
    s.clock.advance(69);
    assert.equal(s.seeks, [10, 20]);
    s.clock.advance(1);
    assert.equal(s.seeks, [10, 20, 25], 'counted from the last seek that went, not from the request');
  } finally {
    s.done();
  }
});

test('seekBy adds up from the pending target, so no key press is lost; from the current time when none waits', () => {
  const s = setup();
  try {
    s.t.by(10, 100);
    assert.equal(s.seeks, [110], 'from the current time');
    s.t.by(10, 110);
    s.t.by(10, 110);
    s.t.by(-5, 110);
    s.clock.advance(100);
    assert.equal(s.seeks, [110, 125], 'three presses on top of the waiting target');
    s.clock.advance(100);
    s.t.by(10, 125);
    assert.equal(s.seeks, [110, 125, 135]);
  } finally {
    s.done();
  }
});

test('not a number: ignored, and it does not replace the pending target', () => {
  const s = setup();
  try {
    s.t.request(Number.NaN);
    s.t.request(Number.POSITIVE_INFINITY);
    assert.equal(s.seeks, []);
    s.t.request(5);
    s.t.request(7);
    s.t.request(Number.NaN);
    s.clock.advance(100);
    assert.equal(s.seeks, [5, 7]);
  } finally {
    s.done();
  }
});

test('cancel drops the waiting seek (it belonged to the old source); dispose stops the timer', () => {
  const s = setup();
  try {
    s.t.request(1);
    s.t.request(2);
    s.t.cancel();
    s.clock.advance(100);
    assert.equal(s.seeks, [1]);
    s.t.by(3, 50);
    s.clock.advance(100);
    assert.equal(s.seeks, [1, 53], 'after a cancel, the next seek goes at once and counts from the current time again');
    s.t.request(4);
    assert.equal(s.seeks, [1, 53, 4], '100 ms after the last one: at once');
    s.t.request(5);
    s.t.dispose();
    s.clock.advance(1000);
    assert.equal(s.seeks, [1, 53, 4], 'a disposed throttle sends nothing more');
  } finally {
    s.done();
  }
});

test.run();
