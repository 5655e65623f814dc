import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DOUBLE_TAP_MS, SINGLE_TAP_WAIT_MS, type Timers, createTapClassifier, tapZone } from '../../../src/ui/gestures';

function fakeTimers() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    now: () => now,
    set: (fn, ms) => (due.set(++seq, { at: now + ms, fn }), seq),
    clear: (id) => due.delete(id as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...due]) if (t.at <= now) (due.delete(id), t.fn());
  };
  return { timers, advance };
}

function setup() {
  const { timers, advance } = fakeTimers();
  const log: string[] = [];
  const c = createTapClassifier({ single: () => log.push('single'), double: (z) => log.push(`double:${z}`) }, timers);
  return { c, log, advance };
}

test('the timings are 275 ms and 250 ms', () => {
  assert.is(DOUBLE_TAP_MS, 275);
  assert.is(SINGLE_TAP_WAIT_MS, 250);
});

test('a single tap fires after 250 ms, not before', () => {
  const { c, log, advance } = setup();
  c.tap('middle');
  advance(249);
  assert.equal(log, []);
  advance(1);
  assert.equal(log, ['single']);
});

test('a second tap within 275 ms is a double tap and the single never fires', () => {
  const { c, log, advance } = setup();
  c.tap('right');
  advance(200);
  c.tap('right');
  advance(1000);
  assert.equal(log, ['double:right']);
});

test('a second tap after 275 ms is two singles', () => {
  const { c, log, advance } = setup();
  c.tap('middle');
  advance(280);
  c.tap('middle');
  advance(300);
  assert.equal(log, ['single', 'single']);
});

test('a third quick tap starts afresh', () => {
  const { c, log, advance } = setup();
  c.tap('left');
  advance(100);
  c.tap('left');
  advance(100);
  c.tap('left');
  advance(300);
  assert.equal(log, ['double:left', 'single']);
});

test('zones: left fifth, right fifth, the rest', () => {
  assert.is(tapZone(10, 500), 'left');
  assert.is(tapZone(99, 500), 'left');
  assert.is(tapZone(250, 500), 'middle');
  assert.is(tapZone(401, 500), 'right');
  assert.is(tapZone(5, 0), 'middle');
});

test.run();
