// Series: the episodes menu, the next-episode card and binge, progress saved and the resume prompt,
// the share popup, and the parent page's messages (the demo partner page as the parent).
import { test } from './journey';
import * as assert from 'uvu/assert';
import { demo, messages, openMenuPage, play, storedJson, timeAbove, video, wake, within } from './harness';

const T = 20000;
const episodeLine = (l: string) => (document.querySelector('.pl-title__episode')?.textContent ?? '').startsWith(l);

test('series navigation: picking S1E3 in the episodes menu plays it', async () => {
  await within('?movie_id=2', async (tab) => {
    await tab.waitFor(episodeLine, '1 сезон, 2 серия', T, 'S1E2 first (S1E1 is completed)');
    await play(tab);
    await openMenuPage(tab, 'episodes');
    const ids = await tab.evaluate(() => Array.from(document.querySelectorAll('.pl-menu [data-menu-item]')).map((e) => e.getAttribute('data-menu-item')));
    assert.equal(ids, ['201', '202', '203'], 'season 1, in order');
    await tab.click('.pl-menu [data-menu-item="203"]');
    await tab.waitFor(episodeLine, '1 сезон, 3 серия', T, 'S1E3 in the title');
    await tab.waitFor(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 0.5 && v.currentTime < 20; }, undefined, T, 'S1E3 playing');
  });
});

test('an ending episode shows the next-episode card and moves on by itself (binge); the parent hears episodeChanged', async () => {
  await demo('/player/?movie_id=2&season=1&episode=2', async (parent, player) => {
    await play(player);
    await player.evaluate(() => void (document.querySelector('video')!.currentTime = 54));
    await player.waitForSelector('.pl-next');
    // S1E2's credits start at 48 s: the card counts down from where the seek landed (the end comes first).
    assert.match((await player.text('.pl-next__head'))!, /^Следующий эпизод через \d+$/);
    assert.is(await player.text('.pl-next__number'), '1 сезон, 3 серия');
    assert.is(await player.text('.pl-next__title'), 'Две версии');
    assert.is(await player.text('.pl-next__play'), 'Смотреть');
    await player.waitFor(episodeLine, '1 сезон, 3 серия', T, 'S1E3 in the title');
    await player.waitFor(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 1 && v.currentTime < 20; }, undefined, T, 'S1E3 playing');
    const changed = (await messages(parent, 2)).filter((m) => m.type === 'episodeChanged');
    assert.equal(changed.map((m) => (m.payload.episode as { id: number }).id), [202, 203]);
  });
});

test("the next button's card: its red button plays S2E1", async () => {
  await within('?movie_id=2&season=1&episode=3', async (tab) => {
    await play(tab, 1);
    await wake(tab);
    await tab.hover('[data-action="next"]');
    await tab.waitForSelector('.pl-next');
    assert.is(await tab.text('.pl-next__number'), '2 сезон, 1 серия');
    await tab.hover('.pl-next__title');
    await tab.click('.pl-next__play');
    await tab.waitFor(episodeLine, '2 сезон, 1 серия', T, 'S2E1 in the title');
    await tab.waitFor(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 1 && v.currentTime < 15; }, undefined, T, 'S2E1 playing');
  });
});

test('progress saved and restored: played 12 s, paused by the parent, reloaded: the resume prompt continues there', async () => {
  await demo('/player/?movie_id=2&season=1&episode=2', async (parent, player) => {
    await play(player, 12.2);
    await parent.click('#send-pause');
    await player.waitFor(() => document.querySelector('video')!.paused, undefined, T, 'paused by the parent');
    const at = (await video(player)).t;
    const progress = (await messages(parent, 2)).filter((m) => m.type === 'timeProgressChanged');
    assert.ok(progress.length >= 2, 'timeProgressChanged at the first save and 10 s later');
    assert.is(progress[0].version, 1);
    const saved = await storedJson(player, 'episodesTimeProgress');
    assert.ok(saved?.[202] >= 10, `saved: ${JSON.stringify(saved)}`);
    await player.reload();
    await player.waitForSelector('.pl-resume');
    assert.is(await player.text('.pl-resume__text'), `Вы остановились на 0:00:${String(Math.floor(at)).padStart(2, '0')}`);
    assert.is(await player.text('.pl-resume__continue'), 'Продолжить просмотр');
    assert.is(await player.text('.pl-resume__restart'), 'Начать сначала');
    await player.click('.pl-resume__continue');
    await timeAbove(player, Math.floor(at) + 0.5);
    assert.ok((await video(player)).t < at + 6, 'resumed at the saved time');
    assert.is(await player.count('.pl-resume'), 0, 'the prompt is gone');
  });
});

