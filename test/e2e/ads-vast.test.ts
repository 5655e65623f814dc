// VAST as real ad servers answer it: pods, buffets, wrapper failures, old and unknown versions,
// non-linear ads, scoped reading. Each case asserts what plays and the exact IAB code the reference
// ad server's Error URL recorded ([ERRORCODE] filled in by the player).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { open, poll, srv, waitForTime } from './harness';
import { firingOrder } from '../pixel-order';

type Hit = { ad: string; event: string; query: Record<string, string>; time: number };
const hits = (ad?: string): Hit[] => srv().adHits.filter((h) => !ad || h.ad === ad);
const events = (ad: string) => firingOrder(hits(ad).map((h) => h.event));
const codes = (ad: string) => hits(ad).filter((h) => h.event === 'error').map((h) => h.query.code);
const adList = (pre: string) => ({ env_ad_list_url: `/ad-list.json?pre=${pre}&mid=` });

const waitFor = (cond: () => boolean, timeout = 20000, what = 'condition') =>
  poll(() => `${what} (pixels received: ${hits().map((h) => `${h.ad}:${h.event}${h.query.code ? `=${h.query.code}` : ''}`).join(', ') || 'none'})`, cond, { timeout });

const podLabel = (page: Page) => page.evaluate(() => document.querySelector('.pl-ad:not([hidden]) .pl-ad__pod')?.textContent ?? null);

/** Waits for the skip button of the ad on screen to be enabled, and clicks it. */
async function skipWhenAllowed(page: Page): Promise<void> {
  await page.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip:not([disabled])', { timeout: 20000 });
  await page.click('.pl-ad__skip');
}

test.before.each(() => {
  srv().adHits.length = 0;
  srv().clearRequests();
  srv().clearFaults();
});

test('a pod of two plays in sequence order as one break: each ad its own pixels, skip and place (Реклама 1 из 2)', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('pod') });
  try {
    await poll('the first ad of the pod', async () => (await podLabel(p.page)) === 'Реклама 1 из 2', { timeout: 20000 });
    await skipWhenAllowed(p.page);
    await waitFor(() => events('pod-first').includes('skip'), 5000, 'the first ad skipped');
    await poll('the second ad of the pod', async () => (await podLabel(p.page)) === 'Реклама 2 из 2', { timeout: 20000 });
    const during = await p.page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.paused);
    assert.ok(during, 'the content waits between the ads of a pod');
    await skipWhenAllowed(p.page);
    await waitForTime(p.page, 0.5, 20000);
    for (const ad of ['pod-first', 'pod-second']) {
      const ev = events(ad);
      assert.equal(ev.filter((e) => e === 'impression').length, 1, `${ad}: one impression`);
      assert.ok(ev.includes('start') && ev.includes('skip') && !ev.includes('complete'), `${ad}: ${ev.join(',')}`);
      assert.equal(codes(ad), [], `${ad}: no error`);
    }
    const imp = (ad: string) => hits(ad).find((h) => h.event === 'impression')!.time;
    assert.ok(imp('pod-first') <= imp('pod-second'), 'sequence 1 before sequence 2, whatever the document order');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('a pod ad that cannot play (403) is replaced by the stand-alone ad; a buffet falls back past a wrapper to a 404 (301)', async () => {
  let p = await open('?movie_id=1&auto_play=1', { globals: adList('pod-fallback') });
  try {
    await poll('the first ad of the pod', async () => (await podLabel(p.page)) === 'Реклама 1 из 2', { timeout: 20000 });
    await skipWhenAllowed(p.page);
    await poll('the fallback in second place', async () => (await podLabel(p.page)) === 'Реклама 2 из 2' && events('podfb-standalone').includes('start'), { timeout: 20000 });
    assert.equal(codes('podfb-broken'), ['403']);
    assert.not.ok(events('podfb-broken').includes('impression'), 'no impression for the ad that could not play');
    await skipWhenAllowed(p.page);
    await waitForTime(p.page, 0.5, 20000);
    assert.equal(events('podfb-standalone').filter((e) => e === 'impression').length, 1);
  } finally {
    await p.close();
  }
  srv().adHits.length = 0;
  p = await open('?movie_id=1&auto_play=1', { globals: adList('buffet') });
  try {
    await waitFor(() => events('buffet-second').includes('start'), 20000, 'the second stand-alone ad');
    assert.equal(codes('buffet-first'), ['301'], 'the wrapper to a 404 tells its ad server 301');
    assert.is(await podLabel(p.page), null, 'a single ad shows no pod place');
    await skipWhenAllowed(p.page);
    await waitForTime(p.page, 0.5, 20000);
    assert.equal(hits('buffet-third'), [], 'one stand-alone ad plays: the third was not needed');
  } finally {
    await p.close();
  }
});

