// Smoke checks of the small ladder (title 32: 160×90 / 320×180 / 640×360, 96 s) in real time through the
// emulated cellular link (bench/link.ts). On a link that is fast, then slow for 45 s, then fast again, the
// quality goes down while it is slow and back up once it is fast; on a slow link the film starts and
// plays on from its first fragments, each asked once. Which rendition, when, and whether a switch costs
// a stall are the playback policy's rules, proven on a virtual clock by its scenario tests: here only
// the direction of the changes is asked, each judged seconds away from the link's own changes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Link, createLink } from '../../bench/link';
import { constantTrace, phasedTrace } from '../../bench/link-trace';
// @ts-expect-error: plain JS with JSDoc types
import { ensureLadder } from '../../scripts/ladder.mjs';
import { open, poll, srv, waitForTime } from './harness';

const FAST = 3_000_000;
const SLOW = 150_000;
/**
 * The link's fast start and its slow stretch (then fast to the end): longer than the buffer the fast
 * start can build, so that no policy rides it out on what it has (a 20 s stretch can be, and then
 * nothing lower is ever asked).
 */
const FAST_MS = 10_000;
const SLOW_MS = 45_000;
/** How far from each of the link's changes a request counts as made on one side of it. */
const MARGIN_MS = 3000;

let link: Link | undefined;
test.after.each(async () => {
  await link?.close();
  link = undefined;
});

const VIDEO_FRAGMENT = /^\/media\/ladder-small\/video\/(\d+)p\/seg_(\d+)\.m4s$/;

test('through a link that falls from 3 Mb/s to 150 kb/s and comes back: the quality goes down while it is slow and back up once it is fast, no error screen', async () => {
  await ensureLadder({ small: true });
  const trace = phasedTrace(
    [
      [FAST_MS, FAST],
      [SLOW_MS, SLOW],
      [90000, FAST],
    ],
    'fast-slow-fast',
  );
  link = createLink({ down: trace, up: phasedTrace([[1000, FAST]]), delayMs: 40 });
  const relay = await link.relay(Number(new URL(srv().url).port));
  const startedAt = Date.now();
  // A page that keeps this list is handed the policy's decisions (providers/hls-engine.ts), as bench:playback's is.
  const p = await open('?movie_id=32&auto_play=1', { origin: `http://127.0.0.1:${relay.port}`, globals: { __playbackDecisions: [] } });
  try {
    await p.page.waitForSelector('video.pl-video', { state: 'attached' });
    // The heights the picture showed, in the order it showed them.
    await p.page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
      const shown: number[] = [];
      (window as unknown as { __shown: number[] }).__shown = shown;
      v.addEventListener('resize', () => shown.push(v.videoHeight));
      if (v.videoHeight) shown.push(v.videoHeight);
    });
    // The video fragments the reference server was asked for, each with its rendition and when it was
    // asked, from the link's start (its first connection: the page's own request, a round trip in).
    const observe = async () => {
      const since = srv().requests.filter((r) => r.time >= startedAt);
      const linkAt = since[0]?.time ?? startedAt;
      const asked = since.flatMap((r) => {
        const [, height, n] = VIDEO_FRAGMENT.exec(r.path) ?? [];
        return height ? [{ height: Number(height), n: Number(n), at: r.time - linkAt }] : [];
      });
      const before = asked.filter((a) => a.at < FAST_MS);
      const slow = asked.filter((a) => a.at > FAST_MS + MARGIN_MS && a.at < FAST_MS + SLOW_MS);
      // Any request once it is fast again: a higher one than the slow stretch's lowest can only follow the change.
      const after = asked.filter((a) => a.at > FAST_MS + SLOW_MS);
      const lowest = Math.min(...slow.map((a) => a.height));
      const state = await p.page.evaluate(() => ({
        shown: (window as unknown as { __shown: number[] }).__shown,
        time: document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime,
        error: document.querySelector('.pl-error')?.textContent ?? '',
      }));
      const list = (l: typeof asked) => l.map((a) => `${a.height}p#${a.n}@${(a.at / 1000).toFixed(1)}s`).join(' ') || 'none';
      return {
        ...state,
        // Asked for a higher rendition before the link fell than while it was slow.
        down: slow.length > 0 && before.some((a) => a.height > lowest),
        // Asked for a higher rendition once it was fast again than the lowest while it was slow.
        up: after.some((a) => a.height > lowest),
        // The picture showed the slow stretch's rendition after showing a higher one.
        shownDown: state.shown.some((h, i) => h <= lowest && state.shown.slice(0, i).some((earlier) => earlier > h)),
        seen: `video fragments asked (rendition#fragment@s from the link's start; it was slow from ${FAST_MS / 1000} to ${(FAST_MS + SLOW_MS) / 1000} s): before it fell ${list(before)}; while slow ${list(slow)}; after it came back ${list(after)}; the picture showed ${state.shown.join(' → ')}`,
      };
    };
    // Until all three are seen, or the film is at its end.
    await poll(
      async () => `the quality down and back up, or the film's end: ${(await observe()).seen}`,
      async () => {
        const o = await observe();
        return o.error || (o.down && o.up && o.shownDown) || o.time > 94;
      },
      { timeout: 180_000, interval: 1000 },
    );
    const o = await observe();
    assert.is(o.error, '', `no error screen: ${o.seen}`);
    assert.ok(o.down, `a lower rendition asked while the link was slow than before it fell: ${o.seen}`);
    assert.ok(o.shownDown, `the picture stepped down to it: ${o.seen}`);
    assert.ok(o.up, `a higher rendition asked once the link was fast again: ${o.seen}`);
    // The same moves as the policy's decisions, handed to the page: its level went down, then up.
    const levels = await p.page.evaluate(() =>
      (window as unknown as { __playbackDecisions: Array<{ kind: string; level?: number }> }).__playbackDecisions.filter((d) => d.kind === 'level').map((d) => d.level!),
    );
    const downThenUp = levels.some((l, j) => levels.slice(0, j).some((before) => before > l) && levels.slice(j + 1).some((after) => after > l));
    assert.ok(downThenUp, `the page was handed level decisions down, then up: ${levels.join(' → ')}`);
  } finally {
    await p.close();
  }
});

test('on a slow link the film starts and plays on from its first fragments, each asked once', async () => {
  await ensureLadder({ small: true });
  // Each connection queues at most 16 KiB on the link (a new TCP connection's first flight), as a phone's
  // link shares itself out: the first fragments' bytes come in turns, and no request waits seconds behind
  // another's whole fragment for its first byte.
  link = createLink({ down: constantTrace(SLOW), up: constantTrace(SLOW), delayMs: 40, windowBytes: 16 * 1024 });
  const relay = await link.relay(Number(new URL(srv().url).port));
  const startedAt = Date.now();
  const p = await open('?movie_id=32&auto_play=1', { origin: `http://127.0.0.1:${relay.port}` });
  try {
    await waitForTime(p.page, 5, 120_000);
    // What the server was asked for since the test began: each first fragment once, whoever asked
    // (the page's early start and hls.js taking it over ask for it together once, not twice).
    const asked = srv()
      .requests.filter((r) => r.time >= startedAt && r.path.endsWith('/seg_000.m4s'))
      .map((r) => r.path);
    assert.ok(asked.some((u) => u.includes('/video/')) && asked.some((u) => u.includes('/audio/')), `both first fragments asked: ${asked.join(', ')}`);
    assert.is(new Set(asked).size, asked.length, `no first fragment asked twice: ${asked.join(', ')}`);
    assert.is(await p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? ''), '');
  } finally {
    await p.close();
  }
});

test.run();
