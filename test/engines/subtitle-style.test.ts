// Subtitles people can read (issue 53): the size, colour and background chosen on the subtitles page,
// proven by the rendered cue's computed style, remembered across a reload; the cues clear of the
// controls and of the skip-intro button at phone and desktop sizes; axe on the new choices.
import { readFileSync } from 'node:fs';
import { test } from './journey';
import * as assert from 'uvu/assert';
import { SUBTITLES_KEY } from '../../src/core/memory-protocol';
import type { Tab } from './driver';
import { clickUntil, storedJson, timeAbove, wake, within } from './harness';

const T = 30000;

/** The film playing with a click, the Russian subtitles chosen (menu item 0). */
async function withSubtitles(tab: Tab): Promise<void> {
  await tab.click('.pl-big-play', T);
  await timeAbove(tab, 0.5, T);
  await choose(tab, '0');
}

/** Picks `item` on the subtitles page, opened with the subtitles button; a pick closes the menu (SPEC §4). */
async function choose(tab: Tab, item: string): Promise<void> {
  await clickUntil(tab, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
  await tab.click(`.pl-menu [data-menu-item="${item}"]`);
  await tab.waitForGone('.pl-menu', T);
}

/** Paused on the 4–8 s cue: it stays on screen however long the steps take. */
async function onCue(tab: Tab): Promise<void> {
  await tab.evaluate(() => {
    const v = document.querySelector('video')!;
    v.pause();
    v.currentTime = 5;
  });
  await tab.waitFor(() => document.querySelector('.pl-subs__cue')?.textContent === 'Субтитры: 00:04 – 00:08', undefined, T, 'the 4-8 s cue');
}

const cue = (tab: Tab) =>
  tab.evaluate(() => {
    const s = getComputedStyle(document.querySelector('.pl-subs__cue')!);
    return { font: parseFloat(s.fontSize), color: s.color, background: s.backgroundColor, shadow: s.textShadow };
  });

/** The checked item of each group on the subtitles page: [tracks, size, colour, background]. */
async function checked(tab: Tab): Promise<string[]> {
  await clickUntil(tab, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
  const values = await tab.evaluate(() =>
    Array.from(document.querySelectorAll('.pl-menu [role="group"]')).map((g) => g.querySelector('[aria-checked="true"]')?.getAttribute('data-menu-item') ?? ''),
  );
  await tab.press('Escape');
  await tab.waitForGone('.pl-menu', T);
  return values;
}

test('size, colour and background from the subtitles menu, on the rendered cue; remembered across a reload', async () => {
  await within('?movie_id=1', async (tab) => {
    await withSubtitles(tab);
    await onCue(tab);
    const medium = await cue(tab);
    assert.is(medium.color, 'rgb(255, 255, 255)', 'white by default');
    assert.is(medium.background, 'rgba(0, 0, 0, 0.75)', 'shaded by default');
    assert.equal(await checked(tab), ['0', 'size:medium', 'color:white', 'background:shaded']);

    await choose(tab, 'size:small');
    const small = (await cue(tab)).font;
    await choose(tab, 'size:large');
    const large = (await cue(tab)).font;
    assert.ok(small >= 14 && small <= medium.font * 0.85, `small ${small}px against medium ${medium.font}px`);
    assert.ok(large >= medium.font * 1.3, `large ${large}px against medium ${medium.font}px`);

    await choose(tab, 'color:yellow');
    assert.is((await cue(tab)).color, 'rgb(255, 255, 0)');
    await choose(tab, 'background:none');
    const bare = await cue(tab);
    assert.is(bare.background, 'rgba(0, 0, 0, 0)');
    assert.match(bare.shadow, /rgb\(0, 0, 0\)/, 'an outline of shadow instead of a box');
    await choose(tab, 'background:solid');
    const solid = await cue(tab);
    assert.is(solid.background, 'rgb(0, 0, 0)');
    assert.equal(solid, { ...solid, font: large, color: 'rgb(255, 255, 0)' }, 'each choice keeps the others');
    assert.equal(await storedJson(tab, SUBTITLES_KEY), { size: 'large', color: 'yellow', background: 'solid' });

    await tab.reload();
    await tab.waitForSelector('.pl-big-play', T);
    await withSubtitles(tab);
    await onCue(tab);
    assert.equal(await cue(tab), solid, 'the same style after the reload');
    assert.equal(await checked(tab), ['0', 'size:large', 'color:yellow', 'background:solid']);
  });
});

/**
 * In the page: the cues clear of every visible control group, and their bottom at least `lift` rem
 * above the player's (0: no such bound). The cues move with a transition: polled until it holds.
 */
const standsClear = (lift: number) => {
  const box = (e: Element) => e.getBoundingClientRect();
  const cues = document.querySelector('.pl-subs');
  if (!cues) return false;
  const c = box(cues);
  const frame = box(document.querySelector('.pl')!);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const controls = Array.from(document.querySelectorAll('.pl-controls .pl-progress, .pl-controls .pl-bar, .pl-mobile__middle, .pl-mobile__bottom'))
    .map(box)
    .filter((r) => r.height > 0);
  const hidden = document.querySelector('.pl')!.hasAttribute('data-idle');
  const apart = (b: DOMRect) => !(c.top < b.bottom && b.top < c.bottom && c.left < b.right && b.left < c.right);
  return (hidden || (controls.length > 0 && controls.every(apart))) && c.top >= frame.top && c.bottom <= frame.bottom - lift * rem + 0.5;
};

const layout = (tab: Tab) =>
  tab.evaluate(() => {
    const box = (q: string) => Array.from(document.querySelectorAll(q)).map((e) => e.getBoundingClientRect()).map((r) => [r.top, r.bottom, r.left, r.right].map(Math.round));
    return { cues: box('.pl-subs'), controls: box('.pl-controls .pl-progress, .pl-controls .pl-bar, .pl-mobile__middle, .pl-mobile__bottom'), frame: box('.pl') };
  });

async function clearOf(tab: Tab, lift: number, what: string): Promise<void> {
  try {
    await tab.waitFor(standsClear, lift, 10000, what);
  } catch (err) {
    (err as Error).message += ` ${JSON.stringify(await layout(tab))}`;
    throw err;
  }
}

for (const viewport of [
  { width: 360, height: 640 },
  { width: 640, height: 360 },
  { width: 1280, height: 720 },
]) {
  test(`${viewport.width}×${viewport.height}: large cues clear of the shown controls and of the skip-intro button's place`, async () => {
    await within(
      '?movie_id=1',
      async (tab) => {
        await withSubtitles(tab);
        await choose(tab, 'size:large');
        await onCue(tab);
        await wake(tab);
        await tab.waitForSelector('.pl-controls, .pl-mobile', T);
        await clearOf(tab, 0, 'the cues clear of the shown controls (paused)');
        // The skip-intro button's contract: `data-skip-intro` on the player while it shows, at the
        // bottom right above the controls; the cues then stand 4rem above the controls' 6.5rem.
        await tab.evaluate(() => document.querySelector('.pl')!.setAttribute('data-skip-intro', ''));
        await clearOf(tab, 10.5, 'the cues 10.5rem up with the skip button and the controls');
        // And with the controls hidden (playing, the pointer still): as high, the button may stay.
        await tab.evaluate(() => void document.querySelector('video')!.play());
        await tab.waitFor(() => document.querySelector('.pl')!.hasAttribute('data-idle'), undefined, T, 'the controls hidden');
        await clearOf(tab, 10.5, 'the cues 10.5rem up with the skip button, the controls hidden');
      },
      { viewport },
    );
  });
}

test('axe-core: no serious or critical violation on the subtitles page with its style choices; the keyboard picks one', async () => {
  await within('?movie_id=1', async (tab) => {
    await withSubtitles(tab);
    await clickUntil(tab, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
    assert.equal(await tab.evaluate(() => Array.from(document.querySelectorAll('.pl-menu [role="group"]')).map((g) => g.getAttribute('aria-label'))), [
      'Субтитры',
      'Размер текста',
      'Цвет текста',
      'Фон текста',
    ]);
    // As an expression: the engines' evaluate takes one (the page's policy forbids eval).
    await tab.raw.evaluate(`(() => { ${readFileSync('node_modules/axe-core/axe.min.js', 'utf8')}; return 1; })()`);
    const violations = await tab.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Element, o: object): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
      const r = await axe.run(document.querySelector('.pl')!, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, at: v.nodes.map((n) => String(n.target)) }));
    });
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.equal(bad, [], JSON.stringify(violations));

    // By keyboard, as the other pages: focus on the track playing, the arrows on into the size group.
    const focused = () => tab.evaluate(() => document.activeElement?.getAttribute('data-menu-item') ?? '');
    await tab.waitFor(() => document.activeElement?.getAttribute('data-menu-item') === '0', undefined, T, 'focus on the track playing');
    for (const expected of ['size:small', 'size:medium', 'size:large']) {
      await tab.press('ArrowDown');
      assert.is(await focused(), expected);
    }
    await tab.press('Enter');
    await tab.waitForGone('.pl-menu', T);
    await tab.waitForSelector('.pl-subs[data-size="large"]', T);
  });
});

test.run();
