// The browser goals `npm run bench:playback` prints (bench/playback-goals.ts): each goal's arithmetic on
// hand-made totals, the edges (no stall on either page, a negative QoE, a missing number), and memory's
// trend over the long watch.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserGoals, goalsText, memoryGoals, qoeWithStart, slope, type PageTotals } from '../../../bench/playback-goals';

const page = (over: Partial<PageTotals>): PageTotals => ({
  runs: 3,
  errorScreens: 0,
  firstFrameMs: 2000,
  stalls: 0,
  rebufferRatio: 0,
  meanBitrate: 1_000_000,
  qoePerRun: 80,
  ...over,
});
const verdicts = (player: PageTotals, bare: PageTotals) => browserGoals(player, bare).map((r) => r.met);

test('the QoE goal counts the wait for the first frame as stall: 4.3 a second', () => {
  assert.is(qoeWithStart(page({ qoePerRun: 80, firstFrameMs: 2000 })), 80 - 8.6);
});

test('a player better on every count meets all five', () => {
  const player = page({ firstFrameMs: 1300, meanBitrate: 1_100_000, qoePerRun: 75 });
  const bare = page({ firstFrameMs: 2000, stalls: 2, rebufferRatio: 0.05, meanBitrate: 900_000, qoePerRun: 45 });
  assert.equal(verdicts(player, bare), [true, true, true, true, true]);
  const rows = browserGoals(player, bare);
  assert.is(rows[2]!.value, `${((75 - 4.3 * 1.3) / (45 - 4.3 * 2)).toFixed(2)}×`);
  assert.is(rows[4]!.value, '0.65×');
});

test('each goal fails on its own number, and only there', () => {
  const bare = page({ stalls: 1, rebufferRatio: 0.034, firstFrameMs: 2155, qoePerRun: 56, meanBitrate: 847_000 });
  // Firefox's 3G runs as docs/playback.md once had them: more stalls, a lower QoE, the rest met.
  const player = page({ stalls: 2, rebufferRatio: 0.077, firstFrameMs: 1343, qoePerRun: 50.8, meanBitrate: 1_112_000 });
  assert.equal(verdicts(player, bare), [true, false, false, true, true]);
  assert.equal(verdicts(page({ errorScreens: 1, firstFrameMs: 1000, qoePerRun: 100 }), page({})), [false, true, true, true, true]);
  assert.equal(verdicts(page({ meanBitrate: 890_000, firstFrameMs: 1000, qoePerRun: 100 }), page({})), [true, true, true, false, true]);
  assert.equal(verdicts(page({ firstFrameMs: 1800, qoePerRun: 100 }), page({})), [true, true, true, true, false]);
});

test('rebuffer: half the bare page’s, and no more stalls; no stall on either page is met', () => {
  const bare = page({ stalls: 2, rebufferRatio: 0.04 });
  assert.is(browserGoals(page({ stalls: 2, rebufferRatio: 0.02 }), bare)[1]!.met, true);
  assert.is(browserGoals(page({ stalls: 3, rebufferRatio: 0.01 }), bare)[1]!.met, false);
  assert.is(browserGoals(page({ stalls: 1, rebufferRatio: 0.021 }), bare)[1]!.met, false);
  assert.is(browserGoals(page({}), page({}))[1]!.met, true);
  assert.is(browserGoals(page({ stalls: 1, rebufferRatio: 0.01 }), page({}))[1]!.met, false);
});

test('a bare page whose QoE is below zero: the player must be better by a tenth of its size', () => {
  const bare = page({ qoePerRun: -20 + 8.6 }); // −20 with its start
  assert.is(browserGoals(page({ qoePerRun: -18 + 8.6 }), bare)[2]!.met, true);
  assert.is(browserGoals(page({ qoePerRun: -18.5 + 8.6 }), bare)[2]!.met, false);
  assert.match(browserGoals(page({}), bare)[2]!.value, /vs -20\.0/);
});

test('a number missing (no frame in any run: NaN) is not judged, never met', () => {
  const rows = browserGoals(page({ firstFrameMs: NaN }), page({}));
  assert.is(rows[4]!.met, undefined);
  assert.is(rows[2]!.met, undefined);
  assert.is(browserGoals(page({ runs: 0 }), page({}))[0]!.met, undefined);
  assert.match(goalsText('t', rows), /not judged/);
});

test('slope: least squares, NaN without two distinct points', () => {
  assert.is(slope([1, 2, 3], [10, 12, 14]), 2);
  assert.is(slope([1, 2, 3, 4], [5, 5, 5, 5]), 0);
  assert.ok(Number.isNaN(slope([1], [3])));
  assert.ok(Number.isNaN(slope([2, 2], [3, 4])));
});

const minutes = (heap: (m: number) => number, rss: (m: number) => number, n = 10) =>
  Array.from({ length: n }, (_, i) => ({ minute: i + 1, heapUsed: heap(i + 1), rendererRss: rss(i + 1) }));

test('memory: a flat trend with noise is met, a steady leak is not, minute 0 does not count', () => {
  const flat = minutes((m) => 20e6 + (m % 2) * 0.5e6, (m) => 500e6 + (m % 3) * 4e6);
  assert.equal(memoryGoals(flat).map((r) => r.met), [true, true]);
  // 0.5 MB a minute on a 20 MB heap: 30 MB an hour, 150 % of minute 1's.
  const leak = minutes((m) => 20e6 + m * 0.5e6, () => 500e6);
  assert.equal(memoryGoals(leak).map((r) => r.met), [false, true]);
  assert.match(memoryGoals(leak)[0]!.value, /^\+30\.0 MB an hour/);
  // The page's first minute fills its buffer: a jump before minute 1 is not a trend.
  const withStart = [{ minute: 0, heapUsed: 5e6, rendererRss: 200e6 }, ...flat];
  assert.equal(memoryGoals(withStart).map((r) => r.met), [true, true]);
});

test('memory: fewer than three readings are not judged', () => {
  assert.equal(memoryGoals(minutes(() => 1e6, () => 1e6, 2)).map((r) => r.met), [undefined, undefined]);
  assert.equal(memoryGoals([]).map((r) => r.met), [undefined, undefined]);
});

test.run();
