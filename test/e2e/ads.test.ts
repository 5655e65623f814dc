import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { clickPlay, open, poll, srv, videoState, waitForTime } from './harness';
import { firingOrder } from '../pixel-order';

type Hit = { ad: string; event: string; query: Record<string, string>; time: number };
const hits = (ad?: string): Hit[] => srv().adHits.filter((h) => !ad || h.ad === ad);
const events = (ad: string) => firingOrder(hits(ad).map((h) => h.event));
const adList = (pre: string, mid = '') => ({ env_ad_list_url: `/ad-list.json?pre=${pre}&mid=${mid}` });

/** Waits for the reference ad server's pixel log to satisfy `cond`; a timeout lists the pixels it got. */
const waitFor = (cond: () => boolean, timeout = 20000, what = 'condition') =>
  poll(() => `${what} (pixels received: ${hits().map((h) => `${h.ad}:${h.event}`).join(', ') || 'none'})`, cond, { timeout });

const adVideo = (page: Page) =>
  page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('.pl-ad__video');
    return v ? { currentTime: v.currentTime, paused: v.paused, src: v.currentSrc } : null;
  });

test.before.each(() => {
  srv().adHits.length = 0;
  srv().clearRequests();
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
    assert.is(await p.page.evaluate(() => navigator.mediaSession.metadata?.title), 'Объявление');
    const listCall = srv().requests.find((r) => r.path === '/ad-list.json');
    assert.ok(listCall && 'x-session-context' in listCall.headers, 'the ad list carries the common headers');
    assert.is(await p.page.$('.pl-ad__skip'), null, 'no skip button on a non-skippable ad');
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


test('a pause message from the embedding page pauses a playing ad', async () => {
  const p = await open('', { path: '/', globals: adList('nonskippable') });
  try {
    await p.page.evaluate(() => {
      (document.getElementById('player') as HTMLIFrameElement).src = '/player/?movie_id=1&auto_play=1';
    });
    const frame = p.page.frame({ name: 'player' })!;
    await frame.waitForURL((u) => u.href.endsWith('auto_play=1'), { timeout: 15000 });
    await frame.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
    assert.not.ok(await frame.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused));
    await p.page.click('#send-pause');
    await frame.waitForFunction(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused, null, { timeout: 5000 });
    await waitFor(() => events('nonskippable').includes('pause'), 5000, 'the pause pixel');
    assert.ok(await frame.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.paused), 'the content stays paused');
  } finally {
    await p.close();
  }
});

test('skip shows its countdown, then skips after the offset: the skip pixel fires and the content starts', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('skippable') });
  try {
    await p.page.waitForSelector('.pl-ad__skip', { timeout: 20000 });
    assert.match((await p.page.textContent('.pl-ad__skip'))!, /^Пропустить [12]$/);
    assert.ok(await p.page.isDisabled('.pl-ad__skip'), 'not skippable before the offset');
    await p.page.waitForSelector('.pl-ad__skip:not([disabled])', { timeout: 10000 });
    assert.is((await p.page.textContent('.pl-ad__skip'))!.trim(), 'Пропустить');
    assert.ok(await p.page.$('.pl-ad__skip svg'), 'an icon once the countdown ends');
    const t = (await adVideo(p.page))!.currentTime;
    assert.ok(t >= 2 && t < 5, `skippable at the 2 s offset (at ${t})`);
    await p.page.click('.pl-ad__skip');
    await waitForTime(p.page, 0.5, 20000);
    const ev = events('skippable');
    assert.ok(ev.includes('skip'), 'skip fired');
    assert.not.ok(ev.includes('complete'), 'a skipped ad is not complete');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('a wrapper ad fires the trackers of both levels', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('wrapper') });
  try {
    await waitFor(() => events('wrapper').includes('firstQuartile') && events('wrapped').includes('firstQuartile'), 25000, 'quartiles of both levels');
    // The click-through opens the advertiser in a new tab, fires both levels' click tracking and pauses the ad.
    const [landing] = await Promise.all([p.context.waitForEvent('page'), p.page.click('.pl-ad__click')]);
    await landing.waitForLoadState();
    assert.match(landing.url(), /\/ads\/landing\?ad=wrapped$/);
    await waitFor(() => events('wrapper').includes('click') && events('wrapped').includes('click'), 5000, 'click tracking');
    await p.page.waitForFunction(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.paused === true, null, { timeout: 5000 });
    await p.page.click('.pl-ad__play');
    for (const ad of ['wrapper', 'wrapped']) {
      const ev = events(ad);
      assert.equal(ev.filter((e) => e === 'impression').length, 1, `${ad}: one impression`);
      assert.ok(ev.indexOf('impression') < ev.indexOf('start'), `${ad}: impression then start`);
    }
    await waitForTime(p.page, 0.5, 25000);
    assert.ok(events('wrapper').includes('complete') && events('wrapped').includes('complete'));
  } finally {
    await p.close();
  }
});

