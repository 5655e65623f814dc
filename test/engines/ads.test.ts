// Video ads from a third-party origin, as real ad servers are: the ad list, the VAST documents, the
// media and the pixels on another reference server (http://localhost:N, the player on 127.0.0.1),
// configured on the player page as partners do (srv().setAdListUrl). A click on play starts each break.
import { test } from './journey';
import * as assert from 'uvu/assert';
import { poll } from '../e2e/harness';
import type { RefServer, Tab } from './driver';
import { srv, startExtraServer, timeAbove, video, within } from './harness';
import { firingOrder } from '../pixel-order';

const T = 20000;
let ads: RefServer;

test.before(async () => {
  ads = await startExtraServer('localhost');
});
test.before.each(() => {
  ads.adHits.length = 0;
  ads.clearRequests();
});
test.after(async () => {
  srv().setAdListUrl(undefined);
  await ads?.close();
});

const useAds = (pre: string, mid = '') => srv().setAdListUrl(`${ads.url}/ad-list.json?pre=${pre}&mid=${mid}`);
const events = (ad: string) => firingOrder(ads.adHits.filter((h) => h.ad === ad).map((h) => h.event));
const waitPixels = (what: string, cond: () => boolean, timeout = T) =>
  poll(() => `${what} (pixels: ${ads.adHits.map((h) => `${h.ad}:${h.event}`).join(', ') || 'none'})`, cond, { timeout });
const adTime = (tab: Tab) => tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad:not([hidden]) .pl-ad__video')?.currentTime ?? 0);

/**
 * Starts the break as a viewer does. The pre-roll loads on mount (SPEC §4) but waits, unseen and
 * unbilled, under the big play button; the viewer's click on it plays the ad (a gesture: with sound).
 */
async function start(tab: Tab) {
  await tab.waitForSelector('.pl-big-play');
  assert.is(await tab.count('.pl-ad:not([hidden])'), 0, 'no ad over the play button');
  await tab.click('.pl-big-play');
  await tab.waitFor(() => (document.querySelector<HTMLVideoElement>('.pl-ad:not([hidden]) .pl-ad__video')?.currentTime ?? 0) > 0.2, undefined, T, 'the ad playing');
  assert.not.ok(await tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused), 'the ad plays');
}

/** After the break the film plays by itself: the viewer's click asked for it. */
async function filmAfter(tab: Tab, past = 0.5) {
  await tab.waitForGone('.pl-ad:not([hidden])', 30000);
  await timeAbove(tab, past);
}

/** Waits for the skip button's countdown to end and clicks it. */
async function skip(tab: Tab) {
  await tab.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip');
  await tab.waitForSelector('.pl-ad__skip:not([disabled])', 10000);
  assert.is((await tab.text('.pl-ad__skip'))!.trim(), 'Пропустить');
  await tab.click('.pl-ad__skip:not([disabled])');
}

test('a pre-roll with skip: countdown, skip after 2 s, its pixels on the ad origin, then the film', async () => {
  useAds('skippable');
  await within('?movie_id=1', async (tab) => {
    await start(tab);
    await tab.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip');
    assert.match((await tab.text('.pl-ad__skip'))!, /^Пропустить [12]$/);
    assert.ok(await tab.evaluate(() => document.querySelector<HTMLButtonElement>('.pl-ad__skip')!.disabled), 'not skippable before the offset');
    assert.ok((await video(tab)).paused, 'the film waits');
    assert.is(await tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.currentSrc), `${ads.url}/media/ads/ad.mp4`);
    await skip(tab);
    await filmAfter(tab);
    await waitPixels('the skip pixel', () => events('skippable').includes('skip'));
    const ev = events('skippable');
    assert.equal(ev.filter((e) => e === 'impression').length, 1, 'one impression');
    assert.ok(ev.indexOf('impression') < ev.indexOf('start'), 'impression, then start');
    assert.not.ok(ev.includes('complete'), 'a skipped ad is not complete');
    assert.not.ok(ev.includes('error'), `no error pixel: ${JSON.stringify(ads.adHits.filter((h) => h.event === 'error').map((h) => h.query))}`);
    assert.is(await tab.count('.pl-ad:not([hidden])'), 0, 'the ad is gone');
  });
});

test('a non-skippable pre-roll plays to its end: every quartile pixel once, in order', async () => {
  useAds('nonskippable');
  await within('?movie_id=1', async (tab) => {
    await start(tab);
    await tab.waitFor(() => (document.querySelector<HTMLVideoElement>('.pl-ad:not([hidden]) .pl-ad__video')?.currentTime ?? 0) > 1, undefined, T, 'the ad playing');
    assert.is(await tab.count('.pl-ad__skip'), 0, 'no skip button');
    await filmAfter(tab, 1);
    const order = ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'];
    assert.equal(events('nonskippable').filter((e) => order.includes(e)), order);
    const imp = ads.adHits.find((h) => h.ad === 'nonskippable' && h.event === 'impression')!;
    assert.match(imp.query.cb, /^\d{8}$/, '[CACHEBUSTING] filled');
  });
});

