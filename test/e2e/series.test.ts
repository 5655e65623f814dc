import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { open, srv, waitForTime } from './harness';
import { currentTime, demo, isPaused, storedJson, timeAbove, wake } from './series-helpers';

test('S1E2 played 12 s then reloaded offers to resume at 0:00:12; continue resumes there (demo page as parent)', async () => {
  const d = await demo('/player/?movie_id=2&season=1&episode=2');
  try {
    await d.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(d.frame, 12.2, 30000);
    await d.page.click('#send-pause');
    await d.frame.waitForFunction(() => document.querySelector('video')!.paused);
    const at = await currentTime(d.frame);
    assert.ok(at >= 12 && at < 13.5, `paused at ${at}`);
    const progress = (await d.messages(2)).filter((m) => m.type === 'timeProgressChanged');
    assert.ok(progress.length >= 2, 'timeProgressChanged at the first save and 10 s later');
    assert.is(progress[0].version, 1);
    assert.is((progress[0].payload as { duration: number }).duration > 59, true);

    await d.frame.evaluate(() => location.reload());
    await d.frame.waitForSelector('.pl-resume', { timeout: 15000 });
    assert.is(await d.frame.textContent('.pl-resume__text'), `Вы остановились на 0:00:${String(Math.floor(at)).padStart(2, '0')}`);
    assert.is(await d.frame.textContent('.pl-resume__continue'), 'Продолжить просмотр');
    assert.is(await d.frame.textContent('.pl-resume__restart'), 'Начать сначала');
    await d.frame.click('.pl-resume__continue');
    await timeAbove(d.frame, Math.floor(at) + 0.5);
    assert.ok((await currentTime(d.frame)) < at + 6, 'resumed at the saved time, not later');
    assert.is(await d.frame.locator('.pl-resume').count(), 0, 'hidden after continue');
    assert.equal(d.errors, []);
  } finally {
    await d.close();
  }
});

test('start over plays from 0; a time code skips the prompt and starts there', async () => {
  const p = await open('?movie_id=2&season=2&episode=2');
  try {
    await p.page.evaluate(() => localStorage.setItem('episodesTimeProgress', JSON.stringify({ 205: 30 })));
    await p.page.reload();
    await p.page.waitForSelector('.pl-resume');
    assert.is(await p.page.textContent('.pl-resume__text'), 'Вы остановились на 0:00:30');
    await p.page.click('.pl-resume__restart');
    await waitForTime(p.page, 0.5);
    assert.ok((await currentTime(p.page)) < 10, 'from the beginning');

    await p.page.goto(p.page.url() + '&t=20');
    await p.page.waitForSelector('.pl-big-play');
    await p.page.waitForFunction(() => document.querySelector('video')!.duration > 0);
    assert.is(await p.page.locator('.pl-resume').count(), 0, 'no prompt with t');
    await p.page.click('.pl-big-play');
    await timeAbove(p.page, 20.2);
  } finally {
    await p.close();
  }
});

test('an ending episode without markers (S2E2) shows the next-episode card in its last 10 s, moves on by itself and the parent hears episodeChanged', async () => {
  const d = await demo('/player/?movie_id=2&season=2&episode=2');
  try {
    await d.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(d.frame, 0.5);
    await d.frame.evaluate(() => (document.querySelector('video')!.currentTime = 54));
    await d.frame.waitForSelector('.pl-next', { timeout: 15000 });
    assert.is(await d.frame.textContent('.pl-next__head'), 'Следующий эпизод');
    assert.is(await d.frame.textContent('.pl-next__number'), '2 сезон, 3 серия');
    assert.is(await d.frame.textContent('.pl-next__title'), 'Финал');
    assert.is(await d.frame.textContent('.pl-next__description'), 'Все загадки сезона наконец разгаданы.');
    assert.match((await d.frame.getAttribute('.pl-next__poster', 'src'))!, /s2e3\.jpg$/);
    assert.is(await d.frame.textContent('.pl-next__play'), 'Смотреть');

    await d.frame.waitForFunction(() => document.querySelector('.pl-title__episode')?.textContent?.startsWith('2 сезон, 3 серия'), null, { timeout: 20000 });
    await d.frame.waitForFunction(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 1 && v.currentTime < 20; }, null, { timeout: 20000 });
    const changed = (await d.messages(2)).filter((m) => m.type === 'episodeChanged');
    assert.equal(changed.map((m) => (m.payload.episode as { id: number }).id), [205, 206]);
    assert.equal(await storedJson(d.frame, 'episodesTimeProgress').then((m) => m?.[205]), undefined, 'a finished episode is forgotten');
    assert.equal(d.errors, []);
  } finally {
    await d.close();
  }
});

