// providers/media.ts start budget: a source that has not started within START_BUDGET_MS fails with
// 'start timeout' (DESIGN "Every wait ends"). A happy-dom <video>, the fake clock, a fake hls piece.
import type { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import type { HlsContext, HlsHandle, PieceModules } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import type { MediaCapabilities } from '../../../src/providers/engine';
import { type SourceFailure, START_BUDGET_MS, STALL_BUDGET_MS, bindMedia } from '../../../src/providers/media';
import { installDom } from '../dom';
import { fakeClock, fakeLoader, flush } from '../fakes';

type Failure = [code: string, failure: SourceFailure];

/** A fake hls piece: counts attaches and destroys and keeps the context hls.js would get. */
function fakeHls() {
  const seen = { attached: 0, destroyed: 0, ctx: undefined as HlsContext | undefined };
  const mod: PieceModules['hls'] = {
    async attachHls(_video, _url, _startAt, ctx): Promise<HlsHandle> {
      seen.attached++;
      seen.ctx = ctx;
      return { destroy: () => void seen.destroyed++, setQuality() {}, setAudioTrack() {}, setTextTrack() {} };
    },
  };
  return { mod, seen };
}

let win: Window;
let clock: ReturnType<typeof fakeClock>;
test.before.each(() => {
  win = installDom() as unknown as Window;
  clock = fakeClock().install();
});
test.after.each(() => clock.restore());

function setup(caps: MediaCapabilities = { mediaSource: false, nativeHls: false }, hls = fakeHls()) {
  const video = document.createElement('video') as HTMLVideoElement;
  const failures: Failure[] = [];
  const { load, asked } = fakeLoader({ hls: hls.mod });
  const media = bindMedia(video, { store: createStore(), bus: createBus(), caps, load, onFailure: (code, f) => failures.push([code, f]) });
  const fire = (type: string) => video.dispatchEvent(new win.Event(type) as unknown as Event);
  return { video, media, failures, fire, hls, asked };
}
const startTimeout = (url: string): Failure => ['media-load-failed', { code: 4, message: 'Failed to load resource.', details: 'start timeout', url }];

test('START_BUDGET_MS is 15 s', () => {
  assert.is(START_BUDGET_MS, 15000);
});

test('a native source nobody asked to play never times out: it may load nothing before a play (iOS ignores preload)', async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  clock.advance(START_BUDGET_MS * 3);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test("a native source played without 'loadedmetadata' fails with 'start timeout' once the budget is spent", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  assert.is(s.video.getAttribute('src'), '/x.mp4', 'the element got the source');
  void s.media.play('user');
  clock.advance(START_BUDGET_MS - 1);
  assert.equal(s.failures, [], 'not a moment early');
  clock.advance(1);
  assert.equal(s.failures, [startTimeout('/x.mp4')]);
  clock.advance(START_BUDGET_MS * 2);
  assert.is(s.failures.length, 1, 'once');
  s.media.destroy();
});

test("a 'loadedmetadata' within the budget: no failure, no timer left", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  clock.advance(START_BUDGET_MS - 1);
  s.fire('loadedmetadata');
  assert.is(clock.pending(), 0, 'the budget timer is cleared');
  clock.advance(START_BUDGET_MS * 2);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test("a 'loadeddata' clears a native source's budget too", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  s.fire('loadeddata');
  clock.advance(START_BUDGET_MS * 2);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test('a new load() cancels the old timer and starts a budget of its own', async () => {
  const s = setup();
  await s.media.load('/a.mp4', 0);
  void s.media.play('user');
  clock.advance(10000);
  await s.media.load('/b.mp4', 0);
  void s.media.play('user');
  assert.is(clock.pending(), 1, 'one budget timer, the new one');
  clock.advance(START_BUDGET_MS - 10000);
  assert.equal(s.failures, [], "the first source's budget died with it");
  clock.advance(10000 - 1);
  assert.equal(s.failures, []);
  clock.advance(1);
  assert.equal(s.failures, [startTimeout('/b.mp4')], 'the new source fails on its own budget, with its own address');
  s.media.destroy();
});

test('a source that started, then a new load(): the new source has a budget again', async () => {
  const s = setup();
  await s.media.load('/a.mp4', 0);
  s.fire('loadedmetadata');
  await s.media.load('/b.mp4', 0);
  void s.media.play('user');
  clock.advance(START_BUDGET_MS);
  assert.equal(s.failures, [startTimeout('/b.mp4')]);
  s.media.destroy();
});

test('destroy() cancels the timer', async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  clock.advance(5000);
  s.media.destroy();
  assert.is(clock.pending(), 0);
  clock.advance(START_BUDGET_MS * 2);
  assert.equal(s.failures, []);
});

test("after destroy(), a late 'loadedmetadata' or load event changes nothing", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  s.media.destroy();
  s.fire('loadedmetadata');
  s.fire('loadeddata');
  clock.advance(START_BUDGET_MS);
  assert.equal(s.failures, []);
});

/** An hls load: the piece, then a task turn (hls.js starts in a task of its own), then the engine. */
async function loadHls(media: ReturnType<typeof bindMedia>, url: string) {
  const loading = media.load(url, 0);
  await flush();
  clock.advance(0);
  await loading;
  await flush();
}

test("hls: 'loadedmetadata' alone (the init segment) does NOT clear the budget", async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  assert.ok(s.asked.includes('hls'));
  assert.is(s.hls.seen.attached, 1, 'the hls piece has the source');
  s.fire('loadedmetadata');
  clock.advance(START_BUDGET_MS - 1);
  assert.equal(s.failures, []);
  clock.advance(1);
  assert.equal(s.failures, [startTimeout('/x.m3u8')]);
  s.media.destroy();
  assert.is(s.hls.seen.destroyed, 1);
});

