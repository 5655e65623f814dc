// providers/resume-hold.ts with the playback policy's rule (its cases: test/unit/playback/policy.test.ts):
// after a stall, the film plays again once what is buffered outlasts the fragments on their way, held at
// most half the stall (4 s at the most); never at a start or after a seek; a pause, a seek or a speed the
// viewer chooses ends the hold. A stub element on the fake clock.
import type { Fragment } from 'hls.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPolicy } from '../../../src/playback/policy';
import { leftOf, resumeHold } from '../../../src/providers/resume-hold';
import { fakeClock } from '../fakes';

const ranges = (...r: Array<[number, number]>) => ({ length: r.length, start: (i: number) => r[i][0], end: (i: number) => r[i][1] }) as TimeRanges;

/** A fragment of `level` with `loaded` of `total` bytes in (total 0: no answer yet). */
const fragment = (level: number, loaded: number, total: number, type = 'main') =>
  ({ type, level, stats: { loaded, total, aborted: false, loading: { end: 0 } } }) as unknown as Fragment;

test('leftOf: what the answer lacks; before it, the fragment before at this level’s rate; nothing once in', () => {
  const bitrate = (level: number) => [500e3, 1000e3][level] ?? 0;
  assert.is(leftOf(fragment(0, 30e3, 170e3), undefined, bitrate), 140e3);
  assert.is(leftOf(fragment(0, 0, 0), fragment(1, 400e3, 400e3), bitrate), 200e3, 'no answer yet: 360p’s 400 kB at 240p’s rate');
  assert.is(leftOf(fragment(1, 0, 0), fragment(1, 100e3, 0), bitrate), 100e3, 'the one before, aborted at 100 kB');
  assert.is(leftOf(fragment(0, 0, 0), undefined, bitrate), 0, 'nothing known');
  assert.is(leftOf(fragment(5, 0, 0), fragment(0, 100e3, 100e3), bitrate), 100e3, 'a level of no known rate: as the one before');
  const done = fragment(0, 170e3, 170e3);
  done.stats.loading.end = 1;
  assert.is(leftOf(done, undefined, bitrate), 0);
  assert.is(leftOf(done, undefined, bitrate, true), 170e3, 'in, the film going on: its next, not asked yet, about its size');
  const aborted = fragment(0, 30e3, 170e3);
  aborted.stats.aborted = true;
  assert.is(leftOf(aborted, undefined, bitrate), 0);
  assert.is(leftOf(undefined, undefined, bitrate), 0);
});

/** A stub <video> playing at 10 s with 4 s buffered, its events fired by hand; `released` records the hold's callbacks. */
function setup() {
  const clock = fakeClock().install();
  const listeners = new Map<string, Set<() => void>>();
  const video = {
    paused: false,
    seeking: false,
    currentTime: 0,
    playbackRate: 1,
    buffered: ranges(),
    duration: 60,
    addEventListener: (type: string, fn: () => void) => listeners.set(type, (listeners.get(type) ?? new Set()).add(fn)),
    removeEventListener: (type: string, fn: () => void) => listeners.get(type)?.delete(fn),
  };
  const fire = (type: string) => listeners.get(type)?.forEach((fn) => fn());
  const released: boolean[] = [];
  // The policy of a 500 kb/s level whose estimate is 240 kb/s (30 kB/s).
  const policy = createPolicy({ kbps: [500], segmentS: 4, estimateKbps: 240 });
  const hold = resumeHold(video as unknown as HTMLVideoElement, () => policy, () => 500e3, (playing) => released.push(playing));
  const frag = fragment(0, 0, 170e3);
  hold.loading(frag);
  /** The film has played to 10 s, then stalls there for `stallMs`, `bytes` of the fragment arriving meanwhile; then 4 s are in. */
  const stall = (stallMs: number, bytes: number) => {
    fire('timeupdate');
    video.currentTime = 10;
    fire('timeupdate');
    fire('waiting');
    for (let t = 0; t < stallMs; t += 250) {
      clock.advance(250);
      frag.stats.loaded += (bytes * 250) / stallMs;
    }
    video.buffered = ranges([0, 14]);
  };
  return { clock, video, fire, released, hold, frag, stall, policy, done: () => (hold.stop(), clock.restore()) };
}

test('a stall in a hole: held at rate 0 while the next fragment would come late; let go as the link returns', () => {
  const s = setup();
  try {
    s.stall(3000, 30e3); // 10 kB/s: the 140 kB left would take 14 s, 4 s are in
    assert.ok(s.hold.holds(), 'held');
    assert.is(s.video.playbackRate, 0);
    assert.ok(s.hold.holds(), "asked again ('playing' after 'canplay'): still held");
    s.clock.advance(500);
    assert.equal(s.released, []);
    s.frag.stats.loaded = 160e3; // 130 kB in the last 2 s: the last 10 kB come in well under 2 s
    s.clock.advance(250);
    assert.equal(s.released, [true], 'let go, playing');
    assert.is(s.video.playbackRate, 1, 'at the speed it had');
    assert.not.ok(s.hold.holds(), 'the stall is over');
  } finally {
    s.done();
  }
});

