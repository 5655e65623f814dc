import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';

test('typed events reach every listener, even after one throws', () => {
  const bus = createBus();
  const seen: number[] = [];
  const errors = console.error;
  console.error = () => {};
  try {
    bus.on('media:seeked', () => {
      throw new Error('bad listener');
    });
    bus.on('media:seeked', (p) => seen.push(p.to));
    bus.emit('media:seeked', { from: 1, to: 11 });
  } finally {
    console.error = errors;
  }
  assert.equal(seen, [11]);
});

test('a throwing tap stops neither the other taps nor the listeners; each failure is logged with its event', () => {
  const bus = createBus();
  const seen: string[] = [];
  const logged: unknown[][] = [];
  const errors = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    bus.tap(() => {
      throw new Error('bad tap');
    });
    bus.tap((event) => seen.push(`tap:${event}`));
    bus.on('media:ended', () => {
      throw new Error('bad listener');
    });
    bus.on('media:ended', () => seen.push('listener'));
    assert.not.throws(() => bus.emit('media:ended', { currentTime: 1 }));
    assert.not.throws(() => bus.emit('media:ended', { currentTime: 2 }));
  } finally {
    console.error = errors;
  }
  assert.equal(seen, ['tap:media:ended', 'listener', 'tap:media:ended', 'listener']);
  assert.is(logged.length, 4, 'the tap and the listener, twice');
  assert.ok(logged.every((l) => String(l[0]).includes('media:ended')), 'the log names the event');
  assert.ok(logged.some((l) => (l[1] as Error).message === 'bad tap'));
  assert.ok(logged.some((l) => (l[1] as Error).message === 'bad listener'));
});

test('a player:error listener that throws does not keep the error from the others', () => {
  const bus = createBus();
  const got: string[] = [];
  const errors = console.error;
  console.error = () => {};
  try {
    bus.on('player:error', () => {
      throw new Error('bad');
    });
    bus.on('player:error', ({ error }) => got.push(error.code));
    bus.emit('player:error', { error: { category: 'media', code: 'media-load-failed', fatal: true, message: 'x' } });
  } finally {
    console.error = errors;
  }
  assert.equal(got, ['media-load-failed']);
});

test('unsubscribe', () => {
  const bus = createBus();
  let n = 0;
  const off = bus.on('media:ended', () => n++);
  bus.emit('media:ended', { currentTime: 1 });
  off();
  bus.emit('media:ended', { currentTime: 1 });
  assert.is(n, 1);
  let taps = 0;
  const untap = bus.tap(() => taps++);
  bus.emit('media:ended', { currentTime: 1 });
  untap();
  bus.emit('media:ended', { currentTime: 1 });
  assert.is(taps, 1);
});

test.run();
