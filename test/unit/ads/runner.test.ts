import { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../../server/ads.mjs';
import { type AdStatus, nextStatus } from '../../../src/ads/ad-status';
import { fillMacros } from '../../../src/ads/macros';
import { startAds } from '../../../src/ads/runner';
import { createPixels } from '../../../src/ads/pixels';
import { shouldPlay } from '../../../src/ads/visibility';
import { type PlayerEvents, createBus } from '../../../src/core/bus';
import { type AdLoaderState, createStore } from '../../../src/core/store';
import { installDom } from '../dom';

test('status machine: SPEC §4 transitions', () => {
  const run = (inputs: Array<Parameters<typeof nextStatus>[1] | ['pause', boolean]>) =>
    inputs.reduce<AdStatus>((s, i) => (Array.isArray(i) ? nextStatus(s, i[0], i[1]) : nextStatus(s, i)), 'created');
  assert.is(run(['canplaythrough']), 'loaded');
  assert.is(run(['canplaythrough', 'playing']), 'started');
  assert.is(run(['canplaythrough', 'playing', 'playing']), 'playing');
  assert.is(run(['canplaythrough', 'playing', 'pause']), 'paused');
  assert.is(run(['canplaythrough', 'playing', 'pause', 'playing']), 'playing');
  assert.is(run(['canplaythrough', 'playing', ['pause', true]]), 'completed', 'a pause at the end is completion');
  assert.is(run(['canplaythrough', 'playing', 'ended']), 'completed');
  assert.is(run(['canplaythrough', 'error']), 'error');
  assert.is(run(['canplaythrough', 'playing', 'skip']), 'skipped');
  assert.is(run(['canplaythrough', 'stop']), 'stopped');
  assert.is(run(['canplaythrough', 'playing', 'ended', 'playing', 'error', 'skip']), 'completed', 'final statuses stay');
  assert.is(run(['canplaythrough', 'canplaythrough']), 'loaded');
  assert.is(run(['playing']), 'started');
});

test('macros: [ERRORCODE] (900 when none), [CACHEBUSTING], [TIMESTAMP], also percent-encoded', () => {
  const now = new Date('2026-01-02T03:04:05.000Z');
  const u = fillMacros('https://t/e?c=[ERRORCODE]&b=[CACHEBUSTING]&t=[TIMESTAMP]&e=%5BERRORCODE%5D', 403, now, () => 0.5);
  assert.is(u, 'https://t/e?c=403&b=55000000&t=2026-01-02T03%3A04%3A05.000Z&e=403');
  assert.is(fillMacros('https://t/e?c=[ERRORCODE]'), 'https://t/e?c=900');
  assert.match(fillMacros('https://t/?b=[CACHEBUSTING]'), /^https:\/\/t\/\?b=\d{8}$/);
  assert.is(fillMacros('https://t/?x=[UNKNOWN]'), 'https://t/?x=[UNKNOWN]');
});

test('pixels: each event once per ad, quartiles and progress offsets in order', () => {
  const sent: string[] = [];
  const t = createPixels(
    {
      impressions: ['https://t/imp1', 'https://t/imp2'],
      errors: ['https://t/err?c=[ERRORCODE]'],
      clickTracking: ['https://t/click'],
      tracking: [
        { event: 'start', url: 'https://t/start' },
        { event: 'firstQuartile', url: 'https://t/q1' },
        { event: 'midpoint', url: 'https://t/mid' },
        { event: 'thirdQuartile', url: 'https://t/q3' },
        { event: 'progress', url: 'https://t/p2s', offset: { seconds: 2 } },
        { event: 'progress', url: 'https://t/p50', offset: { percent: 50 } },
        { event: 'pause', url: 'https://t/pause' },
      ],
    },
    (u) => sent.push(u),
  );
  t.impression();
  t.impression();
  t.event('start');
  t.event('pause');
  t.event('pause');
  t.progress(1, 8);
  t.progress(2.1, 8);
  t.progress(4, 8);
  t.progress(6.5, 8);
  t.progress(8, 8);
  t.click();
  t.click();
  t.error(405);
  t.error(100);
  assert.equal(sent, [
    'https://t/imp1',
    'https://t/imp2',
    'https://t/start',
    'https://t/pause',
    'https://t/q1',
    'https://t/p2s',
    'https://t/mid',
    'https://t/p50',
    'https://t/q3',
    'https://t/click',
    'https://t/err?c=405',
  ]);
});

test('visibility: hidden document wins, then a click, then the intersection', () => {
  const base = { isPIP: false, type: 'none' as const, isVisible: true, isClick: false, isDocumentHidden: false };
  assert.ok(shouldPlay(base));
  assert.not.ok(shouldPlay({ ...base, isVisible: false }));
  assert.not.ok(shouldPlay({ ...base, isDocumentHidden: true, type: 'play', isClick: true }));
  assert.ok(shouldPlay({ ...base, isVisible: false, type: 'play', isClick: true }));
  assert.not.ok(shouldPlay({ ...base, type: 'pause', isClick: true }));
});

/** A DOM for the ad's <video> and the VAST parser; fetch answers VAST by name and records each pixel's `ev`. */
function adDom() {
  const win = installDom() as unknown as Window;
  const g = globalThis as Record<string, unknown>;
  g.DOMParser = win.DOMParser;
  (win.HTMLMediaElement.prototype as unknown as { canPlayType: (t: string) => string }).canPlayType = (t) => (t === 'video/mp4' ? 'maybe' : '');
  const pixels: string[] = [];
  const realFetch = g.fetch;
  g.fetch = async (url: string) => {
    const m = /\/ads\/vast\/([a-z-]+)\.xml$/.exec(url);
    if (m) return { ok: true, headers: { get: () => null }, text: async () => (VAST as Record<string, (o: string) => string>)[m[1]]('http://ads.test') };
    pixels.push(new URL(url).searchParams.get('ev')!);
    return { ok: true };
  };
  return { win, pixels, restore: () => void (g.fetch = realFetch) };
}

/** A runner whose ad list has these pre-roll tags and no mid-roll. */
const prerolls = (store: ReturnType<typeof createStore>, bus: ReturnType<typeof createBus>, tags: string[]) =>
  startAds({
    store,
    bus,
    adListUrl: 'http://ads.test/ad-list.json',
    vpaidFrameUrl: 'http://player.test/vpaid.html',
    getJson: async () => ({ prerollList: tags.map((vastUrl) => ({ vastUrl })), midrollList: [] }),
  });

test('runner: pre-roll from the ad list, bus events with the history item, parent pause, skip, then stopped', async () => {
  const { win, pixels, restore } = adDom();
  const store = createStore();
  const bus = createBus();
  const seen: Array<[string, unknown]> = [];
  // Ad errors ride player:error (category 'ad'): none is expected from this break.
  for (const name of ['ad:init', 'ad:loaded', 'ad:play', 'ad:pause', 'ad:skip', 'ad:ended', 'player:error'] as Array<keyof PlayerEvents>) {
    bus.on(name, (p) => seen.push([name, p]));
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const runner = prerolls(store, bus, ['http://ads.test/ads/vast/skippable.xml', 'javascript:alert(1)']);
  runner.mount(document.createElement('div'), null);
  try {
    for (let i = 0; i < 20 && !runner.session.value; i++) await tick();
    assert.is(store.adState.value, 'load');
    const video = runner.session.value!.playback.el as HTMLVideoElement;
    assert.is(video.getAttribute('src'), 'http://ads.test/media/ads/ad.mp4', 'the first playable media file');
    let plays = 0;
    let pauses = 0;
    video.play = async () => {
      plays++;
    };
    video.pause = () => {
      pauses++;
    };
    video.dispatchEvent(new win.Event('canplaythrough') as unknown as Event);
    assert.is(store.adState.value, 'ready', 'ready once the ad can play through');
    assert.is(plays, 0, 'nobody asked for the break yet: it waits');
    store.playRequested.value = true;
    assert.is(plays, 1, 'asked, visible and not hidden: it plays');
    video.dispatchEvent(new win.Event('playing') as unknown as Event);
    assert.is(runner.session.value!.status.value, 'started');
    bus.emit('parent:command', { actionType: 'pause' });
    assert.is(pauses, 1, 'the parent window paused the ad');
    assert.equal(runner.playState.value.type, 'pause');
    video.dispatchEvent(new win.Event('pause') as unknown as Event);
    assert.is(runner.session.value!.status.value, 'paused');
    runner.skip();
    assert.is(runner.session.value!.status.value, 'paused', 'no skip before the offset');
    Object.defineProperty(video, 'currentTime', { configurable: true, value: 2.4 });
    Object.defineProperty(video, 'duration', { configurable: true, value: 6 });
    video.dispatchEvent(new win.Event('timeupdate') as unknown as Event);
    assert.ok(runner.canSkip.value);
    runner.setVolume('loud');
    runner.setVolume('0.37');
    assert.is(runner.volume.value, 0.35, 'steps of 0.05');
    runner.toggleVolume();
    assert.is(runner.volume.value, 0);
    runner.skip();
    for (let i = 0; i < 5; i++) await tick();
    assert.is(store.adState.value, 'stopped');
    assert.is(runner.session.value, null);
    assert.equal(pixels, ['loaded', 'impression', 'start', 'pause', 'firstQuartile', 'progress', 'mute', 'skip']);
    // The item is one object: its skip offset (2 s), set as the ad starts, shows in every event's copy.
    const item = { id: 'skippable-1', type: 'preroll', position: 1, duration: 6, perc: 0, skipOffset: 2 };
    assert.equal(seen, [
      ['ad:init', { type: 'preroll' }],
      ['ad:loaded', { ad: item }],
      ['ad:play', { ad: item }],
      ['ad:pause', { ad: item }],
      ['ad:skip', { ad: item }],
      ['ad:ended', { ad: item }],
    ]);
  } finally {
    runner.destroy();
    restore();
  }
});

test('runner: an ad whose answers come before the overlay mounts waits for it, then loads in it (no error, no pixel)', async () => {
  const { win, pixels, restore } = adDom();
  const store = createStore();
  const bus = createBus();
  const errors: unknown[] = [];
  bus.on('player:error', (e) => void errors.push(e));
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const runner = prerolls(store, bus, ['http://ads.test/ads/vast/skippable.xml']);
  try {
    for (let i = 0; i < 20 && !runner.session.value; i++) await tick();
    const s = runner.session.value;
    assert.ok(s, 'the ad is there before the overlay');
    const video = s.playback.el as HTMLVideoElement;
    assert.is(video.parentNode, null, 'not on the page yet');
    assert.not.ok(video.getAttribute('src'), 'its media not asked for yet');
    for (let i = 0; i < 5; i++) await tick();
    assert.equal([errors, pixels, s.status.value], [[], [], 'created'], 'waiting: no error, no pixel');
    const slot = document.createElement('div');
    runner.mount(slot, null);
    assert.is(video.parentNode, slot, 'in the overlay once it mounts');
    assert.is(video.getAttribute('src'), 'http://ads.test/media/ads/ad.mp4', 'and its media asked for');
    video.dispatchEvent(new win.Event('canplaythrough') as unknown as Event);
    assert.is(store.adState.value, 'ready');
    assert.equal(errors, []);
  } finally {
    runner.destroy();
    restore();
  }
});

test('runner: an ad error is a player:error of category ad, never fatal, with its IAB code; the error pixel fires and the content is released', async () => {
  const win = installDom() as unknown as Window;
  const g = globalThis as Record<string, unknown>;
  g.DOMParser = win.DOMParser;
  (win.HTMLMediaElement.prototype as unknown as { canPlayType: (t: string) => string }).canPlayType = (t) => (t === 'video/mp4' ? 'maybe' : '');
  const pixels: string[] = [];
  const realFetch = g.fetch;
  g.fetch = async (url: string) => {
    const m = /\/ads\/vast\/([a-z-]+)\.xml$/.exec(url);
    if (m) return { ok: true, headers: { get: () => null }, text: async () => (VAST as Record<string, (o: string) => string>)[m[1]]('http://ads.test') };
    pixels.push(url);
    return { ok: true };
  };
  const store = createStore();
  const bus = createBus();
  const errors: Array<PlayerEvents['player:error']['error']> = [];
  bus.on('player:error', ({ error }) => errors.push(error));
  store.adState.value = 'load' as AdLoaderState;
  const warn = console.warn;
  console.warn = () => {};
  const runner = startAds({
    store,
    bus,
    adListUrl: 'http://ads.test/l.json',
    vpaidFrameUrl: '',
    getJson: async () => ({ prerollList: [{ vastUrl: 'http://ads.test/ads/vast/unsupported.xml' }], midrollList: [] }),
  });
  runner.mount(document.createElement('div'), null);
  try {
    for (let i = 0; i < 20 && store.adState.value !== 'stopped'; i++) await new Promise((r) => setTimeout(r, 0));
    assert.is(store.adState.value, 'stopped', 'the content is released');
    assert.is(errors.length, 1);
    assert.equal(
      { ...errors[0] },
      { category: 'ad', code: 'vast-403', fatal: false, message: 'Not found supported mediaFile', data: { vastCode: 403 } },
    );
    assert.ok(pixels.some((u) => /[?&]ev=error/.test(u) || u.includes('403')), pixels.join(' '));
  } finally {
    console.warn = warn;
    runner.destroy();
    g.fetch = realFetch;
  }
});

test('runner: iOS native fullscreen stops the ad and ends all ads; destroy mid-load ends quietly', async () => {
  const win = installDom() as unknown as Window;
  const g = globalThis as Record<string, unknown>;
  g.DOMParser = win.DOMParser;
  (win.HTMLMediaElement.prototype as unknown as { canPlayType: (t: string) => string }).canPlayType = () => 'maybe';
  const fetched: string[] = [];
  const realFetch = g.fetch;
  g.fetch = async (url: string) => {
    fetched.push(url);
    const m = /\/ads\/vast\/([a-z-]+)\.xml$/.exec(url);
    if (m) return { ok: true, headers: { get: () => null }, text: async () => (VAST as Record<string, (o: string) => string>)[m[1]]('http://ads.test') };
    return { ok: true };
  };
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const store = createStore();
  const bus = createBus();
  const ended: unknown[] = [];
  bus.on('ad:ended', (p) => ended.push(p));
  const list = { prerollList: [{ vastUrl: 'http://ads.test/ads/vast/nonskippable.xml' }, { vastUrl: 'http://ads.test/ads/vast/skippable.xml' }], midrollList: [] };
  store.adState.value = 'load';
  const runner = startAds({ store, bus, adListUrl: 'http://ads.test/l.json', vpaidFrameUrl: '', getJson: async () => list });
  runner.mount(document.createElement('div'), null);
  try {
    for (let i = 0; i < 20 && !runner.session.value; i++) await tick();
    const video = runner.session.value!.playback.el as HTMLVideoElement;
    video.play = async () => {};
    video.dispatchEvent(new win.Event('canplaythrough') as unknown as Event);
    video.dispatchEvent(new win.Event('playing') as unknown as Event);
    video.dispatchEvent(new win.Event('webkitbeginfullscreen') as unknown as Event);
    for (let i = 0; i < 5; i++) await tick();
    assert.is(store.adState.value, 'stopped');
    assert.is(ended.length, 1);
    assert.not.ok(fetched.some((u) => u.includes('skippable.xml') && !u.includes('nonskippable')), 'a stop ends all ads');
  } finally {
    runner.destroy();
  }
  // Destroyed while the VAST loads: no ad:ended for an ad never shown, and nothing left playing.
  ended.length = 0;
  store.adState.value = 'load';
  const second = startAds({ store, bus, adListUrl: 'http://ads.test/l.json', vpaidFrameUrl: '', getJson: async () => list });
  second.mount(document.createElement('div'), null);
  for (let i = 0; i < 20 && !second.session.value; i++) await tick();
  const el = second.session.value!.playback.el;
  assert.ok(el.getAttribute('src'), 'the second ad was loading');
  second.destroy();
  for (let i = 0; i < 5; i++) await tick();
  assert.is(second.session.value, null);
  assert.is(el.getAttribute('src'), null, 'its media released');
  assert.equal(ended, []);
  g.fetch = realFetch;
});


test('runner: a pod plays its ads in sequence order, each with its own history item (running position), place and pixels', async () => {
  const win = installDom() as unknown as Window;
  const g = globalThis as Record<string, unknown>;
  g.DOMParser = win.DOMParser;
  (win.HTMLMediaElement.prototype as unknown as { canPlayType: (t: string) => string }).canPlayType = (t) => (t === 'video/mp4' ? 'maybe' : '');
  const pixels: string[] = [];
  const realFetch = g.fetch;
  g.fetch = async (url: string) => {
    const m = /\/ads\/vast\/([a-z0-9-]+)\.xml$/.exec(url);
    if (m) return { ok: true, headers: { get: () => null }, text: async () => (VAST as Record<string, (o: string) => string>)[m[1]]('http://ads.test') };
    const q = new URL(url).searchParams;
    pixels.push(`${q.get('ad')}:${q.get('ev')}${q.get('code') ? `=${q.get('code')}` : ''}`);
    return { ok: true };
  };
  const store = createStore();
  const bus = createBus();
  const loaded: Array<PlayerEvents['ad:loaded']['ad']> = [];
  bus.on('ad:loaded', ({ ad }) => loaded.push({ ...ad }));
  const tick = () => new Promise((r) => setTimeout(r, 0));
  const warn = console.warn;
  console.warn = () => {};
  const runner = startAds({
    store,
    bus,
    adListUrl: 'http://ads.test/ad-list.json',
    vpaidFrameUrl: '',
    getJson: async () => ({ prerollList: [{ vastUrl: 'http://ads.test/ads/vast/pod-fallback.xml' }, { vastUrl: 'http://ads.test/ads/vast/pod.xml' }], midrollList: [] }),
  });
  runner.mount(document.createElement('div'), null);
  const places: string[] = [];
  /** Plays the ad on screen to its end. */
  const playThrough = async () => {
    for (let i = 0; i < 50 && !runner.session.value; i++) await tick();
    const s = runner.session.value!;
    places.push(`${s.item.id}@${s.pod.index}/${s.pod.size}`);
    const video = s.playback.el as HTMLVideoElement;
    video.play = async () => {};
    video.dispatchEvent(new win.Event('canplaythrough') as unknown as Event);
    video.dispatchEvent(new win.Event('playing') as unknown as Event);
    video.dispatchEvent(new win.Event('ended') as unknown as Event);
    for (let i = 0; i < 5 && runner.session.value === s; i++) await tick();
  };
  try {
    for (let n = 0; n < 4; n++) await playThrough();
    for (let i = 0; i < 20 && store.adState.value !== 'stopped'; i++) await tick();
    assert.equal(places, ['podfb-first-1@1/2', 'podfb-standalone-1@2/2', 'pod-first-1@1/2', 'pod-second-1@2/2']);
    assert.equal(
      loaded.map((a) => [a.id, a.position, a.type]),
      [
        ['podfb-first-1', 1, 'preroll'],
        ['podfb-standalone-1', 2, 'preroll'],
        ['pod-first-1', 3, 'preroll'],
        ['pod-second-1', 4, 'preroll'],
      ],
    );
    assert.ok(pixels.includes('podfb-broken:error=403'), pixels.join(' '));
    assert.not.ok(pixels.some((p) => p.startsWith('podfb-broken:') && p !== 'podfb-broken:error=403'), 'the broken ad fires only its error');
    for (const ad of ['podfb-first', 'podfb-standalone', 'pod-first', 'pod-second']) {
      assert.equal(pixels.filter((p) => p === `${ad}:impression`).length, 1, ad);
      assert.equal(pixels.filter((p) => p === `${ad}:complete`).length, 1, ad);
    }
    assert.is(store.adState.value, 'stopped');
  } finally {
    console.warn = warn;
    runner.destroy();
    g.fetch = realFetch;
  }
});

test.run();