test('hovering the next button shows the card, its red button plays S2E1, the next button then S2E2', async () => {
  const d = await demo('/player/?movie_id=2&season=1&episode=3');
  const playingEpisode = async (line: string) => {
    await d.frame.waitForFunction((l) => document.querySelector('.pl-title__episode')?.textContent?.startsWith(l), line);
    await d.frame.waitForFunction(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 1.6 && v.currentTime < 15; }, null, { timeout: 20000 });
  };
  try {
    await d.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(d.frame, 1.6);
    await wake(d.frame);
    await d.frame.hover('[data-action="next"]');
    await d.frame.waitForSelector('.pl-next');
    assert.is(await d.frame.textContent('.pl-next__number'), '2 сезон, 1 серия');
    await d.frame.hover('.pl-next__title');
    // A duration by design: leaving the button closes the card after 250 ms; wait past that for it not to.
    await d.frame.waitForTimeout(500);
    assert.is(await d.frame.locator('.pl-next').count(), 1, 'the card stays open while the pointer moves onto it');
    await d.frame.click('.pl-next__play');
    await playingEpisode('2 сезон, 1 серия');
    await wake(d.frame);
    await d.frame.click('[data-action="next"]');
    await playingEpisode('2 сезон, 2 серия');
    const changed = (await d.messages(2)).filter((m) => m.type === 'episodeChanged');
    assert.equal(changed.map((m) => (m.payload.episode as { id: number }).id), [203, 204, 205]);
    const saved = await storedJson(d.frame, 'episodesTimeProgress');
    assert.ok(saved?.[203]?.[2031] >= 1 && saved?.[204] >= 1, `progress kept when moving on: ${JSON.stringify(saved)}`);
  } finally {
    await d.close();
  }
});

test("S1E3's variants keep separate progress; a saved variant comes back", async () => {
  const p = await open('?movie_id=2&season=1&episode=3&episode_variant_id=2031');
  try {
    await p.page.click('.pl-big-play', { timeout: 15000 });
    await timeAbove(p.page, 3.6);
    await p.page.goto(p.page.url().replace('2031', '2032'));
    await p.page.waitForFunction(() => (document.querySelector('video')?.duration ?? 0) > 0);
    assert.is(await p.page.locator('.pl-resume').count(), 0, 'variant 2032 has no progress of its own yet');
    assert.match(await p.page.evaluate(() => document.querySelector('video')!.currentSrc), /\/media\/clip\.mp4$/);
    assert.is(await p.page.textContent('.pl-title__variant'), 'Режиссёрская версия', 'the title names the variant');
    await p.page.click('.pl-big-play');
    await timeAbove(p.page, 2.6);
    await p.page.goto(p.page.url().replace('2032', '2031'));
    await p.page.waitForSelector('.pl-resume');
    const saved = await storedJson(p.page, 'episodesTimeProgress');
    assert.ok(saved[203][2031] >= 3 && saved[203][2032] >= 2, JSON.stringify(saved));
    // The page was left a little after 3.6 s: how much later depends on the machine's load.
    assert.is(await p.page.textContent('.pl-resume__text'), `Вы остановились на 0:00:${String(saved[203][2031]).padStart(2, '0')}`, 'the prompt offers variant 2031\'s own position');

    await p.page.evaluate(() => localStorage.setItem('episodeVariants', JSON.stringify({ 2: 2032 })));
    await p.page.goto(p.page.url().replace('&episode_variant_id=2031', ''));
    await p.page.waitForFunction(() => document.querySelector('video')?.currentSrc.endsWith('/media/clip.mp4'));
  } finally {
    await p.close();
  }
});

