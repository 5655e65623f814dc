// An ad's media files in turn (issue 24): a file that fails before its ad loads is followed by the
// next suitable one, and the ad is given up (one error pixel, IAB 405) only when none plays. The
// engine answers as WebKit does: 'maybe' to FLV, which it cannot play. VAST documents from the
// reference ad server; fetch is stubbed and records every pixel (pixels go through fetch with keepalive).
import type { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../../server/ads.mjs';
import { startAds } from '../../../src/ads/runner';
import { createBus } from '../../../src/core/bus';
import type { PlayerError } from '../../../src/core/errors';
import { createStore } from '../../../src/core/store';
import { installDom } from '../dom';
import { flush, quiet } from '../fakes';

const g = globalThis as Record<string, unknown>;
const realFetch = g.fetch;
const O = 'http://ads.test';

/** WebKitGTK's answers: 'probably' to MP4 with its codecs, 'maybe' to MP4 without and to FLV. */
const webkitCanPlay = (t: string) => (/^video\/mp4/.test(t) ? (t.includes('codecs') ? 'probably' : 'maybe') : /^video\/x-flv/.test(t) ? 'maybe' : '');

function setup(tag: string) {
  const win = installDom() as unknown as Window;
  g.DOMParser = win.DOMParser;
  (win.HTMLMediaElement.prototype as unknown as { canPlayType: (t: string) => string }).canPlayType = webkitCanPlay;
  const pixels: string[] = [];
  g.fetch = async (url: string, init?: RequestInit) => {
    const m = /\/ads\/vast\/([a-z-]+)\.xml$/.exec(url);
    if (m) return { ok: true, status: 200, headers: { get: () => null }, text: async () => (VAST as Record<string, (o: string) => string>)[m[1]](O) };
    if (init?.keepalive) {
      const q = new URL(url).searchParams;
      pixels.push(`${q.get('ev')}${q.get('code') ? `=${q.get('code')}` : ''}`);
    }
    return { ok: true };
  };
  const store = createStore();
  const bus = createBus();
  const seen: PlayerError[] = [];
  bus.on('player:error', ({ error }) => seen.push(error));
  const runner = startAds({ store, bus, adListUrl: `${O}/ad-list.json`, vpaidFrameUrl: '', getJson: async () => ({ prerollList: [{ vastUrl: `${O}/ads/vast/${tag}.xml` }], midrollList: [] }) });
  runner.mount(document.createElement('div'), null);
  const fire = (el: HTMLElement, type: string) => el.dispatchEvent(new win.Event(type) as unknown as Event);
  /** The <video> of the ad on screen once it plays another file than `previous` (one element serves every ad). */
  const nextVideo = async (previous?: HTMLVideoElement) => {
    const before = previous?.getAttribute('src');
    for (let i = 0; i < 40; i++) {
      const el = runner.session.value?.playback.el as HTMLVideoElement | undefined;
      const src = el?.getAttribute('src');
      if (el && src && src !== before) return el;
      await flush(1);
    }
    throw new Error('no ad video');
  };
  const done = () => {
    runner.destroy();
    g.fetch = realFetch;
  };
  return { store, runner, pixels, seen, fire, nextVideo, done };
}

test('a type the engine only guesses at (FLV, "maybe") is tried after the MP4', async () => {
  const s = setup('nonskippable');
  try {
    const video = await s.nextVideo();
    assert.is(video.getAttribute('src'), `${O}/media/ads/ad.mp4`, 'the FLV is listed first, the MP4 is tried first');
  } finally {
    s.done();
  }
});

test('a media file that fails to load is followed by the next: the ad plays from it, no error is reported', async () => {
  const s = setup('media-fallback');
  try {
    const first = await s.nextVideo();
    assert.is(first.getAttribute('src'), `${O}/ads/broken.mp4`);
    const { warnings } = await quiet(async () => {
      s.fire(first, 'error');
      await flush(2);
    });
    assert.ok(String(warnings[0]).includes('trying the next one'), 'the failure is logged');
    const failed = `${O}/ads/broken.mp4`;
    const second = await s.nextVideo({ getAttribute: () => failed } as unknown as HTMLVideoElement);
    assert.is(second, first, 'the same element, an engine that allowed it sound once allows it again');
    assert.is(second.getAttribute('src'), `${O}/media/ads/ad.mp4`);
    second.play = async () => {};
    s.fire(second, 'canplaythrough');
    s.fire(second, 'playing');
    await flush(2);
    assert.is(s.runner.session.value!.status.value, 'started');
    assert.is(s.store.adState.value, 'ready');
    assert.equal(s.pixels, ['loaded', 'impression', 'start']);
    assert.equal(s.seen, [], 'no ad error on the bus');
    assert.is(s.runner.session.value!.item.position, 1, 'still the first ad of the break');
  } finally {
    s.done();
  }
});

test('every file fails: each is tried, then one error pixel (405) and the break ends', async () => {
  const s = setup('media-broken');
  try {
    const first = await s.nextVideo();
    assert.is(first.getAttribute('src'), `${O}/ads/broken.mp4`);
    await quiet(async () => {
      s.fire(first, 'error');
      const second = await s.nextVideo(first);
      assert.is(second.getAttribute('src'), `${O}/media/ads/missing.mp4`);
      assert.equal(s.pixels, [], 'nothing reported while a file is left');
      s.fire(second, 'error');
      for (let i = 0; i < 20 && s.store.adState.value !== 'stopped'; i++) await flush(1);
    });
    assert.equal(s.pixels, ['error=405']);
    assert.equal(s.seen.map((e) => e.code), ['vast-405']);
    assert.is(s.store.adState.value, 'stopped');
  } finally {
    s.done();
  }
});

test('a file that fails after its ad loaded is the ad failing: no other file is tried', async () => {
  const s = setup('media-fallback');
  try {
    const first = await s.nextVideo();
    first.play = async () => {};
    s.fire(first, 'canplaythrough');
    await quiet(async () => {
      s.fire(first, 'error');
      for (let i = 0; i < 20 && s.store.adState.value !== 'stopped'; i++) await flush(1);
    });
    assert.equal(s.pixels, ['loaded', 'error=405']);
    assert.is(s.store.adState.value, 'stopped');
  } finally {
    s.done();
  }
});

test.run();
