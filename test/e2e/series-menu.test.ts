// Episode and variant selection through the settings menu (the interface issue's DOM contract:
// [data-action="settings"], .pl-menu[data-menu-page], [data-menu-item]). Passes once both are merged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Frame, Page } from 'playwright-core';
import { open } from './harness';
import { currentTime, demo, storedJson, timeAbove, wake } from './series-helpers';

async function choose(f: Frame | Page, page: string, item: string) {
  await f.click(`.pl-menu[data-menu-page="${page}"] [data-menu-item="${item}"]`, { timeout: 10000 });
}

async function openMenu(f: Frame | Page) {
  await wake(f);
  await f.click('[data-action="settings"]');
  await f.waitForSelector('.pl-menu[data-menu-page="main"]');
}

test('choosing S2E1 from the menu plays it and tells the parent', async () => {
  const d = await demo('/player/?movie_id=2');
  try {
    await d.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(d.frame, 1);
    await openMenu(d.frame);
    await choose(d.frame, 'main', 'seasons');
    await choose(d.frame, 'seasons', '2');
    await choose(d.frame, 'episodes', '204');
    await d.frame.waitForFunction(() => document.querySelector('.pl-title__episode')?.textContent?.startsWith('2 сезон, 1 серия'));
    await d.frame.waitForFunction(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 1 && v.currentTime < 15; }, null, { timeout: 20000 });
    const changed = (await d.messages(2)).filter((m) => m.type === 'episodeChanged');
    assert.equal(changed.map((m) => (m.payload.episode as { id: number }).id), [202, 204]);
  } finally {
    await d.close();
  }
});

test("the variants page switches S1E3's variant, keeps separate progress and is remembered", async () => {
  const d = await demo('/player/?movie_id=2&season=1&episode=3');
  try {
    await d.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(d.frame, 4.2);
    await openMenu(d.frame);
    await choose(d.frame, 'main', 'variants-episode');
    await choose(d.frame, 'variants-episode', '2032');
    await d.frame.waitForFunction(() => document.querySelector('video')!.currentSrc.endsWith('/media/clip.mp4'), null, { timeout: 15000 });
    await timeAbove(d.frame, 2.6);
    assert.is(await d.frame.textContent('.pl-title__variant'), 'Режиссёрская версия', 'the title names the new variant');
    assert.ok((await currentTime(d.frame)) < 8, 'the other variant starts from its own position');
    const variantMsgs = (await d.messages(2)).filter((m) => m.type === 'episodeVariantChanged');
    assert.equal(variantMsgs.map((m) => (m.payload.episodeVariant as { id: number }).id), [2032]);
    assert.equal(await storedJson(d.frame, 'episodeVariants'), { 2: 2032 });

    await openMenu(d.frame);
    await choose(d.frame, 'main', 'variants-episode');
    await choose(d.frame, 'variants-episode', '2031');
    await d.frame.waitForFunction(() => document.querySelector('video')!.currentSrc.startsWith('blob:'), null, { timeout: 15000 });
    await timeAbove(d.frame, 4);
    const saved = await storedJson(d.frame, 'episodesTimeProgress');
    assert.ok(saved[203][2031] >= 4 && saved[203][2032] >= 2, JSON.stringify(saved));
  } finally {
    await d.close();
  }
  const p = await open('?movie_id=2&season=1&episode=3');
  try {
    await p.page.evaluate(() => localStorage.setItem('episodeVariants', JSON.stringify({ 2: 2032 })));
    await p.page.reload();
    // The player's <video> is mounted a moment after the page (main.tsx), so it may not be there yet.
    await p.page.waitForFunction(() => document.querySelector('video')?.currentSrc.endsWith('/media/clip.mp4'));
  } finally {
    await p.close();
  }
});

test.run();
