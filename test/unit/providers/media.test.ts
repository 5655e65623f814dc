// providers/media.ts with its watchdog: a source that gets no byte of media for START_IDLE_MS before it
// starts fails with 'start timeout'; a stall after the start fails when the server answers a probe and
// still sends no media, or when nothing answers for OUTAGE_BUDGET_MS (DESIGN "Every wait ends"); bytes
// that keep arriving are waited for. A happy-dom <video>, the fake clock, a fake hls piece.
import type { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import type { HlsContext, HlsHandle, PieceModules } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import type { MediaCapabilities } from '../../../src/providers/engine';
import { bindMedia } from '../../../src/providers/media';
import type { SourceFailure } from '../../../src/providers/media-contract';
import { OUTAGE_BUDGET_MS, START_IDLE_MS, STALL_IDLE_MS } from '../../../src/providers/media-watchdog';
import { installDom } from '../dom';
import { fakeClock, fakeLoader, flush } from '../fakes';

type Failure = [code: string, failure: SourceFailure];

/** A fake hls piece: counts attaches and destroys and keeps the context hls.js would get. */
function fakeHls() {
  const seen = { attached: 0, destroyed: 0, ctx: undefined as HlsContext | undefined, holds: false };
  const mod: PieceModules['hls'] = {
    async attachHls(_video, _url, _startAt, ctx): Promise<HlsHandle> {
      seen.attached++;
      seen.ctx = ctx;
      return { destroy: () => void seen.destroyed++, holds: () => seen.holds, setQuality() {}, setAudioTrack() {}, setTextTrack() {} };
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
  const store = createStore();
  const bus = createBus();
  const media = bindMedia(video, { store, bus, caps, load, onFailure: (code, f) => failures.push([code, f]) });
  const fire = (type: string) => video.dispatchEvent(new win.Event(type) as unknown as Event);
  return { video, media, failures, fire, hls, asked, store, bus };
}
const startTimeout = (url: string): Failure => ['media-load-failed', { code: 4, message: 'Failed to load resource.', details: 'start timeout', url }];

test('START_IDLE_MS is 15 s', () => {
  assert.is(START_IDLE_MS, 15000);
});

test('a native source nobody asked to play never times out: it may load nothing before a play (iOS ignores preload)', async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  clock.advance(START_IDLE_MS * 3);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test("a native source played without 'loadedmetadata' fails with 'start timeout' once the budget is spent", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  assert.is(s.video.getAttribute('src'), '/x.mp4', 'the element got the source');
  void s.media.play('user');
  clock.advance(START_IDLE_MS - 1);
  assert.equal(s.failures, [], 'not a moment early');
  clock.advance(1);
  assert.equal(s.failures, [startTimeout('/x.mp4')]);
  clock.advance(START_IDLE_MS * 2);
  assert.is(s.failures.length, 1, 'once');
  s.media.destroy();
});

test("a 'loadedmetadata' within the budget: no failure, no timer left", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  clock.advance(START_IDLE_MS - 1);
  s.fire('loadedmetadata');
  assert.is(clock.pending(), 0, 'the budget timer is cleared');
  clock.advance(START_IDLE_MS * 2);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test("a 'loadeddata' clears a native source's budget too", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  s.fire('loadeddata');
  clock.advance(START_IDLE_MS * 2);
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
  clock.advance(START_IDLE_MS - 10000);
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
  clock.advance(START_IDLE_MS);
  assert.equal(s.failures, [startTimeout('/b.mp4')]);
  s.media.destroy();
});

test('destroy() cancels the timer', async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  clock.advance(5000);
  s.media.destroy();
  assert.is(clock.pending(), 0);
  clock.advance(START_IDLE_MS * 2);
  assert.equal(s.failures, []);
});

test("after destroy(), a late 'loadedmetadata' or load event changes nothing", async () => {
  const s = setup();
  await s.media.load('/x.mp4', 0);
  s.media.destroy();
  s.fire('loadedmetadata');
  s.fire('loadeddata');
  clock.advance(START_IDLE_MS);
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
  clock.advance(START_IDLE_MS - 1);
  assert.equal(s.failures, []);
  clock.advance(1);
  assert.equal(s.failures, [startTimeout('/x.m3u8')]);
  s.media.destroy();
  assert.is(s.hls.seen.destroyed, 1);
});

test("hls: 'loadedmetadata' before the engine is in (the early start's init segments, its first fragments still to come) does NOT clear the budget", async () => {
  let attach!: (h: HlsHandle) => void;
  const hls = fakeHls();
  hls.mod.attachHls = () => new Promise<HlsHandle>((r) => (attach = r));
  const s = setup({ mediaSource: true, nativeHls: false }, hls);
  void s.media.load('/x.m3u8', 0);
  await flush();
  s.fire('loadedmetadata');
  clock.advance(START_IDLE_MS);
  assert.equal(s.failures, [startTimeout('/x.m3u8')], 'a media server that sends no fragment still ends the start');
  attach?.({ destroy() {}, holds: () => false, setQuality() {}, setAudioTrack() {}, setTextTrack() {} });
  s.media.destroy();
});

test("hls: 'loadeddata' (the first media segment) clears it", async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  s.fire('loadedmetadata');
  clock.advance(5000);
  s.fire('loadeddata');
  assert.is(clock.pending(), 0);
  clock.advance(START_IDLE_MS * 2);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test("hls: a page that does not run for longer than the budget (its main thread blocked) fails nothing: its 'loadeddata' was queued behind the overdue tick", async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  s.hls.seen.ctx!.traffic.last = performance.now();
  clock.freeze(START_IDLE_MS + 5000);
  clock.advance(0);
  assert.equal(s.failures, [], 'the overdue tick judges nothing');
  s.fire('loadeddata');
  clock.advance(START_IDLE_MS * 2);
  assert.equal(s.failures, []);
  s.media.destroy();
});

test('hls: a freeze after which nothing has come: the start fails at the next tick, a second after the page runs again', async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  clock.advance(5000);
  s.hls.seen.ctx!.traffic.last = performance.now();
  clock.advance(2000);
  clock.freeze(30000);
  clock.advance(999);
  assert.equal(s.failures, [], 'not at the overdue tick');
  clock.advance(1);
  assert.equal(s.failures, [startTimeout('/x.m3u8')]);
  s.media.destroy();
});

test('hls: a page late at every tick (a slow device all along) still fails a start that gets nothing, judged every other tick', async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  s.hls.seen.ctx!.traffic.last = performance.now();
  // Every tick runs 2.5 s after the one before: each is more than two periods late.
  for (let i = 0; i < 12 && s.failures.length === 0; i++) {
    clock.freeze(2500);
    clock.advance(0);
  }
  assert.equal(s.failures, [startTimeout('/x.m3u8')], 'within the budget and a late tick of it');
  s.media.destroy();
});

