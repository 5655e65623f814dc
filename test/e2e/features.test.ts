// The features piece (memory, binge, parent messages) needs nothing of the controls piece.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { open } from './harness';
import { type Envelope, storedJson, timeAbove } from './series-helpers';

test('with the controls piece failing to load, progress is saved, the parent hears, and an ended episode moves on', async () => {
  // Every request for the controls piece fails, as on a flaky network or a broken deploy: the demo
  // page's own first player's too, so that no copy of it is in a cache for the frame below.
  const p = await open('', { path: '/', abort: /\/controls-[^/]*\.js/ });
  try {
    await p.page.evaluate(() => {
      const w = window as unknown as { __messages: unknown[] };
      w.__messages = [];
      addEventListener('message', (e) => w.__messages.push(e.data));
      (document.getElementById('player') as HTMLIFrameElement).src = '/player/?movie_id=2&season=1&episode=2';
    });
    const frame = p.page.frame({ name: 'player' })!;
    await frame.waitForURL(/movie_id=2/, { timeout: 15000 });
    const messages = (type: string) =>
      p.page.evaluate(
        // The demo page's own first player (another title) may have spoken before the frame moved.
        (t) => (window as unknown as { __messages: Envelope[] }).__messages.filter((m) => m && m.protocol === 'embed-player' && m.type === t && m.contentId === 2),
        type,
      );

    await frame.locator('.pl-big-play').click({ timeout: 15000 });
    await timeAbove(frame, 1.5);
    assert.is(await frame.locator('.pl-controls').count(), 0, 'the control bar never came');
    await p.page.waitForFunction(
      () => (window as unknown as { __messages: Envelope[] }).__messages.some((m) => m?.type === 'timeProgressChanged' && m.contentId === 2),
      null,
      { timeout: 15000 },
    );
    const saved = await storedJson(frame, 'episodesTimeProgress');
    assert.ok(saved?.[202] >= 1, `progress of episode 202 saved: ${JSON.stringify(saved)}`);

    await frame.evaluate(() => (document.querySelector('video')!.currentTime = 58));
    await frame.waitForFunction(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 0.5 && v.currentTime < 20; }, null, { timeout: 20000 });
    await p.page.waitForFunction(
      () => (window as unknown as { __messages: Envelope[] }).__messages.filter((m) => m?.type === 'episodeChanged' && m.contentId === 2).length >= 2,
      null,
      { timeout: 15000 },
    );
    const changed = await messages('episodeChanged');
    assert.equal(changed.map((m) => (m.payload.episode as { id: number }).id), [202, 203], 'binge moved on to the next episode');
    // The aborted requests are logged by the browser (net::ERR_FAILED) and by the player (the piece).
    assert.equal(p.errors.filter((e) => !/controls|net::ERR_FAILED/.test(e)), [], 'no error but the failed piece');
  } finally {
    await p.close();
  }
});

test.run();
