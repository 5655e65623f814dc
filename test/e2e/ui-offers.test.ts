// No control the engine cannot honour (issue 24). Chromium plays the other engines by losing their
// APIs before the page runs: Firefox and WebKitGTK have no Remote Playback API (cast) and WebKitGTK
// no picture-in-picture; a page whose document may not go fullscreen offers no fullscreen, unless it
// is in a frame, where the stretched mode (the parent enlarges the frame) stands in.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { clickPlay, open, poll, srv, waitForTime } from './harness';

// A partner page whose frame has no allow="fullscreen"; opened as localhost, the player (127.0.0.1)
// in it is cross-origin, so fullscreen is not allowed it by default.
const PARTNER = '/e2e/frame-without-fullscreen';
srv().router.add({
  method: 'GET',
  path: PARTNER,
  handler({ res }) {
    const player = `${srv().url}/player/?movie_id=1`;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end('<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title></head><body style="margin:0">' +
      `<iframe name="player" src="${player}" width="640" height="360" style="border:0"></iframe></body></html>`);
  },
});

/** The buttons of the control bar that depend on the engine, once the controls show. */
async function engineButtons(page: Page): Promise<string[]> {
  await clickPlay(page);
  await waitForTime(page, 0.3);
  await page.mouse.move(200, 100);
  await page.mouse.move(210, 110);
  await page.waitForSelector('[data-action="settings"]', { timeout: 10000 });
  return page.evaluate(() => ['cast', 'pip', 'airplay', 'fullscreen'].filter((a) => document.querySelector(`.pl [data-action="${a}"]`)));
}

/** Opens the film with `strip` run before the page's scripts. */
async function openWithout(strip: () => void, viewport = { width: 960, height: 540 }) {
  const p = await open('?movie_id=1', { viewport });
  await p.page.addInitScript(strip);
  await p.page.reload();
  return p;
}

test('Chromium as it is: cast, picture-in-picture and fullscreen are offered', async () => {
  const p = await open('?movie_id=1');
  try {
    assert.equal(await engineButtons(p.page), ['cast', 'pip', 'fullscreen']);
  } finally {
    await p.close();
  }
});

test('no Remote Playback API and no picture-in-picture (WebKitGTK): neither button, on desktop and phone layouts', async () => {
  for (const viewport of [{ width: 960, height: 540 }, { width: 360, height: 640 }]) {
    const p = await openWithout(() => {
      delete (HTMLMediaElement.prototype as unknown as Record<string, unknown>).remote;
      Object.defineProperty(Document.prototype, 'pictureInPictureEnabled', { configurable: true, value: false });
    }, viewport);
    try {
      assert.equal(await engineButtons(p.page), ['fullscreen'], `${viewport.width}×${viewport.height}`);
      assert.equal(p.errors, []);
    } finally {
      await p.close();
    }
  }
});

test('a document that may not go fullscreen: no button at the top level; in a frame the stretched mode works', async () => {
  const p = await openWithout(() => {
    Object.defineProperty(Document.prototype, 'fullscreenEnabled', { configurable: true, value: false });
  });
  try {
    assert.equal(await engineButtons(p.page), ['cast', 'pip']);
  } finally {
    await p.close();
  }
  // A partner's frame without allow="fullscreen".
  const host = await open('', { path: PARTNER });
  try {
    await host.page.goto(`${srv().url.replace('127.0.0.1', 'localhost')}${PARTNER}`);
    const frame = await poll('the player frame', () => host.page.frame({ name: 'player' }));
    await frame.waitForSelector('.pl-big-play', { timeout: 15000 });
    assert.is(await frame.evaluate(() => document.fullscreenEnabled), false, 'the frame may not go fullscreen');
    await frame.click('.pl-big-play');
    await frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, { timeout: 20000 });
    await host.page.mouse.move(300, 100);
    await host.page.mouse.move(310, 110);
    await frame.click('[data-action="fullscreen"]', { timeout: 10000 });
    await frame.waitForSelector('.pl[data-stretched]', { timeout: 5000 });
  } finally {
    await host.close();
  }
});

test.run();