test('hls: a source set while hls.js sets up (its attach resolves a task later) wins; the first is let go', async () => {
  const handles: Array<{ url: string; destroyed: number }> = [];
  const settle: Array<() => void> = [];
  const mod: PieceModules['hls'] = {
    attachHls(_video, url) {
      const seen = { url, destroyed: 0 };
      handles.push(seen);
      const handle: HlsHandle = { destroy: () => void seen.destroyed++, holds: () => false, setQuality() {}, setAudioTrack() {}, setTextTrack() {} };
      return new Promise((resolve) => settle.push(() => resolve(handle)));
    },
  };
  const s = setup({ mediaSource: true, nativeHls: false }, { mod, seen: { attached: 0, destroyed: 0, ctx: undefined, holds: false } });
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
  clock.advance(START_IDLE_MS);
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
  clock.advance(START_IDLE_MS);
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

/** The media server's answer to the watchdog's probe, while `answer` is set; never otherwise. */
function stubProbe(answer: () => boolean) {
  const real = globalThis.fetch;
  const asked: Array<{ url: string; method?: string }> = [];
  globalThis.fetch = ((url: string, init?: RequestInit) => {
    asked.push({ url, method: init?.method });
    if (answer()) return Promise.resolve(new Response(null, { status: 200 }));
    return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
  }) as typeof fetch;
  return { asked, restore: () => (globalThis.fetch = real) };
}
/** Runs the clock `ms` ahead a second at a time, letting the probes' promises settle between. */
async function run(ms: number) {
  for (let t = 0; t < ms; t += 1000) {
    clock.advance(Math.min(1000, ms - t));
    await flush();
  }
}

test('STALL_IDLE_MS is 10 s, OUTAGE_BUDGET_MS 75 s', () => {
  assert.is(STALL_IDLE_MS, 10000);
  assert.is(OUTAGE_BUDGET_MS, 75000);
});

test("a stall with no byte, the server answering the probe: 'stalled' once STALL_IDLE_MS has passed (a server fault)", async () => {
  const probe = stubProbe(() => true);
  try {
    const s = await startedAndPlaying();
    s.fire('waiting');
    await run(STALL_IDLE_MS - 1000);
    assert.equal(s.failures, []);
    assert.is(probe.asked.length, 0, 'no probe before the idle bound');
    await run(1000);
    assert.equal(probe.asked, [{ url: '/x.mp4', method: 'HEAD' }], 'the media server is asked');
    assert.equal(s.failures, [], 'judged a tick after the answer');
    await run(1000);
    assert.equal(s.failures, [stalled('/x.mp4')]);
    await run(STALL_IDLE_MS * 2);
    assert.is(s.failures.length, 1, 'once');
    s.media.destroy();
  } finally {
    probe.restore();
  }
});

test('a stall where nothing answers (the link is out): the spinner stays, and playback goes on when bytes return within the minute', async () => {
  let linkUp = false;
  const probe = stubProbe(() => linkUp);
  try {
    const s = await startedAndPlaying();
    s.fire('waiting');
    await run(55000);
    assert.equal(s.failures, [], '55 s of outage: still waiting');
    assert.ok(probe.asked.length >= 5, 'the link is probed again and again');
    linkUp = true;
    s.fire('progress');
    s.fire('playing');
    await run(OUTAGE_BUDGET_MS * 2);
    assert.equal(s.failures, []);
    s.media.destroy();
  } finally {
    probe.restore();
  }
});

/** Playing through hls.js with one load (`key`) open since now, and the element waiting. */
async function stuckHlsLoad(key: string) {
  const s = setup({ mediaSource: true, nativeHls: false });
  let paused = false;
  Object.defineProperty(s.video, 'paused', { get: () => paused });
  Object.defineProperty(s.video, 'currentSrc', { get: () => 'blob:x' });
  await loadHls(s.media, '/x.m3u8');
  s.fire('loadeddata');
  s.fire('playing');
  const traffic = s.hls.seen.ctx!.traffic;
  traffic.open.set(key, performance.now());
  s.fire('waiting');
  return {
    s,
    traffic,
    end: () => {
      paused = true;
      s.media.destroy();
    },
  };
}

test('hls: one load stuck while others flow (the audio arrives, a video fragment gets nothing): the server is asked, then "stalled"', async () => {
  const probe = stubProbe(() => true);
  try {
    const { s, traffic, end } = await stuckHlsLoad('main/3');
    for (let i = 0; i < 9; i++) {
      await run(1000);
      traffic.last = performance.now();
      traffic.open.set('audio/5', performance.now());
    }
    assert.equal(s.failures, [], 'not before the stuck load has waited STALL_IDLE_MS');
    await run(2000);
    assert.equal(probe.asked.map((a) => a.method), ['HEAD']);
    assert.equal(s.failures.map(([, f]) => f.details), ['stalled']);
    end();
  } finally {
    probe.restore();
  }
});

test('hls: a stall through which the page does not run: the overdue tick judges nothing, so the stuck load\'s bytes of that time count; a load that got none is judged at the next tick', async () => {
  const probe = stubProbe(() => true);
  try {
    const { s, traffic, end } = await stuckHlsLoad('main/3');
    await run(5000);
    clock.freeze(STALL_IDLE_MS * 2);
    clock.advance(0);
    // The loader's own overdue tick, queued behind the watchdog's: the load's bytes of the freeze.
    traffic.open.set('main/3', performance.now());
    await run(STALL_IDLE_MS - 1000);
    assert.is(probe.asked.length, 0, 'the load got bytes: no probe');
    clock.freeze(STALL_IDLE_MS * 2);
    clock.advance(0);
    assert.is(probe.asked.length, 0, 'none at the overdue tick');
    await run(1000);
    assert.equal(probe.asked.map((a) => a.method), ['HEAD'], 'nothing came in the freeze: the server is asked');
    await run(1000);
    assert.equal(s.failures.map(([, f]) => f.details), ['stalled'], 'a server that sends nothing still ends it');
    end();
  } finally {
    probe.restore();
  }
});

test('a slow link: the probe\'s answer and the stuck load\'s first bytes come together, and the film waits on', async () => {
  const probe = stubProbe(() => true);
  try {
    const { s, traffic, end } = await stuckHlsLoad('main/16');
    await run(10000);
    assert.equal(probe.asked.map((a) => a.method), ['HEAD'], 'asked once the load has waited STALL_IDLE_MS');
    // The load's loader records the bytes that came with the answer at its next tick.
    traffic.last = performance.now();
    traffic.open.set('main/16', performance.now());
    await run(STALL_IDLE_MS - 1000);
    assert.equal(s.failures, [], 'bytes came: no error screen');
    end();
  } finally {
    probe.restore();
  }
});

test('the link comes back but the media stays silent: a fresh window, then the server is judged', async () => {
  let linkUp = false;
  const probe = stubProbe(() => linkUp);
  try {
    const s = await startedAndPlaying();
    s.fire('waiting');
    await run(30000);
    linkUp = true;
    await run(5000);
    assert.equal(s.failures, [], 'the probe answers again: the engine gets its chance to ask anew');
    await run(STALL_IDLE_MS + 5000);
    assert.equal(s.failures, [stalled('/x.mp4')], 'the link answers, the media does not: a server fault');
    s.media.destroy();
  } finally {
    probe.restore();
  }
});

test("a link out past OUTAGE_BUDGET_MS ends in 'stalled'", async () => {
  const probe = stubProbe(() => false);
  try {
    const s = await startedAndPlaying();
    s.fire('waiting');
    await run(OUTAGE_BUDGET_MS - 5000);
    assert.equal(s.failures, []);
    await run(6000);
    assert.equal(s.failures, [stalled('/x.mp4')]);
    s.media.destroy();
  } finally {
    probe.restore();
  }
});

test('a stall on a slow link, a byte every 8 s for three minutes: waited for, no probe, no failure', async () => {
  const probe = stubProbe(() => true);
  try {
    const s = await startedAndPlaying();
    s.fire('waiting');
    for (let i = 0; i < 22; i++) {
      await run(8000);
      s.fire('progress');
    }
    assert.equal(s.failures, []);
    assert.is(probe.asked.length, 0);
    s.media.destroy();
  } finally {
    probe.restore();
  }
});

test('a start on a slow link: bytes every 10 s for a minute keep it waiting; then silence ends it START_IDLE_MS after the last', async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  for (let i = 0; i < 6; i++) {
    clock.advance(10000);
    s.hls.seen.ctx!.traffic.last = performance.now();
  }
  assert.equal(s.failures, [], 'a minute, never 15 s without a byte');
  clock.advance(START_IDLE_MS - 1000);
  assert.equal(s.failures, []);
  clock.advance(1000);
  assert.equal(s.failures, [startTimeout('/x.m3u8')]);
  s.media.destroy();
});

test("a stall that plays on ('playing') or that the viewer pauses ends the watch; a later stall has its own", async () => {
  const probe = stubProbe(() => true);
  try {
    const s = await startedAndPlaying();
    s.fire('waiting');
    await run(STALL_IDLE_MS - 2000);
    s.fire('playing');
    await run(STALL_IDLE_MS);
    assert.equal(s.failures, [], 'it played on');
    s.fire('waiting');
    await run(5000);
    s.pause();
    await run(STALL_IDLE_MS * 2);
    assert.equal(s.failures, [], 'paused: nobody is waiting');
    s.fire('waiting');
    assert.is(clock.pending(), 0, 'no watch while paused');
    s.media.destroy();
  } finally {
    probe.restore();
  }
});

test('no stall budget before the start (the start budget rules then), none after destroy', async () => {
  const s = setup();
  Object.defineProperty(s.video, 'paused', { get: () => false });
  await s.media.load('/x.mp4', 0);
  assert.is(clock.pending(), 1, 'playing already: the start is watched');
  s.fire('waiting');
  assert.is(clock.pending(), 1, 'and no stall watch beside it');
  clock.advance(START_IDLE_MS);
  assert.equal(s.failures, [startTimeout('/x.mp4')], 'the start budget decides');
  const t = await startedAndPlaying();
  t.fire('waiting');
  t.media.destroy();
  clock.advance(STALL_IDLE_MS * 2);
  assert.equal(t.failures, []);
  s.media.destroy();
});

test("hls: a film the engine holds after a stall keeps the spinner and its 'playing' until let go; paused meanwhile, the spinner goes", async () => {
  const s = setup({ mediaSource: true, nativeHls: false });
  await loadHls(s.media, '/x.m3u8');
  s.fire('loadeddata');
  const playing: number[] = [];
  s.bus.on('media:playing', () => playing.push(1));
  s.fire('playing');
  assert.is(playing.length, 1);
  s.fire('waiting');
  assert.ok(s.store.waiting.value);
  s.hls.seen.holds = true;
  s.fire('canplay');
  s.fire('playing');
  assert.ok(s.store.waiting.value, 'held: the spinner stays');
  assert.is(playing.length, 1, "held: no 'playing' for the SDK or analytics");
  s.video.playbackRate = 0;
  s.fire('ratechange');
  assert.is(s.store.playbackRate.value, 1, "the hold's rate of 0 is no speed of the viewer's");
  s.hls.seen.holds = false;
  s.hls.seen.ctx!.released(true);
  assert.not.ok(s.store.waiting.value, 'let go: playing');
  assert.is(playing.length, 2);
  s.fire('waiting');
  s.hls.seen.holds = true;
  s.fire('canplay');
  s.hls.seen.holds = false;
  s.hls.seen.ctx!.released(false);
  assert.not.ok(s.store.waiting.value, 'paused while held: no spinner');
  assert.is(playing.length, 2);
  s.media.destroy();
});

test.run();
