// An ad's media files in turn (issue 24): a file that fails to load is followed by the next suitable
// one before the ad is given up, and IAB 405 is reported only when none plays. WebKit answers 'maybe'
// to FLV and cannot play it; here Chromium plays that part by being told so, and the reference ad
// server offers an MP4 whose bytes are not a video (/ads/broken.mp4) before the real one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { open, poll, srv, waitForTime } from './harness';
import { firingOrder } from '../pixel-order';

const hits = (ad: string) => srv().adHits.filter((h) => h.ad === ad);
const events = (ad: string) => firingOrder(hits(ad).map((h) => h.event));
const codes = (ad: string) => hits(ad).filter((h) => h.event === 'error').map((h) => h.query.code);
const adList = (pre: string) => ({ env_ad_list_url: `/ad-list.json?pre=${pre}&mid=` });
const requested = (path: string) => srv().requests.some((r) => r.path === path);
const adVideoSrc = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentSrc ?? null);

/** The browser's own log lines for the media that failed, which the tests expect. */
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 404|broken\.mp4|ad\.flv/.test(e));

async function skipWhenAllowed(page: Page): Promise<void> {
  await page.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip:not([disabled])', { timeout: 20000 });
  await page.click('.pl-ad__skip');
}

test.before.each(() => {
  srv().adHits.length = 0;
  srv().clearRequests();
  srv().clearFaults();
});

test('the first media file fails to load: the pre-roll plays from the next, its pixels arrive, no 405', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('media-fallback') });
  try {
    await poll(() => `the pre-roll from the second file (pixels: ${events('media-fallback').join(',')})`, () => events('media-fallback').includes('start'), { timeout: 20000 });
    assert.ok(requested('/ads/broken.mp4'), 'the broken file was tried first');
    assert.ok((await adVideoSrc(p.page))?.endsWith('/media/ads/ad.mp4'), 'the ad plays from the real MP4');
    assert.not.ok(requested('/media/ads/ad.flv'), 'the FLV, which Chromium refuses, is never asked for');
    const ev = events('media-fallback');
    assert.equal(ev.filter((e) => e === 'impression').length, 1, 'one impression');
    assert.ok(ev.includes('loaded') && ev.includes('start'), ev.join(','));
    assert.equal(codes('media-fallback'), [], 'no error pixel');
    await skipWhenAllowed(p.page);
    await waitForTime(p.page, 0.5, 20000);
    assert.equal(codes('media-fallback'), []);
    assert.equal(unexpected(p.errors), []);
  } finally {
    await p.close();
  }
});

test("an engine that says 'maybe' to FLV (WebKit) plays the default pre-roll from its MP4, never the FLV", async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('skippable') });
  try {
    await p.page.addInitScript(() => {
      const canPlayType = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (this: HTMLMediaElement, type: string) {
        return /^video\/x-flv/i.test(type) ? 'maybe' : canPlayType.call(this, type);
      };
    });
    srv().adHits.length = 0;
    srv().clearRequests();
    await p.page.reload();
    assert.is(await p.page.evaluate(() => document.createElement('video').canPlayType('video/x-flv')), 'maybe');
    await poll(() => `the pre-roll (pixels: ${events('skippable').join(',')})`, () => events('skippable').includes('start'), { timeout: 20000 });
    assert.ok((await adVideoSrc(p.page))?.endsWith('/media/ads/ad.mp4'));
    assert.not.ok(requested('/media/ads/ad.flv'), 'the FLV, listed first, is not tried while the MP4 plays');
    assert.equal(codes('skippable'), []);
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('no media file plays: every one is tried, then a single 405, and the content plays', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('media-broken') });
  try {
    await waitForTime(p.page, 0.5, 25000);
    assert.ok(requested('/ads/broken.mp4') && requested('/media/ads/missing.mp4'), 'both files were tried');
    assert.equal(codes('media-broken'), ['405'], 'one error pixel, the IAB code of failed media delivery');
    assert.not.ok(events('media-broken').some((e) => e === 'impression' || e === 'start'));
    assert.equal(unexpected(p.errors), []);
  } finally {
    await p.close();
  }
});

test.run();
