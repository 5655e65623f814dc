// The SDK's facade under the browser's real autoplay policy. The shared harness's Chromium allows
// autoplay without a gesture (--autoplay-policy=no-user-gesture-required), which would hide what this
// proves: one click on the facade, on a partner page of another origin, starts the player in its
// cross-origin frame with sound (the frame's allow="autoplay" carries the click's user activation).
// So this suite launches a Chromium of its own, with the harness's other flags and a fresh profile.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: plain JS
import { CHROMIUM_FLAGS } from '../../scripts/find-chromium.mjs';
import { poll, srv } from './harness';

const ARGS = CHROMIUM_FLAGS;

// Playwright's evaluate runs with a user gesture, which would itself grant the activation under test:
// neither the partner page nor the player frame is evaluated in before the outcome. The player frame
// reports its <video> by console instead (an init script, in every frame), once it has played 1 s.
function reportVideo() {
  if (window === window.top || !location.pathname.startsWith('/player/')) return;
  let done = false;
  document.addEventListener(
    'timeupdate',
    (e) => {
      const v = e.target as HTMLVideoElement;
      if (done || v.classList.contains('pl-ad__video') || v.paused || v.currentTime <= 1) return;
      done = true;
      const big = document.querySelector('.pl-big-play');
      console.log(`__video ${JSON.stringify({ muted: v.muted, volume: v.volume, bigPlay: !!big && getComputedStyle(big).display !== 'none' })}`);
    },
    true,
  );
}

test('facade: one click on a partner page of another site plays the cross-origin player with sound', async () => {
  const partner = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    const options = req.url === '/eager' ? "{ movieId: 1, autoplay: true }" : "{ movieId: 1, loading: 'facade' }";
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title>
<script type="module">
  import { createPlayer } from '${srv().url}/player/embed.mjs';
  window.player = createPlayer(document.getElementById('slot'), ${options});
</script></head><body style="margin:0"><div id="slot" style="width:640px"></div></body></html>`);
  });
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  // 'localhost' against the player's '127.0.0.1': another site, as a partner is.
  const origin = `http://localhost:${(partner.address() as AddressInfo).port}`;
  const profile = await mkdtemp(join(tmpdir(), 'sdk-autoplay-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 960, height: 540 },
    locale: 'ru-RU',
  });
  await context.addInitScript(reportVideo);
  const visit = async (path: string) => {
    const page = await context.newPage();
    const reports: Array<{ muted: boolean; volume: number; bigPlay: boolean }> = [];
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.text().startsWith('__video ') && reports.push(JSON.parse(m.text().slice(8))));
    await page.goto(`${origin}${path}`);
    return { page, reports, errors };
  };
  try {
    // The control: a frame told to autoplay with no gesture anywhere. This browser's policy refuses
    // sound, and the player falls back to muted autoplay (its unmute offer): the policy is live here.
    const control = await visit('/eager');
    const [muted] = await poll('the autoplaying frame to play', () => control.reports[0] && control.reports, { timeout: 30000 });
    assert.is(muted.muted, true, 'without a gesture the browser refuses sound, the player plays muted');
    await control.page.close();

    const p = await visit('/');
    await p.page.getByRole('button', { name: 'Смотреть: Тестовый фильм' }).click({ timeout: 15000 });
    const [played] = await poll('the video to play after one click', () => p.reports[0] && p.reports, { timeout: 30000 });
    assert.is(played.muted, false, 'one click: it plays with sound');
    assert.ok(played.volume > 0);
    assert.is(played.bigPlay, false, 'no second click asked for');
    assert.equal(p.errors, []);
  } finally {
    await context.close().catch(() => {});
    await new Promise((r) => partner.close(r));
    await rm(profile, { recursive: true, force: true });
  }
});

test.run();