test('malformed, empty and unsupported VAST each fire their error URL with their code; the content still plays', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('malformed,empty,unsupported,no-media,wrapper-loop') });
  try {
    await waitForTime(p.page, 1, 30000);
    const codes = (ad: string) => hits(ad).filter((h) => h.event === 'error').map((h) => h.query.code);
    assert.equal(codes('malformed'), ['100']);
    assert.equal(codes('empty'), ['303'], 'no ad: 303');
    assert.equal(codes('unsupported'), ['403']);
    assert.equal(codes('no-media'), ['401']);
    assert.equal(codes('wrapper-loop').length, 6, 'every level of the loop up to the limit');
    assert.ok(codes('wrapper-loop').every((c) => c === '302'), 'the wrapper limit: 302');
    assert.not.ok(hits().some((h) => h.event === 'impression'), 'no impression for an ad never shown');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('the ad-list endpoint failing or stalling does not hold the content past its timeout', async () => {
  srv().setFaults([{ match: '/ad-list.json', status: 500 }]);
  let p = await open('?movie_id=1&auto_play=1', { globals: adList('nonskippable') });
  try {
    const t0 = Date.now();
    await waitForTime(p.page, 0.5, 20000);
    assert.ok(Date.now() - t0 < 8000, 'a failing ad list releases the content at once');
    assert.is(hits().length, 0);
  } finally {
    await p.close();
  }
  srv().setFaults([{ match: '/ad-list.json', stall: true }]);
  p = await open('?movie_id=1&auto_play=1', { globals: adList('nonskippable') });
  try {
    const t0 = Date.now();
    await waitForTime(p.page, 0.2, 20000);
    const waited = Date.now() - t0;
    assert.ok(waited < 5000 + 6000, `a stalled ad list holds the content for its 5 s timeout only (${waited} ms)`);
  } finally {
    await p.close();
  }
  srv().setFaults([{ match: '/ads/vast/', stall: true }]);
  p = await open('?movie_id=1&auto_play=1', { globals: adList('nonskippable') });
  try {
    await waitForTime(p.page, 0.2, 20000);
  } finally {
    await p.close();
  }
});

test('movie 5 seeked past half plays a mid-roll once, then resumes the film', async () => {
  const p = await open('?movie_id=5', { globals: adList('', 'skippable') });
  try {
    await clickPlay(p.page);
    await waitForTime(p.page, 0.5, 20000);
    assert.is(hits().length, 0, 'no pre-roll with an empty list');
    await p.page.evaluate(() => {
      document.querySelector('video')!.currentTime = 1000;
    });
    await p.page.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip', { timeout: 20000 });
    assert.ok((await videoState(p.page)).paused, 'the film pauses for the mid-roll');
    await p.page.waitForSelector('.pl-ad__skip:not([disabled])', { timeout: 10000 });
    await p.page.click('.pl-ad__skip');
    await waitForTime(p.page, 1001, 20000);
    const ev = events('skippable');
    assert.equal(ev.filter((e) => e === 'impression').length, 1);
    assert.ok(ev.includes('skip'));
    await p.page.evaluate(() => {
      document.querySelector('video')!.currentTime = 1200;
    });
    await waitForTime(p.page, 1201, 20000);
    assert.is(await p.page.$('.pl-ad:not([hidden])'), null, 'once per episode');
    assert.equal(events('skippable').filter((e) => e === 'impression').length, 1);
  } finally {
    await p.close();
  }
});

test('picture-in-picture: a mid-roll plays in the window the viewer watches in, and the film gets it back after', async () => {
  const p = await open('?movie_id=5', { globals: adList('', 'nonskippable') });
  const pipHolder = () =>
    p.page.evaluate(() => {
      const el = document.pictureInPictureElement;
      return el ? el.className : null;
    });
  try {
    await clickPlay(p.page);
    await waitForTime(p.page, 0.5, 20000);
    await p.page.mouse.move(300, 200);
    await p.page.click('[data-action="pip"]');
    await p.page.waitForFunction(() => document.pictureInPictureElement?.classList.contains('pl-video'));
    await p.page.evaluate(() => {
      document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime = 1000;
    });
    await p.page.waitForFunction(() => document.pictureInPictureElement?.classList.contains('pl-ad__video'), null, { timeout: 20000 });
    await waitFor(() => events('nonskippable').includes('start'), 20000, 'the mid-roll in the window');
    await waitFor(() => events('nonskippable').includes('complete'), 20000, 'the mid-roll to complete');
    await p.page.waitForFunction(() => document.pictureInPictureElement?.classList.contains('pl-video'), null, { timeout: 10000 });
    await waitForTime(p.page, 1001, 20000);
    assert.is(await pipHolder(), 'pl-video');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('a hidden tab pauses the ad and a visible one resumes it; the pause pixel fires once', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('nonskippable') });
  try {
    await p.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 0.5, null, { timeout: 20000 });
    // Headless Chromium never hides its only tab: the page is told it is hidden the way a browser does.
    const setHidden = (hidden: boolean) =>
      p.page.evaluate(`(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${hidden ? 'hidden' : 'visible'}' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${hidden} });
        document.dispatchEvent(new Event('visibilitychange'));
      })()`);
    await setHidden(true);
    await p.page.waitForFunction(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.paused === true, null, { timeout: 5000 });
    const at = (await adVideo(p.page))!.currentTime;
    // A duration by design: "stays paused" is nothing happening for a while (700 ms); no event to wait on.
    await p.page.waitForTimeout(700);
    assert.is((await adVideo(p.page))!.currentTime, at, 'stays paused while hidden');
    await waitFor(() => events('nonskippable').includes('pause'), 5000, 'pause pixel');
    await setHidden(false);
    await p.page.waitForFunction((t) => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > t + 0.3, at, { timeout: 5000 });
    await waitFor(() => events('nonskippable').includes('resume'), 5000, 'resume pixel');
    // A click on pause wins over visibility.
    await p.page.click('.pl-ad__play');
    await p.page.waitForFunction(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.paused === true, null, { timeout: 5000 });
    await setHidden(true);
    await setHidden(false);
    // A duration by design: a wrong resume would follow the visible tab asynchronously; give it 500 ms to not happen.
    await p.page.waitForTimeout(500);
    assert.ok((await adVideo(p.page))!.paused, 'a paused ad stays paused after the tab comes back');
    assert.equal(events('nonskippable').filter((e) => e === 'pause').length, 1, 'each event once per ad');
  } finally {
    await p.close();
  }
});

