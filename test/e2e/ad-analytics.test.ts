// Ad analytics are live: a pre-roll's events reach the page's analytics function as they happen,
// before the content's first frame, ad_timeupdate at most once a second, and a viewer who leaves
// during the pre-roll still leaves its first events sent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { analyticsCalls, beaconedAnalytics, open, poll, srv, waitForTime } from './harness';

const PREROLL = { env_ad_list_url: '/ad-list.json?pre=nonskippable&mid=' };

const adTime = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0);
const contentTime = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime);

test.before.each(() => {
  srv().cspReports.length = 0;
  beaconedAnalytics().length = 0;
});

test('during a pre-roll its events are sent as they happen; ad_timeupdate at most once a second of real time', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: PREROLL, captureAnalytics: 'gtag' });
  try {
    await poll('the pre-roll at 4 s of its 6', async () => (await adTime(p.page)) > 4, { timeout: 25000 });
    const during = await analyticsCalls(p.page);
    assert.is(await contentTime(p.page), 0, 'the content has not started: no first frame yet');
    const names = during.map((c) => c.name);
    for (const name of ['videoplayer_ad_init', 'videoplayer_ad_loaded', 'videoplayer_ad_play']) assert.ok(names.includes(name), `${name} in ${names}`);
    const ticks = during.filter((c) => c.name === 'videoplayer_ad_timeupdate');
    assert.ok(ticks.length >= 2, `ad_timeupdate while the ad plays: ${ticks.length}`);
    assert.equal(ticks[0].fields.ad_id, ['nonskippable-1'], 'with the ad history');
    await waitForTime(p.page, 1, 25000);
    const all = (await analyticsCalls(p.page)).filter((c) => c.name === 'videoplayer_ad_timeupdate');
    const gaps = all.slice(1).map((c, i) => Math.round(c.at - all[i].at));
    assert.ok(
      gaps.every((g) => g >= 990),
      `a second of real time between ad_timeupdate calls: ${gaps.join(', ')} ms`,
    );
    const positions = all.map((c) => Number(c.fields.ad_current_time));
    assert.ok(
      positions.every((t, i) => i === 0 || t > positions[i - 1]),
      `each reports the ad's position then: ${positions.join(', ')}`,
    );
    assert.equal(p.csp, []);
    assert.equal(srv().cspReports, []);
  } finally {
    await p.close();
  }
});

test('a viewer who closes the page during the pre-roll: ad_init, ad_loaded and ad_play were sent', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: PREROLL, beaconAnalytics: 'gtag' });
  let closed = false;
  try {
    await poll('the pre-roll playing', async () => (await adTime(p.page)) > 1, { timeout: 25000 });
    assert.is(await contentTime(p.page), 0, 'still in the pre-roll');
    await p.page.close({ runBeforeUnload: true });
    await p.close();
    closed = true;
    const sent = await poll(
      () => `the ad events among the beacons: ${beaconedAnalytics().map((b) => b.name)}`,
      () => {
        const names = beaconedAnalytics().map((b) => b.name);
        return ['videoplayer_ad_init', 'videoplayer_ad_loaded', 'videoplayer_ad_play'].every((n) => names.includes(n)) ? beaconedAnalytics() : undefined;
      },
      { timeout: 10000 },
    );
    const play = sent.find((b) => b.name === 'videoplayer_ad_play')!;
    assert.equal(play.fields.ad_id, ['nonskippable-1']);
    assert.equal(play.fields.ad_type, ['preroll']);
    assert.is(play.fields.video_id, 1);
    assert.equal(srv().cspReports, []);
  } finally {
    if (!closed) await p.close();
  }
});

test.run();