test('answers that cannot play report their IAB code once to every level, and the content plays', async () => {
  const list = 'vast-one,unknown-version,nonlinear,extensions-linear,wrapper-404,deep,empty';
  const p = await open('?movie_id=1&auto_play=1', { globals: adList(list) });
  try {
    await waitFor(() => codes('empty').length > 0, 25000, 'the last tag of the list');
    await waitForTime(p.page, 0.5, 20000);
    assert.equal(codes('vast-one'), ['102'], 'VAST 1.0');
    assert.equal(codes('unknown-version'), ['102'], 'an unknown version');
    assert.equal(codes('nonlinear'), ['201'], 'non-linear and companion only');
    assert.equal(codes('extensions-linear'), ['201'], 'a Linear inside Extensions is not an ad');
    assert.equal(codes('wrapper-404'), ['301']);
    for (const level of ['deep', 'deep-b', 'deep-c', 'deep-d', 'deep-e', 'deep-f']) assert.equal(codes(level), ['302'], level);
    assert.equal(hits('deep-g'), [], 'the level past the limit is never fetched');
    assert.equal(codes('empty'), ['303']);
    assert.not.ok(hits().some((h) => h.event !== 'error'), `no pixel but errors: ${hits().map((h) => `${h.ad}:${h.event}`).join(', ')}`);
    assert.not.ok(srv().requests.some((r) => r.path.startsWith('/media/ads/')), 'no ad media requested');
    // The browser itself logs the wrapper target's 404; nothing else may fail.
    assert.equal(p.errors.filter((e) => !/status of 404/.test(e)), []);
  } finally {
    await p.close();
  }
});

test('a wrapper whose target stalls past the wrapper timeout reports 301, and the next tag plays', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('wrapper-stall,nonskippable') });
  try {
    await waitFor(() => events('nonskippable').includes('start'), 25000, 'the next tag');
    assert.equal(codes('wrapper-stall'), ['301']);
    assert.equal(hits('stall'), [], 'the stalled answer never played');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('click tracking of every wrapper level fires once on a click-through', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('clicks') });
  try {
    await p.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 0.3, null, { timeout: 20000 });
    const [landing] = await Promise.all([p.context.waitForEvent('page'), p.page.click('.pl-ad__click')]);
    await landing.waitForLoadState();
    assert.match(landing.url(), /\/ads\/landing\?ad=clicks-inner$/);
    const clicks = () =>
      hits()
        .filter((h) => h.event === 'click')
        .map((h) => `${h.ad}:${h.query.part ?? ''}`)
        .sort();
    await waitFor(() => clicks().length >= 5, 5000, 'five click pixels');
    assert.equal(clicks(), ['clicks-inner:', 'clicks-middle:a', 'clicks-middle:b', 'clicks:a', 'clicks:b']);
    for (const ad of ['clicks', 'clicks-middle', 'clicks-inner']) assert.equal(events(ad).filter((e) => e === 'start').length, 1, `${ad}: start once`);
  } finally {
    await p.close();
  }
});

test('element names in Cyrillic inside Extensions are valid XML: the ad plays', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('non-ascii') });
  try {
    await waitFor(() => events('non-ascii').includes('start'), 20000, 'the ad');
    assert.equal(codes('non-ascii'), []);
    assert.equal(p.csp, [], 'no parser error page for the CSP to report');
  } finally {
    await p.close();
  }
});

test.run();