test('the player page gets the ad list from the server as data-env-ad-list-url, without inline script', async () => {
  srv().setAdListUrl('/ad-list.json?pre=nonskippable&mid=');
  try {
    const p = await open('?movie_id=1&auto_play=1');
    try {
      assert.is(await p.page.getAttribute('#root', 'data-env-ad-list-url'), '/ad-list.json?pre=nonskippable&mid=');
      await waitFor(() => events('nonskippable').includes('start'), 20000, 'the pre-roll');
      assert.equal(p.csp, []);
    } finally {
      await p.close();
    }
  } finally {
    srv().setAdListUrl(undefined);
  }
});

test('a VPAID 2.0 creative runs in a sandboxed frame and its events drive the same pixels', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('vpaid') });
  try {
    const frame = await p.page.waitForSelector('iframe.pl-ad__vpaid', { timeout: 20000 });
    assert.is(await frame.getAttribute('sandbox'), 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
    await waitForTime(p.page, 0.5, 30000);
    // Pixels are separate keepalive requests to another origin: one may land after the film starts.
    const expected = ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'];
    const fired = () => events('vpaid').filter((e) => expected.includes(e));
    await waitFor(() => expected.every((e) => fired().includes(e)), 10000, 'the VPAID ad\'s pixels');
    assert.equal(fired(), expected);
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

/**
 * The shortcuts come with the lazy controls piece, asked for once the start settles (a pre-roll's
 * first frame) and bound in its first effect: a key pressed before that does nothing. Waits for the
 * controls, then for Preact's after-paint (a frame and a task) in which that effect runs.
 */
async function keysBound(page: Page): Promise<void> {
  await page.waitForSelector('.pl-gestures', { state: 'attached', timeout: 20000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
}

test('keyboard during an ad: K pauses and resumes the ad, M mutes it, arrows leave the film alone', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('nonskippable') });
  try {
    await p.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 0.3, null, { timeout: 20000 });
    await keysBound(p.page);
    await p.page.keyboard.press('k');
    await p.page.waitForFunction(() => {
      const ad = document.querySelector<HTMLVideoElement>('.pl-ad__video');
      // An ended ad is paused too, then gone: neither is K's pause.
      if (!ad || ad.ended) throw new Error('the ad ended without pausing: K did nothing');
      return ad.paused;
    });
    await waitFor(() => events('nonskippable').includes('pause'), 5000, 'the pause pixel');
    const film = () =>
      p.page.evaluate(() => {
        const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
        return { t: v.currentTime, paused: v.paused, muted: v.muted };
      });
    await p.page.keyboard.press('ArrowRight');
    // A duration by design: the film must not move; a seek or play has no event to wait on if it does not come (300 ms).
    await p.page.waitForTimeout(300);
    assert.equal(await film(), { t: 0, paused: true, muted: false }, 'the film was not sought or played');
    await p.page.keyboard.press('k');
    await p.page.waitForFunction(() => !document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused);
    await p.page.keyboard.press('m');
    await p.page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('.pl-ad__video');
      return !v || v.muted || v.volume === 0;
    });
    await waitFor(() => events('nonskippable').includes('mute'), 5000, 'the mute pixel');
    assert.not.ok((await film()).muted, 'the film was not muted');
  } finally {
    await p.close();
  }
});

