// A smoke check of the hold after a stall, in real time through the emulated link: the small ladder on a
// fixed trace (slow, a hole, a trickle, then fast). Somewhere after a stall the film is seen held: the
// <video> at playbackRate 0, not paused, with its next frames in (readyState ≥ 3); then it plays on by
// itself. When and for how long it holds is the playback policy's rule, proven on a virtual clock by its
// scenario tests: nothing here is timed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Link, createLink } from '../../bench/link';
import { phasedTrace } from '../../bench/link-trace';
// @ts-expect-error: plain JS with JSDoc types
import { ensureLadder } from '../../scripts/ladder.mjs';
import { open, poll, srv } from './harness';

// The content <video>'s state every 250 ms and at each of its events, as
// [what, page ms, position, rate, readyState, paused, spinner shown]; a hold is also caught at its
// 'ratechange', however short it is.
const HELD_PROBE = `(() => {
  const keep = (what, v) => (window.__held ??= []).push([what, performance.now(), v.currentTime, v.playbackRate, v.readyState, v.paused, !!document.querySelector('.pl-spinner')]);
  setInterval(() => {
    const v = document.querySelector('video.pl-video');
    if (v) keep('sample', v);
  }, 250);
  for (const type of ['waiting', 'canplay', 'playing', 'seeking', 'pause', 'ratechange', 'emptied'])
    addEventListener(type, ({ target: v }) => v.matches?.('video.pl-video') && keep(type, v), true);
})();`;
type Seen = [what: string, t: number, ct: number, rate: number, readyState: number, paused: boolean, spinner: boolean];
/** HTMLMediaElement.HAVE_FUTURE_DATA: the element has its next frames. */
const HAVE_FUTURE_DATA = 3;
/** How far past the held position the film must get to count as playing on (two of the ladder's 4 s fragments). */
const PLAYS_ON_S = 8;

/** The element's events and what the samples show, in short, for a failure's message. */
function told(seen: Seen[]): string {
  const events = seen.filter(([what]) => what !== 'sample');
  const line = ([what, t, ct, rate, readyState, paused, spinner]: Seen) =>
    `${what} ${(t / 1000).toFixed(1)} s at ${ct.toFixed(1)} rate ${rate} rs ${readyState}${paused ? ' paused' : ''}${spinner ? ' spinner' : ''}`;
  const last = seen.at(-1);
  return `${events.map(line).join('; ')}${last ? `; last sample: ${line(last)}` : ''}`;
}

/** The first moment the film is held after a stall: rate 0, not paused, its next frames in, after a 'waiting' that followed a 'playing'. */
function heldAfterStall(seen: Seen[]): Seen | undefined {
  const firstPlaying = seen.findIndex(([what]) => what === 'playing');
  const stalled = seen.findIndex(([what], i) => what === 'waiting' && i > firstPlaying && firstPlaying >= 0);
  if (stalled < 0) return undefined;
  return seen.slice(stalled + 1).find(([, , , rate, readyState, paused]) => rate === 0 && !paused && readyState >= HAVE_FUTURE_DATA);
}

let link: Link | undefined;
test.after.each(async () => {
  await link?.close();
  link = undefined;
});

test('a stall in a hole in the signal: the film is seen held (rate 0, not paused, its next frames in), then plays on by itself', async () => {
  await ensureLadder({ small: true });
  // Fast for the page and its first fragments, slow for 10 s, then a 50 s hole: all that came before it
  // (under 10.5 Mb, the page's own bytes among them) is under 40 s of the lowest rendition (164 kb/s)
  // beyond the 13 s played, so whatever the policy chose, the hole empties the buffer (a stall). Then a
  // trickle that brings a fragment now and then (the film has its next frames but not the ones after:
  // where a hold applies), then fast to the end. The hole ends within the outage budget (75 s).
  const trace = phasedTrace(
    [
      [3000, 3_000_000],
      [10000, 150_000],
      [50000, 0],
      [10000, 120_000],
      [60000, 3_000_000],
    ],
    'slow-hole-trickle-fast',
  );
  link = createLink({ down: trace, up: phasedTrace([[1000, 3_000_000]]), delayMs: 40 });
  const relay = await link.relay(Number(new URL(srv().url).port));
  const p = await open('?movie_id=32&auto_play=1', { origin: `http://127.0.0.1:${relay.port}`, initScript: HELD_PROBE });
  try {
    const read = () => p.page.evaluate<Seen[]>('window.__held ?? []');
    const error = () => p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? '');
    // Until the film, once held, has played on well past where it was held; an error screen ends the wait.
    await poll(
      async () => `the film held after a stall, then playing on ${PLAYS_ON_S} s past it; seen: ${told(await read())}`,
      async () => {
        const [seen, shown] = [await read(), await error()];
        assert.is(shown, '', `no error screen; seen: ${told(seen)}`);
        const held = heldAfterStall(seen);
        const now = seen.at(-1);
        return held && now && now[3] > 0 && !now[5] && now[2] > held[2] + PLAYS_ON_S;
      },
      { timeout: 150_000, interval: 1000 },
    );
  } finally {
    await p.close();
  }
});

test.run();