test("hls: 'loadeddata' (the first media segment) clears it", async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  s.fire('loadedmetadata');
  clock.advance(5000);
  s.fire('loadeddata');
  assert.is(clock.pending(), 0);
  clock.advance(START_BUDGET_MS * 2);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test('hls: a source set while hls.js sets up (its attach resolves a task later) wins; the first is let go', async () => {
  const handles: Array<{ url: string; destroyed: number }> = [];
  const settle: Array<() => void> = [];
  const mod: PieceModules['hls'] = {
    attachHls(_video, url) {
      const seen = { url, destroyed: 0 };
      handles.push(seen);
      const handle: HlsHandle = { destroy: () => void seen.destroyed++, setQuality() {}, setAudioTrack() {}, setTextTrack() {} };
      return new Promise((resolve) => settle.push(() => resolve(handle)));
    },
  };
  const s = setup({ mediaSource: true, nativeHls: false }, { mod, seen: { attached: 0, destroyed: 0, ctx: undefined } });
  const first = s.media.load('/a.m3u8', 0);
  await flush();
  clock.advance(0);
  await flush();
  assert.equal(handles.map((h) => h.url), ['/a.m3u8'], 'hls.js is setting up the first source');
  const second = s.media.load('/b.m3u8', 0);
  await flush();
  clock.advance(0);
  await flush();
  settle[0]();
  settle[1]();
  await Promise.all([first, second]);
  assert.equal(handles.map((h) => [h.url, h.destroyed]), [['/a.m3u8', 1], ['/b.m3u8', 0]], 'the first is destroyed as it arrives, the second kept');
  s.media.destroy();
  assert.is(handles[1].destroyed, 1, 'destroy lets go of the one kept');
});

test('hls: the budget counts from load(), the piece download included', async () => {
  // The hls piece never arrives: the budget still ends the wait.
  const video = document.createElement('video') as HTMLVideoElement;
  const failures: Failure[] = [];
  const { load } = fakeLoader({ hls: 'never' });
  const media = bindMedia(video, {
    store: createStore(),
    bus: createBus(),
    caps: { mediaSource: true, nativeHls: false },
    load,
    onFailure: (code, f) => failures.push([code, f]),
  });
  void media.load('/x.m3u8', 0);
  await flush();
  clock.advance(START_BUDGET_MS);
  assert.equal(failures, [startTimeout('/x.m3u8')]);
  media.destroy();
});

test('a load() that ends in media-unsupported leaves no budget behind', async () => {
  const s = setup({ mediaSource: false, nativeHls: false });
  await s.media.load('/x.m3u8', 0);
  assert.equal(
    s.failures.map(([code, f]) => [code, f.details]),
    [['media-unsupported', 'hls unsupported']],
  );
  assert.is(clock.pending(), 0);
  clock.advance(START_BUDGET_MS);
  assert.is(s.failures.length, 1, 'no start timeout on top of it');
  s.media.destroy();
});

/** A native source that started and plays: the element reports itself not paused. */
async function startedAndPlaying() {
  const s = setup();
  let paused = false;
  Object.defineProperty(s.video, 'paused', { get: () => paused });
  Object.defineProperty(s.video, 'currentSrc', { get: () => '/x.mp4' });
  await s.media.load('/x.mp4', 0);
  s.fire('loadedmetadata');
  s.fire('playing');
  return { ...s, pause: () => ((paused = true), s.fire('pause')) };
}
const stalled = (url: string): Failure => ['media-load-failed', { code: 2, message: 'Failed to load resource.', details: 'stalled', url }];

test('STALL_BUDGET_MS is 12 s', () => assert.is(STALL_BUDGET_MS, 12000));

test("a started source that waits for data past the stall budget fails ('stalled'): no endless spinner", async () => {
  const s = await startedAndPlaying();
  s.fire('waiting');
  clock.advance(STALL_BUDGET_MS - 1);
  assert.equal(s.failures, []);
  clock.advance(1);
  assert.equal(s.failures, [stalled('/x.mp4')]);
  clock.advance(STALL_BUDGET_MS * 2);
  assert.is(s.failures.length, 1, 'once');
  s.media.destroy();
});

test("a stall that plays on ('playing') or that the viewer pauses ends the budget; a later stall has its own", async () => {
  const s = await startedAndPlaying();
  s.fire('waiting');
  clock.advance(STALL_BUDGET_MS - 1000);
  s.fire('playing');
  clock.advance(STALL_BUDGET_MS);
  assert.equal(s.failures, [], 'it played on');
  s.fire('waiting');
  clock.advance(5000);
  s.pause();
  clock.advance(STALL_BUDGET_MS * 2);
  assert.equal(s.failures, [], 'paused: nobody is waiting');
  s.fire('waiting');
  assert.is(clock.pending(), 0, 'no stall budget while paused');
  s.media.destroy();
});

test('no stall budget before the start (the start budget rules then), none after destroy', async () => {
  const s = setup();
  Object.defineProperty(s.video, 'paused', { get: () => false });
  await s.media.load('/x.mp4', 0);
  assert.is(clock.pending(), 1, 'playing already: the start budget runs');
  s.fire('waiting');
  assert.is(clock.pending(), 1, 'and no stall budget beside it');
  clock.advance(START_BUDGET_MS);
  assert.equal(s.failures, [startTimeout('/x.mp4')], 'the start budget decides');
  const t = await startedAndPlaying();
  t.fire('waiting');
  t.media.destroy();
  clock.advance(STALL_BUDGET_MS * 2);
  assert.equal(t.failures, []);
  s.media.destroy();
});

test.run();
