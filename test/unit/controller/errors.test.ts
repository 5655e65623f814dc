import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createErrorHandling } from '../../../src/controller/errors';
import { type PlayerError, playerError, vastError } from '../../../src/core/errors';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import { installDom } from '../dom';
import { quiet } from '../fakes';

function setup() {
  const win = installDom();
  const store = createStore();
  const bus = createBus();
  const seen: PlayerError[] = [];
  bus.on('player:error', ({ error }) => seen.push(error));
  let pauses = 0;
  const errors = createErrorHandling(store, bus, () => pauses++);
  return { win, store, bus, seen, errors, pauses: () => pauses };
}

test('fail: a fatal error on the bus and on screen, content paused, loading over, logged once', async () => {
  const s = setup();
  const { errors } = await quiet(() => s.errors.fail('media-load-failed', 'Failed to load resource. x', { address: 'https://h/a.m3u8' }));
  assert.is(s.seen.length, 1);
  assert.is(s.store.error.value, s.seen[0]);
  assert.equal([s.seen[0].code, s.seen[0].fatal, s.seen[0].data?.address], ['media-load-failed', true, 'https://h/a.m3u8']);
  assert.not.ok(s.store.loading.value);
  assert.is(s.pauses(), 1);
  assert.is(errors.length, 1);
  assert.match(String(errors[0][0]), /media-load-failed/);
  s.errors.dispose();
});

test('only the first fatal error counts: later ones are neither shown nor emitted', async () => {
  const s = setup();
  await quiet(() => {
    s.errors.fail('content-timeout', 'a');
    s.errors.fail('media-load-failed', 'b');
  });
  assert.equal(s.seen.map((e) => e.code), ['content-timeout']);
  assert.is(s.store.error.value?.code, 'content-timeout');
  s.errors.dispose();
});

test('errors that are not fatal (engine recoverable, ads) never become a screen nor pause', () => {
  const s = setup();
  s.bus.emit('player:error', { error: playerError('media-recoverable', 'bufferStalledError') });
  s.bus.emit('player:error', { error: vastError(403, 'Not found supported mediaFile') });
  assert.is(s.store.error.value, null);
  assert.is(s.pauses(), 0);
  s.errors.dispose();
});

test('expected outcomes are shown but not logged as faults; blocked content is not paused (the placeholder plays on)', async () => {
  const s = setup();
  const { errors } = await quiet(() => s.errors.fail('content-blocked', 'content not available here'));
  assert.is(s.store.error.value?.code, 'content-blocked');
  assert.is(s.pauses(), 0);
  assert.equal(errors, []);
  const t = setup();
  const missing = await quiet(() => t.errors.fail('movie-id-missing', 'movie_id missing'));
  assert.is(t.store.error.value?.code, 'movie-id-missing');
  assert.equal(missing.errors, []);
  s.errors.dispose();
  t.errors.dispose();
});

test('a page going away: failures are its cut requests, not errors; back from the cache they count again', async () => {
  const s = setup();
  s.win.dispatchEvent(new s.win.Event('pagehide'));
  s.errors.fail('content-load-failed', 'Failed to fetch');
  assert.is(s.store.error.value, null);
  assert.equal(s.seen, []);
  s.win.dispatchEvent(new s.win.Event('pageshow'));
  await quiet(() => s.errors.fail('content-load-failed', 'x'));
  assert.is(s.store.error.value?.code, 'content-load-failed');
  s.errors.dispose();
});

test('after a retry resets the screen, the next fatal error shows again; dispose stops listening', async () => {
  const s = setup();
  await quiet(() => s.errors.fail('media-load-failed', 'x'));
  s.store.error.value = null;
  await quiet(() => s.errors.fail('media-unsupported', 'y'));
  assert.is(s.store.error.peek()?.code, 'media-unsupported');
  s.store.error.value = null;
  s.errors.dispose();
  s.bus.emit('player:error', { error: playerError('media-load-failed', 'z') });
  assert.is(s.store.error.value, null);
});

test.run();
