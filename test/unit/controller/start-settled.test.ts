import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installDom } from '../dom';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import { START_HOLD_MS, settleStart } from '../../../src/controller/start-settled';
import { fakeClock, flush } from '../fakes';

installDom();

const setup = (autoPlay: boolean) => {
  const store = createStore();
  const bus = createBus();
  const dispose = settleStart(store, bus, autoPlay);
  return { store, bus, dispose };
};

test('without autoplay the start is settled at once (the viewer starts from the interface)', () => {
  assert.ok(setup(false).store.startSettled.value);
});

test('with autoplay it waits for the first frame, and stays settled', async () => {
  const { store } = setup(true);
  await flush();
  assert.not.ok(store.startSettled.value);
  store.started.value = true;
  await Promise.resolve();
  assert.not.ok(store.startSettled.value, 'a task later, not in the first frame\'s');
  await flush();
  assert.ok(store.startSettled.value);
  store.started.value = false;
  await flush();
  assert.ok(store.startSettled.value);
});

test('with autoplay: an error, a pre-roll playing, the first touch or key settle it', async () => {
  const error = setup(true);
  error.store.error.value = { category: 'content', code: 'content-load-failed', fatal: true, message: 'x' };
  await flush();
  assert.ok(error.store.startSettled.value, 'error');

  const ad = setup(true);
  ad.bus.emit('ad:play', { ad: {} as never });
  assert.not.ok(ad.store.startSettled.value, "not in the 'playing' handler's task: in a task of its own");
  await flush();
  assert.ok(ad.store.startSettled.value, 'ad:play');

  for (const type of ['pointerdown', 'keydown']) {
    const touched = setup(true);
    window.dispatchEvent(new Event(type));
    assert.ok(touched.store.startSettled.value, type);
  }
});

test(`with autoplay a start that never shows a frame settles after START_HOLD_MS (${START_HOLD_MS} ms); a disposed one never`, async () => {
  const clock = fakeClock().install();
  try {
    const { store } = setup(true);
    const gone = setup(true);
    gone.dispose();
    clock.advance(START_HOLD_MS - 1);
    assert.not.ok(store.startSettled.value);
    clock.advance(1);
    assert.ok(store.startSettled.value);
    assert.not.ok(gone.store.startSettled.value);
    window.dispatchEvent(new Event('pointerdown'));
    assert.not.ok(gone.store.startSettled.value, 'its listeners are gone too');
  } finally {
    clock.restore();
  }
});

test.run();
