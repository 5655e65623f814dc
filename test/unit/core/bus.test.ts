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

test('unsubscribe', () => {
  const bus = createBus();
  let n = 0;
  const off = bus.on('media:ended', () => n++);
  bus.emit('media:ended', { currentTime: 1 });
  off();
  bus.emit('media:ended', { currentTime: 1 });
  assert.is(n, 1);
});

test.run();