test("the audio on its way counts too: the video's last fragment in, the audio fragment's 65 kB at 10 kB/s hold it", () => {
  const s = setup();
  try {
    s.video.duration = 14; // the video's fragment is the film's last: no next one to come
    const audio = fragment(0, 0, 65e3, 'audio');
    s.hold.loading(audio);
    s.frag.stats.loaded = 170e3;
    s.frag.stats.loading.end = 1;
    s.stall(3000, 0);
    audio.stats.loaded = 20e3; // in the last 2 s, with nothing else: 10 kB/s, 4.5 s for the rest
    s.clock.advance(250);
    assert.ok(s.hold.holds(), 'held for the audio');
    audio.stats.loaded = 62e3;
    s.clock.advance(250);
    assert.equal(s.released, [true], 'the audio nearly in: let go');
  } finally {
    s.done();
  }
});

test('held at most half the stall: nothing more arriving, let go 1.5 s after a 3 s stall', () => {
  const s = setup();
  try {
    s.video.playbackRate = 1.5;
    s.stall(3000, 0);
    assert.ok(s.hold.holds());
    s.clock.advance(1250);
    assert.equal(s.released, []);
    s.clock.advance(250);
    assert.equal(s.released, [true]);
    assert.is(s.video.playbackRate, 1.5, "the viewer's speed back");
  } finally {
    s.done();
  }
});

test('the policy is told the stall, the hold and the release, in its own decisions and states', () => {
  const s = setup();
  const states: string[] = [];
  try {
    s.stall(3000, 0);
    assert.is(s.policy.state(), 'stalled');
    assert.ok(s.hold.holds());
    states.push(s.policy.state());
    s.clock.advance(1500);
    s.video.currentTime = 10.5;
    s.fire('timeupdate');
    states.push(s.policy.state());
    assert.equal(states, ['holding', 'playing']);
  } finally {
    s.done();
  }
});

test('no policy yet (no levels known): no hold', () => {
  const clock = fakeClock().install();
  const video = { paused: false, seeking: false, currentTime: 0, playbackRate: 1, buffered: ranges([0, 4]), duration: 60, addEventListener() {}, removeEventListener() {} };
  const hold = resumeHold(video as unknown as HTMLVideoElement, () => undefined, () => 0, () => {});
  try {
    assert.not.ok(hold.holds());
  } finally {
    hold.stop();
    clock.restore();
  }
});

test('no hold when the fragment comes in time, at a start, or after a seek', () => {
  const s = setup();
  try {
    s.stall(2000, 150e3); // 75 kB/s: the 20 kB left within half the 4 s in
    assert.not.ok(s.hold.holds(), 'in time: plays at once');
    assert.is(s.video.playbackRate, 1);
    // A seek: the wait after it is the seek's, not a stall.
    s.fire('seeking');
    s.video.currentTime = 60;
    s.fire('timeupdate');
    s.fire('waiting');
    s.clock.advance(3000);
    s.video.buffered = ranges([60, 64]);
    assert.not.ok(s.hold.holds(), 'after a seek');
  } finally {
    s.done();
  }
  const start = setup();
  try {
    start.fire('waiting');
    start.clock.advance(3000);
    assert.not.ok(start.hold.holds(), 'before the film has moved');
  } finally {
    start.done();
  }
});

test('a pause, a speed chosen or a seek while held ends the hold', () => {
  const s = setup();
  try {
    s.stall(3000, 0);
    assert.ok(s.hold.holds());
    s.video.paused = true;
    s.fire('pause');
    assert.equal(s.released, [false], 'paused: let go, not playing');
    assert.is(s.video.playbackRate, 1);
    s.clock.advance(5000);
    assert.equal(s.released, [false], 'nothing after');

    s.video.paused = false;
    s.video.currentTime = 11;
    s.stall(3000, 0);
    assert.ok(s.hold.holds());
    s.video.playbackRate = 2;
    s.fire('ratechange');
    assert.equal(s.released, [false, true], 'a speed chosen: it plays');
    assert.is(s.video.playbackRate, 2, 'at that speed');

    s.video.currentTime = 12;
    s.stall(3000, 0);
    assert.ok(s.hold.holds());
    s.fire('ratechange'); // its own rate of 0
    assert.equal(s.released, [false, true], 'its own rate is no release');
    s.fire('seeking');
    assert.equal(s.released, [false, true], 'a seek: quietly');
    assert.is(s.video.playbackRate, 2);
    s.clock.advance(5000);
    assert.equal(s.released, [false, true]);
  } finally {
    s.done();
  }
});

test('the video fragment in and its next not asked yet (canplay before hls.js asks): held for it; none held for at the end of the film', () => {
  const s = setup();
  try {
    s.frag.stats.loaded = 170e3;
    s.frag.stats.loading.end = 1;
    s.stall(3000, 0);
    assert.ok(s.hold.holds(), 'its next 170 kB still to come: held');
  } finally {
    s.done();
  }
  const end = setup();
  try {
    end.video.duration = 14;
    end.frag.stats.loaded = 170e3;
    end.frag.stats.loading.end = 1;
    end.stall(3000, 0);
    assert.not.ok(end.hold.holds(), 'the last fragment in: nothing to hold for');
  } finally {
    end.done();
  }
});

test('stopped while held: the rate back, its listeners gone', () => {
  const s = setup();
  s.stall(3000, 0);
  assert.ok(s.hold.holds());
  s.done();
  assert.is(s.video.playbackRate, 1);
  s.video.playbackRate = 2;
  s.fire('ratechange');
  assert.equal(s.released, []);
});

test.run();