test('audio choice: lang_order and voice_author pick the HLS track, a saved label wins; the descriptor uses the saved label', async () => {
  const audioOf = (prefix: string) =>
    new Set(srv().requests.filter((r) => r.path.startsWith(prefix)).map((r) => r.path.split('/')[4]));
  const segmentsOf = async (query: string, saved?: Record<string, string>) => {
    srv().clearRequests();
    // A saved label is stored on a page that loads nothing (no movie_id) before the one under test.
    const p = await open(saved ? '' : query);
    try {
      if (saved) {
        await p.page.evaluate((s) => localStorage.setItem('favoriteAudioTracks', JSON.stringify(s)), saved);
        srv().clearRequests();
        await p.page.goto(p.page.url() + query);
      }
      await p.page.click('.pl-big-play', { timeout: 15000 });
      await timeAbove(p.page, 4.5);
      if (!saved) assert.is(await storedJson(p.page, 'favoriteAudioTracks'), null, 'an automatic choice is not saved as the viewer\'s');
      return audioOf('/media/hls/audio/');
    } finally {
      await p.close();
    }
  };
  assert.ok((await segmentsOf('?movie_id=1&lang_order=en')).has('eng'), 'lang_order=en plays English');
  assert.ok((await segmentsOf('?movie_id=1&voice_author=engl')).has('eng'), 'voice author matched');
  const saved = await segmentsOf('?movie_id=1&lang_order=en', { 1: 'Русский' });
  assert.ok(saved.has('rus') && !saved.has('eng'), `the saved label wins over lang_order: ${[...saved]}`);

  srv().clearRequests();
  // The label is stored on a page that loads nothing (no movie_id), so no earlier load of film 4
  // can have put the English playlist in the HTTP cache before the one under test asks for it.
  const p = await open('');
  try {
    await p.page.evaluate(() => localStorage.setItem('favoriteAudioTracks', JSON.stringify({ 4: 'English' })));
    srv().clearRequests();
    await p.page.goto(p.page.url() + '?movie_id=4');
    await p.page.click('.pl-big-play', { timeout: 15000 });
    await timeAbove(p.page, 1);
    const paths = srv().requests.map((r) => r.path);
    assert.ok(paths.includes('/media/desc/eng.m3u8'), `the saved source: ${paths.filter((x) => x.startsWith('/media/')).join(' ')}`);
    assert.not.ok(paths.includes('/media/desc/rus.m3u8'), 'not the default one');
  } finally {
    await p.close();
  }
});

test('volume and mute survive a reload', async () => {
  const p = await open('?movie_id=1');
  try {
    await p.page.waitForSelector('.pl-volume');
    await p.page.locator('.pl-volume').fill('0.35');
    await p.page.click('[data-action="mute"]');
    await p.page.waitForFunction(() => document.querySelector('video')!.muted);
    // Saved on the media's volumechange, a task after the element's own flag flips.
    await p.page.waitForFunction(() => localStorage.getItem('player-muted') === 'true', null, { timeout: 5000 });
    assert.is(await storedJson(p.page, 'player-volume'), 0.35);
    await p.page.reload();
    await p.page.waitForSelector('.pl-volume');
    const v = await p.page.evaluate(() => ({ volume: document.querySelector('video')!.volume, muted: document.querySelector('video')!.muted }));
    assert.equal(v, { volume: 0.35, muted: true });
    await p.page.click('[data-action="mute"]');
    await p.page.waitForFunction(() => !document.querySelector('video')!.muted);
    await p.page.waitForFunction(() => localStorage.getItem('player-muted') === 'false', null, { timeout: 5000 });
  } finally {
    await p.close();
  }
});