test('VPAID: the creative gets the frame size and view mode, then resizeAd on a resize and on fullscreen', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('vpaid') });
  try {
    await p.page.waitForSelector('iframe.pl-ad__vpaid', { timeout: 20000 });
    const frame = () => p.page.frames().find((f) => f.url().includes('vpaid.html'))!;
    type Call = [string, number, number, string];
    const calls = async (): Promise<Call[]> => (await frame()?.evaluate(() => (window as unknown as { vpaidCalls?: Call[] }).vpaidCalls)) ?? [];
    const until = (what: string, ok: (c: Call[]) => boolean) =>
      poll(async () => `${what}: ${JSON.stringify(await calls())}`, async () => ok(await calls()), { timeout: 15000, interval: 50 });
    await until('initAd', (c) => c.some((x) => x[0] === 'initAd'));
    // Paused, so the 6 s creative does not end while the test resizes it.
    await p.page.click('.pl-ad__play');
    const box = (await p.page.locator('iframe.pl-ad__vpaid').boundingBox())!;
    // The frame may still be hidden (0 px) at initAd; the size it was told last is its own.
    await until('the frame size', (c) => {
      const last = c[c.length - 1];
      return !!last && last[1] === Math.round(box.width) && last[2] === Math.round(box.height) && last[3] === 'normal';
    });
    await p.page.setViewportSize({ width: 480, height: 270 });
    await until('resizeAd to 480x270', (c) => c.some((x) => x[0] === 'resizeAd' && x[1] === 480 && x[2] === 270 && x[3] === 'normal'));
    // The content's keys do nothing to the hidden content during the ad; fullscreen applies.
    await p.page.keyboard.press('ArrowRight');
    await p.page.keyboard.press('f');
    await p.page.waitForFunction(() => !!document.fullscreenElement);
    await until('resizeAd fullscreen', (c) => c.some((x) => x[0] === 'resizeAd' && x[3] === 'fullscreen'));
    const content = await p.page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
      return { t: v.currentTime, paused: v.paused };
    });
    assert.equal(content, { t: 0, paused: true }, 'the content did not move or play under the ad');
  } finally {
    await p.close();
  }
});

