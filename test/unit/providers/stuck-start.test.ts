// providers/stuck-start.ts: asked to play with a buffer ahead and no frame for its time: called once; anything else resets the count.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { watchStuckStart } from '../../../src/providers/stuck-start';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('playing, 1 s ahead, no frame for the whole time: stuck, once', async () => {
  const video = { paused: false, readyState: 1 };
  let calls = 0;
  const stop = watchStuckStart(video, () => 4, () => calls++, 60, 10);
  await wait(300);
  stop();
  assert.is(calls, 1);
});

test('paused, nothing buffered (a slow link), or a frame shown: never stuck', async () => {
  let calls = 0;
  const stops = [
    watchStuckStart({ paused: true, readyState: 1 }, () => 4, () => calls++, 40, 10),
    watchStuckStart({ paused: false, readyState: 1 }, () => 0.5, () => calls++, 40, 10),
    watchStuckStart({ paused: false, readyState: 2 }, () => 4, () => calls++, 40, 10),
  ];
  await wait(120);
  stops.forEach((s) => s());
  assert.is(calls, 0);
});

test('the count starts again after a moment unstuck, and a stopped watch never calls', async () => {
  const video = { paused: false, readyState: 1 };
  let calls = 0;
  const stop = watchStuckStart(video, () => 4, () => calls++, 80, 10);
  await wait(55);
  video.paused = true;
  await wait(25);
  video.paused = false;
  await wait(55);
  assert.is(calls, 0, 'the pause reset it');
  stop();
  await wait(60);
  assert.is(calls, 0, 'stopped');
});

test.run();
