// providers/frame-drops.ts: a period that dropped more than a fifth of its frames is reported, once per period; nothing else.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { watchFrameDrops } from '../../../src/providers/frame-drops';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fakeVideo() {
  const q = { totalVideoFrames: 0, droppedVideoFrames: 0 };
  return { q, video: { getVideoPlaybackQuality: () => ({ ...q, creationTime: 0 }) as VideoPlaybackQuality } };
}

test('a period dropping more than 20 % is reported with its own counts; 20 % or less, or nothing decoded, is not', async () => {
  const { q, video } = fakeVideo();
  const seen: Array<[number, number]> = [];
  const stop = watchFrameDrops(video, (d, n) => seen.push([d, n]), 40);
  q.totalVideoFrames = 100;
  q.droppedVideoFrames = 30;
  await wait(60);
  q.totalVideoFrames = 200;
  q.droppedVideoFrames = 50;
  await wait(40);
  await wait(40);
  stop();
  assert.equal(seen, [[30, 100]]);
});

test('stopped, it reports nothing more; an element without the API is a no-op', async () => {
  const { q, video } = fakeVideo();
  const seen: number[] = [];
  const stop = watchFrameDrops(video, (d) => seen.push(d), 20);
  stop();
  q.totalVideoFrames = 100;
  q.droppedVideoFrames = 90;
  await wait(50);
  assert.equal(seen, []);
  const none = watchFrameDrops({} as Pick<HTMLVideoElement, 'getVideoPlaybackQuality'>, () => seen.push(1), 20);
  await wait(30);
  none();
  assert.equal(seen, []);
});

test.run();