test('a VPAID creative that fails to load fires error 901 and the content plays', async () => {
  const p = await open('?movie_id=1&auto_play=1', { globals: adList('vpaid-broken') });
  try {
    await waitForTime(p.page, 0.5, 30000);
    assert.equal(hits('vpaid-broken').filter((h) => h.event === 'error').map((h) => h.query.code), ['901']);
  } finally {
    await p.close();
  }
});

test('without an ad list URL the player logs it and plays at once', async () => {
  const p = await open('?movie_id=1&auto_play=1');
  const warnings: string[] = [];
  p.page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  try {
    await p.page.reload();
    await waitForTime(p.page, 0.5, 20000);
    assert.ok(warnings.some((w) => w.includes('ENV_AD_LIST_URL is not defined')));
    assert.is(await p.page.$('.pl-ad'), null, 'the ads piece is not even loaded');
  } finally {
    await p.close();
  }
});

test('without autoplay the pre-roll waits unbilled under the big play button; its click plays the ad with sound, then the film', async () => {
  const p = await open('?movie_id=1', { globals: adList('skippable'), refuseUnmutedAutoplay: true });
  try {
    await p.page.waitForFunction(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')?.readyState === 4, null, { timeout: 20000 });
    await waitFor(() => events('skippable').includes('loaded'), 5000, 'loaded pixel');
    assert.ok(await p.page.locator('.pl-ad').isHidden(), 'the ad is not over the play button');
    assert.ok((await adVideo(p.page))!.paused, 'the ad waits');
    assert.equal(events('skippable'), ['loaded'], 'no impression or start before it plays');
    // The middle of the player, where the big play button is: the ad plays, no page opens.
    await p.page.mouse.click(480, 270);
    await p.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 0.3, null, { timeout: 10000 });
    assert.not.ok(await p.page.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.muted), 'with sound: the click is a gesture');
    assert.not.ok(events('skippable').includes('click'), 'no click-through');
    const ev = events('skippable');
    assert.ok(ev.indexOf('impression') >= 0 && ev.indexOf('impression') < ev.indexOf('start'), `impression, then start: ${ev.join(',')}`);
    await p.page.waitForSelector('.pl-ad__skip:not([disabled])', { timeout: 20000 });
    await p.page.click('.pl-ad__skip');
    // The viewer asked for the film: it follows the ad without another click.
    await waitForTime(p.page, 0.5);
    assert.not.ok((await videoState(p.page)).paused);
  } finally {
    await p.close();
  }
});

test.run();