test('with local storage throwing the player still plays and only logs', async () => {
  const p = await open('?movie_id=2&season=1&episode=2');
  try {
    await p.page.addInitScript(() =>
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The document is sandboxed and lacks the allow-same-origin flag.', 'SecurityError');
        },
      }),
    );
    const warnings: string[] = [];
    p.page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await p.page.reload();
    await p.page.click('.pl-big-play', { timeout: 15000 });
    await timeAbove(p.page, 2);
    await wake(p.page);
    await p.page.locator('.pl-volume').fill('0.5');
    await p.page.waitForFunction(() => document.querySelector('video')!.volume === 0.5);
    assert.ok(warnings.some((w) => w.includes('local storage unavailable')), 'logged');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('share: pauses, popup with five networks and the link, with and without the time code', async () => {
  const q = '?movie_id=2&season=1&episode=2&enabled_share=1';
  const p = await open(q);
  try {
    await p.page.click('.pl-big-play', { timeout: 15000 });
    await timeAbove(p.page, 3.6);
    await wake(p.page);
    await p.page.click('[data-action="share"]');
    await p.page.waitForSelector('.pl-share');
    assert.ok(await isPaused(p.page), 'sharing pauses');
    const t = Math.round(await currentTime(p.page));
    const base = `${new URL(p.page.url()).origin}/player/${q}`;
    assert.is(await p.page.textContent('.pl-share__title'), 'Поделиться');
    const width = await p.page.evaluate(() => document.querySelector('.pl-share')!.getBoundingClientRect().width);
    assert.is(width, 21 * 16, '21rem');
    assert.is(await p.page.inputValue('.pl-share__link'), base);
    const targets = await p.page.$$eval('.pl-share__target', (as) => as.map((a) => [a.textContent, (a as HTMLAnchorElement).href]));
    assert.equal(targets.map(([name]) => name), ['Telegram', 'WhatsApp', 'ВКонтакте', 'Одноклассники', 'Мой Мир']);
    assert.is(targets[2][1], `https://vk.com/share.php?url=${encodeURIComponent(base)}&title=${encodeURIComponent('Тестовый сериал, 1 сезон, 2 серия')}`);
    const label = await p.page.textContent('.pl-share__time');
    assert.match(label!, /^Поделиться с тайм кодом: 0:0\d$/);
    assert.not.ok(await p.page.isChecked('.pl-share__time input'), 'off by default');
    await p.page.check('.pl-share__time input');
    assert.is(await p.page.inputValue('.pl-share__link'), `${base}&t=${t}`);
    assert.is(new URL((await p.page.getAttribute('[data-share="telegram"]', 'href'))!).searchParams.get('url'), `${base}&t=${t}`);
    await p.page.uncheck('.pl-share__time input');
    assert.is(await p.page.inputValue('.pl-share__link'), base);
    await p.page.keyboard.press('Escape');
    await p.page.waitForSelector('.pl-share', { state: 'detached' });
  } finally {
    await p.close();
  }
});

test('no share button without enabled_share', async () => {
  const p = await open('?movie_id=1');
  try {
    await p.page.waitForSelector('[data-action="fullscreen"]');
    assert.is(await p.page.locator('[data-action="share"]').count(), 0);
  } finally {
    await p.close();
  }
});

