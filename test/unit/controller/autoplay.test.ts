import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoplay } from '../../../src/controller/autoplay';
import { createStore } from '../../../src/core/store';
import { fakeMedia } from '../fakes';

// The same fallback through a real <video> and createPlayer: test/unit/controller/flows.test.ts.

test('allowed with sound: one play, nothing muted', async () => {
  const store = createStore();
  const m = fakeMedia(store);
  await autoplay(m.media, store);
  assert.equal(m.calls, ['play autoplay']);
  assert.not.ok(store.mutedAutoplay.value);
});

test('refused with sound: muted, the unmute offer shown, played again', async () => {
  const store = createStore();
  const m = fakeMedia(store);
  m.answerPlays(false, true);
  await autoplay(m.media, store);
  assert.equal(m.calls, ['play autoplay', 'muted true', 'play autoplay']);
  assert.ok(store.mutedAutoplay.value);
  assert.ok(store.started.value);
});

test('refused even muted: sound back on, no offer, nothing playing', async () => {
  const store = createStore();
  const m = fakeMedia(store);
  m.answerPlays(false, false);
  await autoplay(m.media, store);
  assert.equal(m.calls, ['play autoplay', 'muted true', 'play autoplay', 'muted false']);
  assert.not.ok(store.mutedAutoplay.value);
  assert.not.ok(store.started.value);
});

test.run();
