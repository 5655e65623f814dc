// core/deadline.ts: one timed, abortable wait. Driven by the fake clock: no real time passes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bounded, deadline, idleDeadline, isTimeoutError, lateTicks } from '../../../src/core/deadline';
import { fakeClock } from '../fakes';

/** An AbortSignal whose listener bookkeeping is recorded (and still done for real). */
function spiedParent(ctl = new AbortController()) {
  const added: EventListenerOrEventListenerObject[] = [];
  const removed: EventListenerOrEventListenerObject[] = [];
  const signal = ctl.signal;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, fn: EventListenerOrEventListenerObject, o?: AddEventListenerOptions) => {
    if (type === 'abort') added.push(fn);
    add(type, fn, o);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, fn: EventListenerOrEventListenerObject, o?: EventListenerOptions) => {
    if (type === 'abort') removed.push(fn);
    remove(type, fn, o);
  }) as typeof signal.removeEventListener;
  return { ctl, signal, added, removed };
}

test('aborts with a TimeoutError after ms, not a moment before', () => {
  const clock = fakeClock().install();
  try {
    const wait = deadline(250);
    assert.is(clock.pending(), 1, 'one timer');
    clock.advance(249);
    assert.not.ok(wait.signal.aborted);
    clock.advance(1);
    assert.ok(wait.signal.aborted);
    const reason = wait.signal.reason as DOMException;
    assert.ok(reason instanceof DOMException);
    assert.is(reason.name, 'TimeoutError');
    assert.match(reason.message, /250 ms/);
    assert.ok(isTimeoutError(reason));
    wait.done();
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test("the parent's abort is forwarded at once, with its own reason (not a TimeoutError)", () => {
  const clock = fakeClock().install();
  try {
    const p = spiedParent();
    const wait = deadline(1000, p.signal);
    assert.is(p.added.length, 1, 'listens to the parent');
    clock.advance(10);
    const why = new Error('viewer left');
    p.ctl.abort(why);
    assert.ok(wait.signal.aborted);
    assert.is(wait.signal.reason, why, 'the very reason');
    assert.not.ok(isTimeoutError(wait.signal.reason));
    // The timer firing later changes nothing: the first reason stays.
    clock.advance(5000);
    assert.is(wait.signal.reason, why);
    wait.done();
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test("the parent's default reason (an AbortError) is forwarded as it is", () => {
  const ctl = new AbortController();
  const wait = deadline(1000, ctl.signal);
  ctl.abort();
  assert.is(wait.signal.reason, ctl.signal.reason);
  assert.is((wait.signal.reason as DOMException).name, 'AbortError');
  wait.done();
});

test('a parent already aborted: aborted from the start, with its reason, and no listener added', () => {
  const clock = fakeClock().install();
  try {
    const ctl = new AbortController();
    const why = new DOMException('gone', 'AbortError');
    ctl.abort(why);
    const p = spiedParent(ctl);
    const wait = deadline(1000, p.signal);
    assert.ok(wait.signal.aborted, 'aborted before any time passed');
    assert.is(wait.signal.reason, why);
    assert.is(p.added.length, 0, 'an aborted parent is not listened to');
    clock.advance(2000);
    assert.is(wait.signal.reason, why);
    wait.done();
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test('done() clears the timer and the parent listener: nothing fires afterwards', () => {
  const clock = fakeClock().install();
  try {
    const p = spiedParent();
    const wait = deadline(100, p.signal);
    const fired: unknown[] = [];
    wait.signal.addEventListener('abort', () => fired.push(wait.signal.reason));
    clock.advance(50);
    wait.done();
    assert.is(clock.pending(), 0, 'the timer is gone');
    assert.equal(p.removed, p.added, 'the very listener that was added is removed');
    clock.advance(1000);
    p.ctl.abort(new Error('late'));
    assert.not.ok(wait.signal.aborted, 'neither the timer nor the parent reach it any more');
    assert.equal(fired, []);
    wait.done();
    assert.is(clock.pending(), 0, 'done() twice is harmless');
  } finally {
    clock.restore();
  }
});

test('without a parent: done() clears the timer', () => {
  const clock = fakeClock().install();
  try {
    const wait = deadline(100);
    wait.done();
    assert.is(clock.pending(), 0);
    clock.advance(200);
    assert.not.ok(wait.signal.aborted);
  } finally {
    clock.restore();
  }
});

test("idleDeadline: each progress() restarts the wait, the parent's abort is forwarded, done() detaches both", () => {
  const clock = fakeClock().install();
  try {
    const p = spiedParent();
    const wait = idleDeadline(100, p.signal);
    clock.advance(99);
    wait.progress();
    clock.advance(99);
    assert.not.ok(wait.signal.aborted, 'progress restarted it');
    assert.is(p.added.length, 1, 'progress() keeps the parent listener');
    p.ctl.abort(new Error('dropped'));
    assert.is((wait.signal.reason as Error).message, 'dropped');
    wait.done();
    assert.equal(p.removed, p.added);
    assert.is(clock.pending(), 0);
    const gone = idleDeadline(100, AbortSignal.abort(new Error('before')));
    assert.is((gone.signal.reason as Error).message, 'before', 'a parent already aborted');
    gone.done();
  } finally {
    clock.restore();
  }
});

test('a real (short) deadline fires on its own', async () => {
  const wait = deadline(5);
  await new Promise<void>((r) => wait.signal.addEventListener('abort', () => r()));
  assert.ok(isTimeoutError(wait.signal.reason));
  wait.done();
});

test('isTimeoutError tells a TimeoutError by name, from any realm or class', () => {
  assert.ok(isTimeoutError(new DOMException('x', 'TimeoutError')));
  assert.ok(isTimeoutError({ name: 'TimeoutError' }));
  const e = new Error('x');
  e.name = 'TimeoutError';
  assert.ok(isTimeoutError(e));
  assert.not.ok(isTimeoutError(new DOMException('x', 'AbortError')));
  assert.not.ok(isTimeoutError(new Error('TimeoutError')));
  assert.not.ok(isTimeoutError('TimeoutError'));
  assert.not.ok(isTimeoutError(null));
  assert.not.ok(isTimeoutError(undefined));
  assert.not.ok(isTimeoutError({ name: 'timeouterror' }));
});

test('bounded: the work\'s answer or failure within ms, a TimeoutError past it; the timer cleared either way', async () => {
  const clock = fakeClock().install();
  try {
    assert.is(await bounded(Promise.resolve('in time'), 1000), 'in time');
    await bounded(Promise.reject(new Error('refused')), 1000).then(
      () => assert.unreachable('refused work rejects'),
      (err: Error) => assert.is(err.message, 'refused'),
    );
    assert.is(clock.pending(), 0, 'no timer left behind');
    const late = bounded(new Promise(() => {}), 1000);
    clock.advance(999);
    assert.is(clock.pending(), 1, 'still waiting a moment before the bound');
    clock.advance(1);
    await late.then(
      () => assert.unreachable('work past the bound rejects'),
      (err: unknown) => assert.ok(isTimeoutError(err)),
    );
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test('a deadline run late after the page could not run (its answer queued behind it) waits a second more: the answer counts', () => {
  const clock = fakeClock().install();
  try {
    const wait = deadline(5000);
    clock.advance(1000);
    clock.freeze(16000);
    clock.advance(0);
    assert.not.ok(wait.signal.aborted, 'the overdue timer judges nothing');
    wait.done();
    clock.advance(5000);
    assert.not.ok(wait.signal.aborted, 'the answer came meanwhile');
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test('a deadline run late with nothing come meanwhile aborts a second on; one late by a second or less aborts at once', () => {
  const clock = fakeClock().install();
  try {
    const wait = deadline(5000);
    clock.freeze(20000);
    clock.advance(999);
    assert.not.ok(wait.signal.aborted);
    clock.advance(1);
    assert.ok(isTimeoutError(wait.signal.reason), 'a second after the page ran again');
    const busy = deadline(5000);
    clock.advance(4000);
    clock.freeze(2000);
    clock.advance(0);
    assert.ok(busy.signal.aborted, 'a second late is a busy page, not one that did not run');
  } finally {
    clock.restore();
  }
});

test('idleDeadline run late: the bytes queued behind it restart its wait; silent after them, it aborts ms on', () => {
  const clock = fakeClock().install();
  try {
    const wait = idleDeadline(5000);
    clock.freeze(17000);
    clock.advance(0);
    assert.not.ok(wait.signal.aborted);
    wait.progress();
    clock.advance(4999);
    assert.not.ok(wait.signal.aborted, 'the bytes of the freeze count');
    clock.advance(1);
    assert.ok(isTimeoutError(wait.signal.reason));
  } finally {
    clock.restore();
  }
});

test('lateTicks: ticks on time, or late by a second or less, all judge; the first judges whenever it comes', () => {
  const late = lateTicks(500);
  assert.equal([5e6, 5e6 + 500, 5e6 + 1000, 5e6 + 2500, 5e6 + 3000].map(late), [false, false, false, false, false]);
});

test('lateTicks: a tick after the page could not run is skipped; the next, a period on, judges', () => {
  const late = lateTicks(1000);
  assert.equal([0, 1000, 21000, 22000, 23000].map(late), [false, false, true, false, false]);
});

test('lateTicks: a page late at every tick is still judged, every other tick', () => {
  const late = lateTicks(500);
  assert.equal([0, 2000, 4000, 6000, 8000, 10000].map(late), [false, true, false, true, false, true]);
});

test('lateTicks: a clock that is not a number or goes back judges (nothing is skipped on a guess)', () => {
  const late = lateTicks(500);
  assert.equal([NaN, 1000, 400, NaN, 900].map(late), [false, false, false, false, false]);
});

test.run();