test('a pause from a foreign window is ignored; the parent page pauses', async () => {
  const d = await demo('/player/?movie_id=1');
  try {
    await d.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(d.frame, 1);
    await d.page.evaluate(() => {
      const sibling = document.createElement('iframe');
      sibling.name = 'sibling';
      document.body.append(sibling);
    });
    const sibling = d.page.frame({ name: 'sibling' })!;
    await sibling.evaluate(() => {
      const player = window.parent.frames[0];
      player.postMessage({ actionType: 'pause' }, '*');
      player.postMessage(JSON.stringify({ actionType: 'pause' }), '*');
    });
    const before = await currentTime(d.frame);
    await timeAbove(d.frame, before + 1.5);
    assert.not.ok(await isPaused(d.frame), 'still playing');
    await d.page.evaluate(() => window.frames[0].postMessage('{not json', '*'));
    await d.page.click('#send-pause');
    await d.frame.waitForFunction(() => document.querySelector('video')!.paused);
    assert.equal(d.errors, []);
  } finally {
    await d.close();
  }
});

/** axe-core's serious and critical violations on the page as it is. */
async function axeSerious(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync('node_modules/axe-core/axe.min.js', 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Element, o: object): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const r = await axe.run(document.body, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, at: v.nodes.map((n) => String(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Presses Tab until `selector` has the focus (at most 30 times); false when it never does. */
async function tabTo(page: Page, selector: string): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return true;
  }
  return false;
}

test("keyboard and axe: Tab reaches 'Пропустить заставку' and Enter skips; the credits card's 'Смотреть титры' likewise; no serious or critical axe issue", async () => {
  const p = await open('?movie_id=2&season=1&episode=2');
  try {
    await p.page.click('.pl-big-play');
    await p.page.waitForSelector('.pl-skip-intro', { timeout: 20000 });
    // Paused, the controls stay and so does the button (it shows with them).
    await p.page.evaluate(() => document.querySelector('video')!.pause());
    assert.equal(await axeSerious(p.page), [], 'with the skip button');
    await p.page.focus('.pl');
    assert.ok(await tabTo(p.page, '.pl-skip-intro'), 'Tab reaches the skip button');
    await p.page.keyboard.press('Enter');
    await p.page.waitForFunction(() => document.querySelector('video')!.currentTime >= 16.5, null, { timeout: 20000 });
    await p.page.waitForSelector('.pl-skip-intro', { state: 'detached' });
    assert.ok(await p.page.evaluate(() => document.activeElement === document.querySelector('.pl')), 'the focus stays in the player');

    await p.page.evaluate(() => (document.querySelector('video')!.currentTime = 48.5));
    await p.page.waitForFunction(() => document.querySelector('.pl-next__head')?.textContent === 'Следующий эпизод через 10', null, { timeout: 20000 });
    assert.equal(await axeSerious(p.page), [], 'with the credits card');
    await p.page.focus('.pl');
    assert.ok(await tabTo(p.page, '.pl-next__credits'), "Tab reaches 'Смотреть титры'");
    await p.page.keyboard.press('Enter');
    await p.page.waitForSelector('.pl-next', { state: 'detached' });
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test("on a phone (360×640, touch): 'Пропустить заставку' is at least 44 px high, within the player, above the controls; a tap skips", async () => {
  const p = await open('?movie_id=5', { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  try {
    await p.page.tap('.pl-big-play');
    await p.page.waitForSelector('.pl-skip-intro', { timeout: 20000 });
    const box = (await p.page.locator('.pl-skip-intro').boundingBox())!;
    assert.ok(box.height >= 44 && box.width >= 44, JSON.stringify(box));
    assert.ok(box.x >= 0 && box.x + box.width <= 360 && box.y >= 0 && box.y + box.height <= 640, JSON.stringify(box));
    await p.page.tap('.pl-skip-intro');
    await p.page.waitForFunction(() => document.querySelector('video')!.currentTime >= 34.5, null, { timeout: 20000 });
    assert.ok((await p.page.evaluate(() => document.querySelector('video')!.currentTime)) < 45, "at the film's intro end (35 s)");
  } finally {
    await p.close();
  }
});

test.run();