test('the resume prompt: start over plays from 0', async () => {
  await within('?movie_id=2&season=2&episode=2', async (tab) => {
    await tab.waitForSelector('.pl-big-play');
    await tab.evaluate(() => localStorage.setItem('episodesTimeProgress', JSON.stringify({ 205: 30 })));
    await tab.reload();
    await tab.waitForSelector('.pl-resume');
    assert.is(await tab.text('.pl-resume__text'), 'Вы остановились на 0:00:30');
    await tab.click('.pl-resume__restart');
    await timeAbove(tab, 0.5);
    assert.ok((await video(tab)).t < 10, 'from the beginning');
  });
});

test('share: pauses, the popup with five networks and the link, the time code box, Escape closes', async () => {
  const q = '?movie_id=2&season=1&episode=2&enabled_share=1';
  await within(q, async (tab) => {
    await play(tab, 3.6);
    await wake(tab);
    await tab.click('[data-action="share"]');
    await tab.waitForSelector('.pl-share');
    assert.ok((await video(tab)).paused, 'sharing pauses');
    const t = Math.round((await video(tab)).t);
    const base = await tab.evaluate((q: string) => `${location.origin}/player/${q}`, q);
    assert.is(await tab.text('.pl-share__title'), 'Поделиться');
    const link = () => tab.evaluate(() => document.querySelector<HTMLInputElement>('.pl-share__link')!.value);
    assert.is(await link(), base);
    const names = await tab.evaluate(() => Array.from(document.querySelectorAll('.pl-share__target')).map((a) => a.textContent));
    assert.equal(names, ['Telegram', 'WhatsApp', 'ВКонтакте', 'Одноклассники', 'Мой Мир']);
    assert.match((await tab.text('.pl-share__time'))!, /^Поделиться с тайм кодом: 0:0\d$/);
    await tab.click('.pl-share__time input');
    await tab.waitFor(() => document.querySelector<HTMLInputElement>('.pl-share__time input')!.checked, undefined, 5000, 'the box checked');
    assert.is(await link(), `${base}&t=${t}`);
    await tab.press('Escape');
    await tab.waitForGone('.pl-share', 5000);
  });
});

test('share on a phone (360×640): the popup lies within the player, and its box can be ticked', async () => {
  await within('?movie_id=2&season=1&episode=2&enabled_share=1', async (tab) => {
    await play(tab);
    await wake(tab);
    await tab.click('[data-action="share"]');
    await tab.waitForSelector('.pl-share');
    const inside = await tab.evaluate(() => {
      const r = document.querySelector('.pl-share')!.getBoundingClientRect();
      return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    });
    assert.ok(inside, 'within the 360×640 player');
    // A real click lands on it only if nothing covers it.
    await tab.click('.pl-share__time input');
    await tab.waitFor(() => document.querySelector<HTMLInputElement>('.pl-share__time input')!.checked, undefined, 5000, 'the box checked');
  }, { viewport: { width: 360, height: 640 } });
});

test('parent messages: a pause from a foreign frame is ignored, the parent page pauses', async () => {
  await demo('/player/?movie_id=1&x=1', async (parent, player) => {
    await play(player, 1);
    await parent.evaluate(() => {
      const sibling = document.createElement('iframe');
      sibling.src = '/player/embed.d.ts?sibling';
      document.body.append(sibling);
    });
    const sibling = parent.frame('?sibling');
    await sibling.waitFor(() => document.readyState === 'complete', undefined, T, 'the sibling frame');
    // From another window than the parent: the player must not act on it.
    await sibling.evaluate(() => {
      const player = window.parent.frames[0];
      player.postMessage({ actionType: 'pause' }, '*');
      player.postMessage(JSON.stringify({ actionType: 'pause' }), '*');
    });
    const before = (await video(player)).t;
    await timeAbove(player, before + 1.5);
    assert.not.ok((await video(player)).paused, 'still playing');
    await parent.click('#send-pause');
    await player.waitFor(() => document.querySelector('video')!.paused, undefined, T, 'paused by the parent');
  });
});

test.run();
