// Intro and credits markers (server/catalogue.json: the demo series' episodes but S2E2 have an intro
// from 2 s to 17 s and credits from 48 s): 'Пропустить заставку' jumps to the intro's end, the
// credits count down to the next episode, 'Смотреть титры' stays. The demo partner page is the parent,
// so the SDK's events are seen as the partner hears them; the page's analytics function is a recorder.
import { test } from './journey';
import * as assert from 'uvu/assert';
import type { Tab } from './driver';
import { type Envelope, demo, messages, play, timeAbove, video, within } from './harness';

const T = 20000;
const INTRO_END = 17;
const episodeLine = (l: string) => (document.querySelector('.pl-title__episode')?.textContent ?? '').startsWith(l);

/** The analytics function the player looks up at each event (`gtag`), recording its calls. */
const recordAnalytics = (player: Tab) =>
  player.evaluate(() => {
    const w = window as unknown as { gtag: (...a: unknown[]) => void; __gtag: unknown[][] };
    w.__gtag = [];
    w.gtag = (...a: unknown[]) => void w.__gtag.push(a);
  });
const analytics = (player: Tab, name: string) =>
  player.evaluate(
    (n: string) => (window as unknown as { __gtag: Array<[string, string, Record<string, unknown>]> }).__gtag.filter((c) => c[1] === n).map((c) => c[2]),
    name,
  );
const sdkEvents = async (parent: Tab, name: string) =>
  (await messages(parent, 2)).filter((m: Envelope) => m.type === 'event' && m.payload.name === name).map((m) => m.payload.data as Record<string, any>);

test("'Пропустить заставку' during the intro jumps to its end: the video's time, the frame's flag, analytics and the SDK's introSkipped", async () => {
  await demo('/player/?movie_id=2&season=1&episode=2', async (parent, player) => {
    await player.waitForSelector('.pl-big-play');
    await recordAnalytics(player);
    await play(player);
    await player.waitForSelector('.pl-skip-intro', T);
    assert.is(await player.text('.pl-skip-intro'), 'Пропустить заставку');
    const box = await player.evaluate(() => {
      const r = document.querySelector('.pl-skip-intro')!.getBoundingClientRect();
      const bar = document.querySelector('.pl-bar')?.getBoundingClientRect();
      return { h: r.height, w: r.width, right: innerWidth - r.right, bottom: r.bottom, barTop: bar?.top ?? innerHeight, flagged: document.querySelector('.pl')!.hasAttribute('data-skip-intro') };
    });
    assert.ok(box.h >= 44 && box.w >= 44, `a thumb's size: ${JSON.stringify(box)}`);
    assert.ok(box.right < 40 && box.bottom <= box.barTop, `bottom right, above the control bar: ${JSON.stringify(box)}`);
    assert.ok(box.flagged, 'the frame carries data-skip-intro while it shows');
    const before = (await video(player)).t;
    assert.ok(before < INTRO_END - 1, `still in the intro: ${before}`);
    await player.click('.pl-skip-intro');
    await timeAbove(player, INTRO_END - 0.5, T);
    const after = await video(player);
    assert.ok(after.t >= INTRO_END - 0.5 && after.t < INTRO_END + 10, `at the intro's end: ${after.t}`);
    assert.not.ok(after.paused, 'still playing');
    await player.waitForGone('.pl-skip-intro', T);
    assert.not.ok(await player.evaluate(() => document.querySelector('.pl')!.hasAttribute('data-skip-intro')), 'the flag goes with it');
    const sent = await analytics(player, 'videoplayer_skip_intro');
    assert.is(sent.length, 1);
    assert.is(sent[0].skip_to, INTRO_END);
    assert.is(sent[0].video_id, 2);
    assert.is(sent[0].episode, 2, 'S1E2');
    const skipped = await sdkEvents(parent, 'introSkipped');
    assert.is(skipped.length, 1);
    assert.is(skipped[0].to, INTRO_END);
  });
});

test("the credits count down 'Следующий эпизод через N' and play the next episode before the end; creditsReached and credits_next", async () => {
  await demo('/player/?movie_id=2&season=1&episode=2', async (parent, player) => {
    await player.waitForSelector('.pl-big-play');
    await recordAnalytics(player);
    await play(player);
    // Counted on the element itself: the countdown, not the end of the episode, moves on.
    await player.evaluate(() => {
      const v = document.querySelector('video')!;
      (window as unknown as { __ended: number }).__ended = 0;
      v.addEventListener('ended', () => (window as unknown as { __ended: number }).__ended++);
      v.currentTime = 48.2;
    });
    await player.waitFor(() => /^Следующий эпизод через \d+$/.test(document.querySelector('.pl-next__head')?.textContent ?? ''), undefined, T, 'the countdown');
    assert.is(await player.text('.pl-next__number'), '1 сезон, 3 серия');
    assert.is(await player.text('.pl-next__credits'), 'Смотреть титры');
    await player.waitFor(() => (document.querySelector('.pl-next__head')?.textContent ?? '').endsWith(' через 5'), undefined, T, 'counting down');
    const reached = await sdkEvents(parent, 'creditsReached');
    assert.is(reached.length, 1);
    assert.is(reached[0].episode.id, 202);
    assert.is(reached[0].next.id, 203);
    await player.waitFor(episodeLine, '1 сезон, 3 серия', T, 'S1E3 in the title');
    const changed = (await messages(parent, 2)).filter((m) => m.type === 'episodeChanged').map((m) => (m.payload.episode as { id: number }).id);
    assert.equal(changed, [202, 203], 'the next episode, by its id');
    assert.is(await player.evaluate(() => (window as unknown as { __ended: number }).__ended), 0, 'S1E2 never reached its end');
    const next = await analytics(player, 'videoplayer_credits_next');
    assert.is(next.length, 1);
    assert.is(next[0].episode, 2, 'sent with the fields of the episode left (S1E2)');
    assert.is(next[0].next_episode_id, 203);
    await player.waitFor(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 0.5 && v.currentTime < 20; }, undefined, T, 'S1E3 playing');
  });
});

test("'Смотреть титры' closes the card: the credits play on where the countdown would have moved on", async () => {
  await within('?movie_id=2&season=1&episode=3', async (tab) => {
    await play(tab);
    await tab.evaluate(() => void (document.querySelector('video')!.currentTime = 48.5));
    await tab.waitFor(() => /^Следующий эпизод через \d+$/.test(document.querySelector('.pl-next__head')?.textContent ?? ''), undefined, T, 'the countdown');
    await tab.click('.pl-next__credits');
    await tab.waitForGone('.pl-next', T);
    // Paused, then past where the countdown would have run out: the time shown is the store's, which
    // the countdown reads, so once it shows 0:58 the countdown has had its say.
    await tab.evaluate(() => {
      const v = document.querySelector('video')!;
      v.pause();
      v.currentTime = 58.8;
    });
    await tab.waitFor(() => document.querySelector('.pl-time span')?.textContent === '0:58', undefined, T, 'the store at 0:58');
    assert.ok(await tab.evaluate(episodeLine, '1 сезон, 3 серия'), 'still S1E3');
    assert.is(await tab.count('.pl-next'), 0, 'the card stays closed');
    assert.ok((await video(tab)).paused);
  });
});

test.run();