test('a pre-roll that nobody asked to play bills nothing; the first click on the picture plays it, not the advertiser', async () => {
  useAds('skippable');
  await within('?movie_id=1', async (tab) => {
    await tab.waitFor(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.readyState === 4, undefined, T, 'the pre-roll loaded');
    await waitPixels('the loaded pixel', () => events('skippable').includes('loaded'));
    assert.equal(events('skippable'), ['loaded'], 'no impression or start before it plays');
    // The middle of the player, where the big play button is: it plays the ad, opens no page.
    await tab.clickAt(480, 270);
    await tab.waitFor(() => (document.querySelector<HTMLVideoElement>('.pl-ad:not([hidden]) .pl-ad__video')?.currentTime ?? 0) > 0.3, undefined, T, 'the ad playing');
    assert.not.ok(events('skippable').includes('click'), 'no click-through');
    assert.ok(events('skippable').indexOf('impression') < events('skippable').indexOf('start'), 'impression, then start, once it plays');
    assert.not.ok(await tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.muted), 'the viewer\'s click gives the ad its sound');
    await skip(tab);
    await filmAfter(tab);
  });
});

test("the viewer's click that starts the pre-roll gives the film its sound too: after the ad's end it plays unmuted at the stored volume", async () => {
  // Played to its end: no click on skip (a gesture of its own) comes between the viewer's play and the film.
  useAds('nonskippable');
  await within('?movie_id=1', async (tab) => {
    await tab.waitForSelector('.pl-big-play');
    await tab.evaluate(() => localStorage.setItem('player-volume', '0.6'));
    await tab.reload();
    await start(tab);
    assert.not.ok(await tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.muted), 'the ad with sound');
    // Seconds after the click: WebKit refuses the sound of an element no gesture changed, and the
    // player would go on muted under the unmute chip.
    await filmAfter(tab, 2);
    const v = await video(tab);
    assert.not.ok(v.muted, 'the film with sound');
    assert.not.ok(v.paused, 'and playing');
    assert.ok(Math.abs(v.volume - 0.6) < 1e-6, `at the stored volume: ${v.volume}`);
    assert.is(await tab.count('.pl-unmute'), 0, 'no unmute chip');
  });
});

test('with auto_play the pre-roll plays by itself, muted where sound needs a gesture, with its unmute button; the film follows', async () => {
  useAds('nonskippable');
  await within('?movie_id=1&auto_play=1', async (tab) => {
    await tab.waitFor(() => (document.querySelector<HTMLVideoElement>('.pl-ad:not([hidden]) .pl-ad__video')?.currentTime ?? 0) > 0.3, undefined, T, 'the ad playing by itself');
    // Every engine here refuses sound without a gesture (WebKit once it has found the sound: a moment after it starts).
    await tab.waitFor(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.muted === true, undefined, 5000, 'the ad muted');
    assert.not.ok(await tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused), 'and playing');
    assert.is(await tab.evaluate(() => document.querySelector('.pl-ad__mute')!.getAttribute('aria-label')), 'Включить звук');
    assert.not.ok(events('nonskippable').includes('pause'), 'no pause pixel for the refused sound');
    await tab.click('.pl-ad__mute');
    await tab.waitFor(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.muted === false, undefined, T, 'the ad unmuted');
    await waitPixels('the unmute pixel', () => events('nonskippable').includes('unmute'));
    await tab.waitForGone('.pl-ad:not([hidden])', 30000);
    await timeAbove(tab, 0.5);
  });
});

test('a mid-roll: film 5 seeked past half pauses for it, skip resumes the film, once', async () => {
  useAds('', 'skippable');
  await within('?movie_id=5', async (tab) => {
    await tab.click('.pl-big-play');
    await timeAbove(tab, 0.5);
    assert.is(ads.adHits.length, 0, 'no pre-roll with an empty list');
    await tab.evaluate(() => void (document.querySelector('video')!.currentTime = 1000));
    await tab.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip');
    assert.ok((await video(tab)).paused, 'the film pauses for the mid-roll');
    await skip(tab);
    await timeAbove(tab, 1001);
    assert.equal(events('skippable').filter((e) => e === 'impression').length, 1);
    assert.ok(events('skippable').includes('skip'));
  });
});

test('a pod of two plays as one break: Реклама 1 из 2, then 2 из 2, each with its own pixels', async () => {
  useAds('pod');
  const podLabel = (tab: Tab) => tab.evaluate(() => document.querySelector('.pl-ad:not([hidden]) .pl-ad__pod')?.textContent ?? null);
  await within('?movie_id=1', async (tab) => {
    await start(tab);
    await poll('the first ad of the pod', async () => (await podLabel(tab)) === 'Реклама 1 из 2', { timeout: T });
    await skip(tab);
    await poll('the second ad of the pod', async () => (await podLabel(tab)) === 'Реклама 2 из 2', { timeout: T });
    assert.ok((await video(tab)).paused, 'the film waits between the ads');
    assert.ok((await adTime(tab)) < 2, 'the second ad from its start');
    await skip(tab);
    await filmAfter(tab);
    for (const ad of ['pod-first', 'pod-second']) {
      const ev = events(ad);
      assert.equal(ev.filter((e) => e === 'impression').length, 1, `${ad}: one impression`);
      assert.ok(ev.includes('start') && ev.includes('skip') && !ev.includes('error'), `${ad}: ${ev.join(',')}`);
    }
  });
});

test.run();
