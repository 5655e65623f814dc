import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import type { Requests } from '../../../src/core/requests';
import { attachBinge } from '../../../src/features/binge';

// The rule of which episode comes next is store.nextEpisode (test/unit/core/store.test.ts); selecting
// and playing it is requests.playNext (test/unit/controller/requests.test.ts); the whole path from the
// <video>'s ended event is in test/unit/controller/flows.test.ts.

function setup(answer = true) {
  const bus = createBus();
  let asked = 0;
  const requests = { playNext: () => (asked++, answer) } as unknown as Requests;
  const off = attachBinge({ bus, requests });
  return { bus, off, asked: () => asked };
}

test('SPEC §4 ended: an ended episode asks to move on to the next one (requests.playNext), once per end', () => {
  const s = setup();
  s.bus.emit('media:ended', { currentTime: 60 });
  assert.is(s.asked(), 1);
  s.bus.emit('media:ended', { currentTime: 60 });
  assert.is(s.asked(), 2);
  s.off();
});

test('no next episode (playNext refuses): nothing thrown, nothing else asked', () => {
  const s = setup(false);
  assert.not.throws(() => s.bus.emit('media:ended', { currentTime: 60 }));
  assert.is(s.asked(), 1);
  s.off();
});

test('only the end moves on; after dispose nothing does', () => {
  const s = setup();
  s.bus.emit('media:pause', { cause: 'user' });
  s.bus.emit('media:seeked', { from: 1, to: 59 });
  assert.is(s.asked(), 0);
  s.off();
  s.bus.emit('media:ended', { currentTime: 60 });
  assert.is(s.asked(), 0);
});

test.run();
