// providers/frame-drops.ts: the element's frame counters sampled every TUNING.dropPeriodMs for the
// policy's rule (playback/element.ts), on a virtual clock: a period that dropped more than a fifth is
// reported with its own counts, once per period; nothing else, and nothing once stopped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Drops } from '../../../src/playback/element';
import { TUNING } from '../../../src/playback/tuning';
import { watchFrameDrops } from '../../../src/providers/frame-drops';
import { intervals } from '../fakes';

function fakeVideo() {
  const q = { totalVideoFrames: 0, droppedVideoFrames: 0 };
  return { q, video: { getVideoPlaybackQuality: () => ({ ...q, creationTime: 0 }) as VideoPlaybackQuality } };
}

test('a period dropping more than 20 % is reported with its own counts; 20 % or less, or nothing decoded, is not', () => {
  const clock = intervals();
  try {
    const { q, video } = fakeVideo();
    const seen: Drops[] = [];
    const stop = watchFrameDrops(video, (d) => seen.push(d));
    q.totalVideoFrames = 100;
    q.droppedVideoFrames = 30;
    clock.advance(TUNING.dropPeriodMs);
    q.totalVideoFrames = 200;
    q.droppedVideoFrames = 50;
    clock.advance(TUNING.dropPeriodMs);
    clock.advance(TUNING.dropPeriodMs);
    stop();
    assert.equal(seen, [{ kind: 'drops', t: 5000, dropped: 30, decoded: 100, reason: 'share' }]);
  } finally {
    clock.restore();
  }
});

test('stopped, it reports nothing more; an element without the API is a no-op', () => {
  const clock = intervals();
  try {
    const { q, video } = fakeVideo();
    const seen: Drops[] = [];
    const stop = watchFrameDrops(video, (d) => seen.push(d));
    stop();
    q.totalVideoFrames = 100;
    q.droppedVideoFrames = 90;
    clock.advance(3 * TUNING.dropPeriodMs);
    assert.equal(seen, []);
    const none = watchFrameDrops({} as Pick<HTMLVideoElement, 'getVideoPlaybackQuality'>, (d) => seen.push(d));
    clock.advance(3 * TUNING.dropPeriodMs);
    none();
    assert.equal(seen, []);
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
  }
});

test.run();
