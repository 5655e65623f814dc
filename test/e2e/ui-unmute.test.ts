// The unmute chip and the title (issue 24): where autoplay with sound is refused, 'Включить звук'
// is offered at the top of the player, where the title is too. At every player size, from a small
// phone embed to a desktop one and with a title long enough to wrap, the two never overlap and both
// stay inside the player. An error screen hides the chip.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { open, poll, waitForTime } from './harness';

const LONG_TITLE = 'Очень длинное название фильма, которое не помещается в одну строку даже на широком экране проигрывателя';

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, outer: Box) => a.x >= outer.x - 0.5 && a.y >= outer.y - 0.5 && a.x + a.width <= outer.x + outer.width + 0.5 && a.y + a.height <= outer.y + outer.height + 0.5;

/** The content answer with a long title: the layout must hold whatever a title is. */
async function withLongTitle(page: Page): Promise<void> {
  await page.route(/\/catalog-api\/contents\/1(\?|$)/, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: { ...body, title: LONG_TITLE } });
  });
}

const boxes = (page: Page) =>
  page.evaluate(() => {
    // (No named function in here: tsx's keepNames would wrap it in a helper the page does not have.)
    const [player, chip, title] = ['.pl', '.pl-unmute', '.pl-title'].map((sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r && { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    return { player, chip, title, name: document.querySelector('.pl-title__name')?.textContent ?? '' };
  });

for (const [width, height] of [
  [320, 180],
  [360, 640],
  [640, 360],
  [1280, 720],
]) {
  test(`${width}×${height}: the unmute chip and a long title, controls shown, do not overlap and stay inside the player`, async () => {
    const p = await open('?movie_id=1&auto_play=1', { refuseUnmutedAutoplay: true, viewport: { width, height }, globals: { env_ad_list_url: '' } });
    try {
      await withLongTitle(p.page);
      await p.page.reload();
      await waitForTime(p.page, 0.5);
      // Controls shown: the pointer moves over the player.
      await p.page.mouse.move(width / 2, height / 2);
      await p.page.mouse.move(width / 2 + 5, height / 2 + 5);
      const b = await poll('the chip and the title', async () => {
        const got = await boxes(p.page);
        return got.chip && got.title && got.name === LONG_TITLE && !(await p.page.evaluate(() => document.querySelector('.pl')!.hasAttribute('data-idle'))) ? got : null;
      });
      const { player, chip, title } = b as { player: Box; chip: Box; title: Box };
      assert.not.ok(intersects(chip, title), `chip ${JSON.stringify(chip)} and title ${JSON.stringify(title)} overlap`);
      assert.ok(inside(chip, player), `the chip ${JSON.stringify(chip)} inside the player ${JSON.stringify(player)}`);
      assert.ok(inside(title, player), `the title ${JSON.stringify(title)} inside the player ${JSON.stringify(player)}`);
    } finally {
      await p.close();
    }
  });
}

test('an error screen hides the unmute chip', async () => {
  // Movie 3 is not available here: its placeholder starts (muted, autoplay with sound refused), and
  // having started it raises the blocked-content screen.
  const p = await open('?movie_id=3&auto_play=1', { refuseUnmutedAutoplay: true });
  try {
    await p.page.locator('.pl-error').waitFor({ timeout: 20000 });
    assert.ok(await p.page.evaluate(() => (window as unknown as { __refusedPlays?: number }).__refusedPlays), 'the play with sound was refused');
    assert.ok(await p.page.evaluate(() => document.querySelector('video')!.muted), 'the placeholder started muted');
    assert.is(await p.page.locator('.pl-unmute').count(), 0, 'no chip over the error screen');
  } finally {
    await p.close();
  }
});

test.run();
