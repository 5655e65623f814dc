import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { clickPlay, open, srv, videoState, waitForTime } from './harness';

type Hit = { ad: string; event: string; query: Record<string, string>; time: number };
const hits = (ad?: string): Hit[] => srv().adHits.filter((h) => !ad || h.ad === ad);
const events = (ad: string) => hits(ad).map((h) => h.event);
const adList = (pre: string, mid = '') => ({ env_ad_list_url: `/ad-list.json?pre=${pre}&mid=${mid}` });

async function waitFor(cond: () => boolean, timeout = 20000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeout;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const adVideo = (page: Page) =>
  page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('.pl-ad__video');
    return v ? { currentTime: v.currentTime, paused: v.paused, src: v.currentSrc } : null;
  });

test.before.each(() => {
  srv().adHits.length = 0;
  srv().clearFaults();
});

test('a pre-roll plays before movie 1, its pixels fire in order, then the content starts', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('nonskippable') });
  try {
    await p.page.waitForSelector('.pl-ad:not([hidden]) .pl-ad__video', { timeout: 20000 });
    await p.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
    const during = await videoState(p.page);
    assert.ok(during.paused && during.currentTime < 0.5, 'the content waits while the ad plays');
    assert.match((await adVideo(p.page))!.src, /\/media\/ads\/ad\.mp4$/);
    assert.is(await p.page.textContent('.pl-ad__skip').catch(() => null), null, 'no skip button on a non-skippable ad');
    await waitForTime(p.page, 1, 25000);
    assert.is(await p.page.$('.pl-ad:not([hidden])'), null, 'the overlay is gone');
    const order = events('nonskippable').filter((e) => ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'].includes(e));
    assert.equal(order, ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete']);
    assert.equal(events('nonskippable').filter((e) => e === 'impression').length, 1, 'one impression');
    const imp = hits('nonskippable').find((h) => h.event === 'impression')!;
    assert.match(imp.query.cb, /^\d{8}$/, '[CACHEBUSTING] filled');
    assert.ok(!Number.isNaN(Date.parse(imp.query.ts)), '[TIMESTAMP] filled');
    assert.equal(p.errors, []);
    assert.equal(p.csp, []);
  } finally {
    await p.close();
  }
});


test.run();
