// After a stall in a hole in the signal, the film plays again once the next fragments are due before
// what is buffered has played (providers/resume-hold.ts): the small ladder through the emulated link on
// a fixed trace (slow, a hole, a trickle that brings one fragment and most of the next, then fast), read
// as the benchmark reads a run (bench/playback-page.ts's probe, bench/qoe.ts's stalls): one stall, the
// film held still meanwhile under the spinner (not paused), then playing on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Link, createLink } from '../../bench/link';
import { phasedTrace } from '../../bench/link-trace';
import { PROBE } from '../../bench/playback-page';
import { type LogEntry, accountRun } from '../../bench/qoe';
// @ts-expect-error: plain JS with JSDoc types
import { ensureLadder } from '../../scripts/ladder.mjs';
import { open, srv } from './harness';

// Every 250 ms: the content <video>'s rate, readyState and paused, and whether the spinner is shown.
const HELD_PROBE = `setInterval(() => {
  const v = document.querySelector('video.pl-video');
  if (v) (window.__held ??= []).push([performance.now(), v.currentTime, v.playbackRate, v.readyState, v.paused, !!document.querySelector('.pl-spinner')]);
}, 250);`;
type Held = [t: number, ct: number, rate: number, readyState: number, paused: boolean, spinner: boolean];
/** HTMLMediaElement.HAVE_FUTURE_DATA: the element has its next frames. */
const HAVE_FUTURE_DATA = 3;

/** Where the trace's hole begins. */
const HOLE_AT_MS = 15000;

let link: Link | undefined;
test.after.each(async () => {
  await link?.close();
  link = undefined;
});

test('a stall in a hole: held still under the spinner until the next fragments are due in time, then one stall, not two', async () => {
  await ensureLadder({ small: true });
  // Fast for the page and its first fragments, then slow enough for the lowest rendition (~170 kb/s with its
  // audio) to build ~10 s ahead, a hole that empties it (a stall from 25-29 s), 10 s of a trickle that
  // brings one fragment (4 s of film) within its first 5.5 s and the next in 5.5 s more, then fast.
  // Without the hold the film plays the one fragment and stops again for a second or more.
  const trace = phasedTrace(
    [
      [3000, 3_000_000],
      [12000, 350_000],
      [20000, 0],
      [10000, 120_000],
      [60000, 3_000_000],
    ],
    'slow-hole-trickle-fast',
  );
  link = createLink({ down: trace, up: phasedTrace([[1000, 3_000_000]]), delayMs: 40 });
  const relay = await link.relay(Number(new URL(srv().url).port));
  const p = await open('?movie_id=32&auto_play=1', { origin: `http://127.0.0.1:${relay.port}`, initScript: PROBE + HELD_PROBE });
  try {
    await p.page.waitForFunction(() => performance.now() > 55000, null, { timeout: 80000, polling: 1000 });
    const log = await p.page.evaluate<LogEntry[]>('(__bench.sample(), __bench.log)');
    const held = await p.page.evaluate<Held[]>('window.__held');
    const run = accountRun(log, []);
    const stalls = run.stallList.map((s) => `${(s.atMs / 1000).toFixed(1)} s for ${s.s.toFixed(1)} s`).join(', ');
    assert.ok(run.firstFrameMs !== undefined, 'the film started');
    // From the hole on (the start may stop once on the slow part, as its first fragments hand over to hls.js).
    const inHole = run.stallList.filter((s) => s.atMs >= HOLE_AT_MS);
    assert.is(inHole.length, 1, `one stall from the hole on (bench/qoe.ts's count): ${stalls}`);
    const stall = inHole[0]!;
    const during = held.filter(([t]) => t > stall.atMs && t < stall.atMs + stall.s * 1000);
    const holding = during.filter(([, , rate, readyState, paused, spinner]) => rate === 0 && readyState >= HAVE_FUTURE_DATA && !paused && spinner);
    assert.ok(holding.length >= 2, `held with its next seconds in: rate 0, not paused, the spinner shown (${holding.length} samples of ${during.length} in the stall)`);
    // Then playing on at its speed (a freeze under half a second, a hiccup by bench/qoe.ts, may come
    // between: the trickle's next fragment shares the link with the one after it).
    const last = held.slice(-20);
    assert.ok(last[0]![0] > stall.atMs + stall.s * 1000, 'samples after the stall');
    assert.ok(last.every(([, , rate, , paused]) => rate === 1 && !paused), 'playing on at its speed');
    assert.ok(last[last.length - 1]![1] - last[0]![1] > 4, 'the film moving');
    assert.is(await p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? ''), '');
  } finally {
    await p.close();
  }
});

test.run();
