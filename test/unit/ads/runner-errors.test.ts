// ads/runner.ts and the player's errors: a fatal error ends the break at once (no further pixel), no
// break starts behind an error screen, and an ad with no slot on the page ends with VAST 450.
// VAST documents from the reference ad server; fetch is stubbed and records every pixel (pixels go
// through fetch with keepalive); the controller's error handling sets store.error as in the player.
import type { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../../server/ads.mjs';
import { SLOT_WAIT_MS } from '../../../src/ads/ad-session';
import { startAds } from '../../../src/ads/runner';
import { createErrorHandling } from '../../../src/controller/errors';
import { createBus } from '../../../src/core/bus';
import { type PlayerError, playerError } from '../../../src/core/errors';
import { createStore } from '../../../src/core/store';
import { installDom } from '../dom';
import { flush, quiet } from '../fakes';

const g = globalThis as Record<string, unknown>;
const realFetch = g.fetch;
const TAG = (name: string) => `http://ads.test/ads/vast/${name}.xml`;

/** A DOM for the ad's <video> and the VAST parser; fetch answers VAST by name and records pixels. */
function setup(list: { prerollList?: Array<{ vastUrl: string }>; midrollList?: Array<{ vastUrl: string }> } | Promise<unknown>) {
  const win = installDom() as unknown as Window;
  g.DOMParser = win.DOMParser;
  (win.HTMLMediaElement.prototype as unknown as { canPlayType: (t: string) => string }).canPlayType = (t) => (t === 'video/mp4' ? 'maybe' : '');
  const vast: string[] = [];
  const pixels: string[] = [];
  g.fetch = async (url: string, init?: RequestInit) => {
    const m = /\/ads\/vast\/([a-z-]+)\.xml$/.exec(url);
    if (m) {
      vast.push(url);
      // As a browser's fetch: a body read after the request was aborted rejects.
      const text = async () => {
        if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return (VAST as Record<string, (o: string) => string>)[m[1]]('http://ads.test');
      };
      return { ok: true, status: 200, headers: { get: () => null }, text };
    }
    if (init?.keepalive) pixels.push(url);
    return { ok: true };
  };
  const store = createStore();
  const bus = createBus();
  const errors = createErrorHandling(store, bus, () => {});
  const seen: PlayerError[] = [];
  bus.on('player:error', ({ error }) => seen.push(error));
  const runner = startAds({
    store,
    bus,
    adListUrl: 'http://ads.test/ad-list.json',
    vpaidFrameUrl: 'http://player.test/vpaid.html',
    getJson: async () => list,
  });
  const fire = (el: HTMLElement, type: string) => el.dispatchEvent(new win.Event(type) as unknown as Event);
  const done = () => {
    runner.destroy();
    errors.dispose();
    g.fetch = realFetch;
  };
  return { win, store, bus, runner, vast, pixels, seen, fire, done };
}
type Setup = ReturnType<typeof setup>;

async function until(cond: () => boolean, turns = 40): Promise<void> {
  for (let i = 0; i < turns && !cond(); i++) await flush(1);
}
const events = (pixels: string[]) => pixels.map((u) => new URL(u).searchParams.get('ev'));

/** Waits for the first ad of the break, makes its <video> play, and gets it to 'started'. */
async function playFirstAd(s: Setup) {
  await until(() => !!s.runner.session.value);
  const video = s.runner.session.value!.playback.el as HTMLVideoElement;
  video.play = async () => {};
  video.pause = () => {};
  s.fire(video, 'canplaythrough');
  s.fire(video, 'playing');
  Object.defineProperty(video, 'duration', { configurable: true, value: 6 });
  Object.defineProperty(video, 'currentTime', { configurable: true, writable: true, value: 1 });
  s.fire(video, 'timeupdate');
  return video;
}

test('a fatal player:error while an ad plays ends it at once: no session, no further pixel, the ad video released, adState stopped', async () => {
  const s = setup({ prerollList: [{ vastUrl: TAG('nonskippable') }, { vastUrl: TAG('skippable') }], midrollList: [] });
  const slot = document.createElement('div');
  s.runner.mount(slot, null);
  try {
    const video = await playFirstAd(s);
    assert.is(s.runner.session.value!.status.value, 'started');
    assert.is(video.parentNode, slot as unknown as ParentNode, 'the ad plays in its slot');
    assert.equal(events(s.pixels), ['loaded', 'impression', 'start']);
    const before = s.pixels.length;
    await quiet(() => s.bus.emit('player:error', { error: playerError('content-load-failed', 'content load failed') }));
    assert.is(s.store.error.value?.code, 'content-load-failed', 'the error screen is up');
    assert.is(s.runner.session.value, null, 'the ad session ends at once');
    assert.is(video.getAttribute('src'), null, 'the ad video is released');
    assert.is(video.parentNode, null, 'and taken out of the slot');
    // The media would go on reporting: quartiles, the end, a pause. Nothing may be sent any more.
    for (const t of [2, 3, 4.6, 6]) {
      (video as unknown as { currentTime: number }).currentTime = t;
      s.fire(video, 'timeupdate');
    }
    s.fire(video, 'pause');
    s.fire(video, 'ended');
    await until(() => s.store.adState.value === 'stopped');
    assert.is(s.store.adState.value, 'stopped');
    assert.equal(s.pixels.slice(before), [], 'no pixel after the fatal error');
    assert.equal(s.vast, [TAG('nonskippable')], 'the next ad of the break is never asked for');
    assert.equal(
      s.seen.filter((e) => e.category === 'ad'),
      [],
      'ending the ad for an error screen is no ad error',
    );
  } finally {
    s.done();
  }
});

test('a non-fatal player:error (a recoverable media error) leaves the ad playing', async () => {
  const s = setup({ prerollList: [{ vastUrl: TAG('nonskippable') }], midrollList: [] });
  s.runner.mount(document.createElement('div'), null);
  try {
    await playFirstAd(s);
    const session = s.runner.session.value;
    s.bus.emit('player:error', { error: playerError('media-recoverable', 'bufferStalledError') });
    assert.is(s.runner.session.value, session);
    assert.is(session!.status.value, 'started');
    assert.is(s.store.adState.value, 'ready');
  } finally {
    s.done();
  }
});

test('a fatal error while the VAST loads: the break ends with no ad, no pixel and no next tag', async () => {
  const s = setup({ prerollList: [{ vastUrl: TAG('nonskippable') }, { vastUrl: TAG('skippable') }], midrollList: [] });
  s.runner.mount(document.createElement('div'), null);
  try {
    // The break has begun (state 'load'), the first VAST is being fetched.
    await until(() => s.vast.length > 0);
    assert.is(s.store.adState.value, 'load');
    await quiet(() => s.bus.emit('player:error', { error: playerError('media-load-failed', 'x') }));
    await until(() => s.store.adState.value === 'stopped');
    await flush();
    assert.is(s.store.adState.value, 'stopped');
    assert.is(s.runner.session.value, null);
    assert.equal(s.vast, [TAG('nonskippable')]);
    assert.equal(s.pixels, []);
  } finally {
    s.done();
  }
});

test('a runner whose slot was never mounted ends its ad with VAST 450 after SLOT_WAIT_MS and releases the content', async () => {
  // The wait for the overlay runs on a timer the test fires itself.
  const realSetTimeout = globalThis.setTimeout;
  const slotWaits: Array<() => void> = [];
  globalThis.setTimeout = ((fn: () => void, ms?: number) => (ms === SLOT_WAIT_MS ? (slotWaits.push(fn), 0) : realSetTimeout(fn, ms))) as typeof setTimeout;
  const s = setup({ prerollList: [{ vastUrl: TAG('nonskippable') }, { vastUrl: TAG('skippable') }], midrollList: [] });
  const warn = console.warn;
  console.warn = () => {};
  try {
    // mount() is never called: the ad waits for the overlay, then gives up.
    await until(() => slotWaits.length > 0);
    assert.is(s.store.adState.value, 'load', 'waiting for the overlay');
    assert.equal([s.seen, s.pixels], [[], []], 'no error, no pixel while it waits');
    slotWaits[0]();
    await until(() => s.store.adState.value === 'stopped');
    await flush();
    assert.is(s.store.adState.value, 'stopped', 'the content is released');
    assert.is(s.runner.session.value, null);
    const ad = s.seen.filter((e) => e.category === 'ad');
    assert.is(ad.length, 1);
    assert.equal({ ...ad[0] }, { category: 'ad', code: 'vast-450', fatal: false, message: ad[0].message, data: { vastCode: 450 } });
    assert.match(ad[0].message, /^Video cant play: /);
    assert.is(s.store.error.value, null, 'never an error screen for an ad');
    assert.equal(events(s.pixels), ['error'], 'the error pixel, and neither impression nor start');
    assert.is(new URL(s.pixels[0]).searchParams.get('code'), '450');
    assert.equal(s.vast, [TAG('nonskippable')], 'an ad error ends the break');
  } finally {
    globalThis.setTimeout = realSetTimeout;
    console.warn = warn;
    s.done();
  }
});

test('the slot taken off the page while an ad plays (mount(null)) ends it with VAST 450', async () => {
  const s = setup({ prerollList: [{ vastUrl: TAG('nonskippable') }], midrollList: [] });
  s.runner.mount(document.createElement('div'), null);
  const warn = console.warn;
  console.warn = () => {};
  try {
    const video = await playFirstAd(s);
    const before = s.pixels.length;
    s.runner.mount(null, null);
    assert.is(s.runner.session.value, null);
    assert.is(video.getAttribute('src'), null, 'the ad video is released');
    await until(() => s.store.adState.value === 'stopped');
    assert.is(s.store.adState.value, 'stopped');
    assert.equal(
      s.seen.filter((e) => e.category === 'ad').map((e) => [e.code, e.data?.vastCode]),
      [['vast-450', 450]],
    );
    assert.equal(events(s.pixels.slice(before)), ['error']);
  } finally {
    console.warn = warn;
    s.done();
  }
});

test('an ad list arriving after a fatal error starts no break: no VAST fetched, adState stopped', async () => {
  let answer!: (l: unknown) => void;
  const s = setup(new Promise((r) => (answer = r)));
  s.runner.mount(document.createElement('div'), null);
  try {
    await flush();
    await quiet(() => s.bus.emit('player:error', { error: playerError('content-load-failed', 'content load failed') }));
    answer({ prerollList: [{ vastUrl: TAG('nonskippable') }], midrollList: [{ vastUrl: TAG('skippable') }] });
    await until(() => s.store.adState.value === 'stopped');
    await flush();
    assert.is(s.store.adState.value, 'stopped');
    assert.equal(s.vast, [], 'no VAST asked for');
    assert.is(s.runner.session.value, null);
    assert.equal(s.pixels, []);
  } finally {
    s.done();
  }
});

test('no mid-roll behind an error screen', async () => {
  const s = setup({ prerollList: [], midrollList: [{ vastUrl: TAG('skippable') }] });
  s.runner.mount(document.createElement('div'), null);
  try {
    await until(() => s.store.adState.value === 'stopped');
    s.store.episode.value = { id: 7, contentId: 1, title: '', order: 1, season: null, m3u8MasterFilePath: '/x.m3u8' } as never;
    s.store.duration.value = 4000;
    await quiet(() => s.bus.emit('player:error', { error: playerError('media-load-failed', 'x') }));
    s.store.currentTime.value = 2500;
    await flush();
    assert.equal(s.vast, [], 'past half of a long content, yet no mid-roll');
    assert.is(s.store.adState.value, 'stopped');
  } finally {
    s.done();
  }
});

test('without an error, the same mid-roll does start (the control case)', async () => {
  const s = setup({ prerollList: [], midrollList: [{ vastUrl: TAG('skippable') }] });
  s.runner.mount(document.createElement('div'), null);
  try {
    await until(() => s.store.adState.value === 'stopped');
    s.store.episode.value = { id: 7, contentId: 1, title: '', order: 1, season: null, m3u8MasterFilePath: '/x.m3u8' } as never;
    s.store.duration.value = 4000;
    s.store.currentTime.value = 2500;
    await until(() => !!s.runner.session.value);
    assert.equal(s.vast, [TAG('skippable')]);
    assert.is(s.store.adState.value, 'load', 'the mid-roll is loading');
  } finally {
    s.done();
  }
});

test.run();
