// The settings menu: each page, and what picking in it does (quality, audio, subtitles, speed).
import { test } from './journey';
import * as assert from 'uvu/assert';
import { poll } from '../e2e/harness';
import { clickUntil, openMenuPage, play, srv, timeAbove, video, wake, within } from './harness';

const T = 20000;
const items = (tab: Parameters<typeof openMenuPage>[0]) =>
  tab.evaluate(() => Array.from(document.querySelectorAll('.pl-menu [data-menu-item]')).map((e) => [e.getAttribute('data-menu-item'), e.textContent?.trim() ?? '']));

test('each settings page opens from the main page and goes back; a click outside closes the menu', async () => {
  await within('?movie_id=2', async (tab) => {
    await play(tab);
    await wake(tab);
    await tab.click('[data-action="settings"]');
    await tab.waitForSelector('.pl-menu[data-menu-page="main"]');
    const pages = (await items(tab)).map(([id]) => id!);
    for (const page of ['quality', 'audio-tracks', 'playback-rate', 'episodes', 'seasons']) assert.ok(pages.includes(page), `${page} in ${pages}`);
    for (const page of pages) {
      await tab.click(`.pl-menu [data-menu-item="${page}"]`);
      await tab.waitForSelector(`.pl-menu[data-menu-page="${page}"]`);
      assert.ok((await items(tab)).length > 0, `${page} lists its choices`);
      await tab.click('.pl-menu__back');
      await tab.waitForSelector('.pl-menu[data-menu-page="main"]');
    }
    const rem = await tab.evaluate(() => document.querySelector('.pl-menu')!.getBoundingClientRect().width / parseFloat(getComputedStyle(document.documentElement).fontSize));
    assert.is(rem, 14, 'the menu is 14rem wide');
    await tab.clickAt(200, 200);
    await tab.waitForGone('.pl-menu');
    await timeAbove(tab, (await video(tab)).t + 0.6);
    assert.not.ok((await video(tab)).paused, 'the outside click only closed the menu');
  });
});

test('playback speed: 1 reads Обычная, 1.5 sets the rate', async () => {
  await within('?movie_id=1', async (tab) => {
    await play(tab);
    await openMenuPage(tab, 'playback-rate');
    const rates = await items(tab);
    assert.equal(rates.map(([id]) => id), ['0.25', '0.5', '0.75', '1', '1.25', '1.5', '1.75', '2']);
    assert.match(rates[3][1] ?? '', /Обычная/);
    await tab.click('.pl-menu [data-menu-item="1.5"]');
    await tab.waitForGone('.pl-menu');
    assert.is((await video(tab)).rate, 1.5);
  });
});

test('quality: picking another rendition loads it and shows its frames', async () => {
  await within('?movie_id=1', async (tab) => {
    await play(tab, 1);
    await openMenuPage(tab, 'quality');
    assert.match((await tab.text('.pl-menu [data-menu-item="-1"]'))!, /Auto \((240|360|720)p\)/);
    assert.match((await tab.text('.pl-menu [data-menu-item="2"]'))!, /720p\s*0\.10 Mbps/);
    const [item, height] = (await video(tab)).height === 240 ? ['2', 720] : ['0', 240];
    await tab.click(`.pl-menu [data-menu-item="${item}"]`);
    await tab.waitFor((h: number) => document.querySelector('video')!.videoHeight === h, height, 30000, `${height}-line frames`);
    await openMenuPage(tab, 'quality');
    assert.is(await tab.evaluate((i: string) => document.querySelector(`.pl-menu [data-menu-item="${i}"]`)!.getAttribute('aria-checked'), item), 'true');
  });
});

test('audio: switching to English buffers the English rendition', async () => {
  await within('?movie_id=1', async (tab) => {
    await play(tab);
    srv().clearRequests();
    await openMenuPage(tab, 'audio-tracks');
    await tab.click('.pl-menu [data-menu-item="1"]');
    await tab.waitForGone('.pl-menu');
    await poll('an English audio segment at the server', () => srv().requests.some((r) => r.path.includes('/audio/eng/') && r.path.endsWith('.m4s')), { timeout: T });
    await openMenuPage(tab, 'audio-tracks');
    assert.is(await tab.evaluate(() => document.querySelector('.pl-menu [data-menu-item="1"]')!.getAttribute('aria-checked')), 'true');
    await timeAbove(tab, (await video(tab)).t + 0.5);
  });
});

test('subtitles: the Russian track shows its 4-8 s cue over the video, native rendering hidden', async () => {
  await within('?movie_id=1', async (tab) => {
    await play(tab);
    await clickUntil(tab, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
    assert.match((await tab.text('.pl-menu [data-menu-item="-1"]'))!, /Выкл\./);
    await tab.click('.pl-menu [data-menu-item="0"]');
    await tab.evaluate(() => void (document.querySelector('video')!.currentTime = 5));
    await tab.waitFor(() => document.querySelector('.pl-subs__cue')?.textContent === 'Субтитры: 00:04 – 00:08', undefined, T, 'the 4-8 s cue');
    const modes = await tab.evaluate(() => Array.from(document.querySelector('video')!.textTracks).map((t) => t.mode));
    assert.not.ok(modes.includes('showing'), 'native rendering hidden');
  });
});

test.run();
