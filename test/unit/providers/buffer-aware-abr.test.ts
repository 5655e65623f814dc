// providers/buffer-aware-abr.ts: no step up until 10 s are buffered ahead (unless its peak fragment fetches within half of them); steps down and the first level pass;
// the level the buffer allows; an in-flight fragment the link stopped paying for restarted lower.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { abandonTo, ahead, bufferCap, type Choosing, forwardRoom, forwardTarget, fullAhead, gated, type InFlight, nextLevel, recentRate } from '../../../src/providers/buffer-aware-abr';

const ranges = (...r: Array<[number, number]>) => ({ length: r.length, start: (i: number) => r[i][0], end: (i: number) => r[i][1] }) as TimeRanges;

// The generated ladder's master playlist (AVERAGE-BANDWIDTH, BANDWIDTH).
const REAL = [
  { bitrate: 541949, peak: 931650 },
  { bitrate: 920437, peak: 1828018 },
  { bitrate: 1397646, peak: 2946662 },
  { bitrate: 2681594, peak: 5851132 },
  { bitrate: 4780028, peak: 10279588 },
];

test('a step up waits for 10 s ahead unless the link pays for it many times over; at 10 s it goes', () => {
  assert.is(gated(REAL, 3, 1, 9.9, 1e6, 4), 1);
  assert.is(gated(REAL, 3, 1, 10, 1e6, 4), 3);
  assert.is(gated(REAL, 2, 1, 0, 1e9, 4), 1, 'nothing ahead: nothing pays');
});

test('below 10 s: the highest level up to the choice whose peak fragment fetches within half the buffer', () => {
  // The LTE trace at 93 s: the first 240p fragment in at 4.8 Mb/s, 4 s ahead: 360p (1.5 s for its peak
  // fragment), not 480p (2.5 s) nor 720p (4.9 s).
  assert.is(gated(REAL, 3, 0, 4, 4.8e6, 4), 1);
  // 8 s ahead at 5 Mb/s: 480p (2.4 s for its peak fragment), not 720p (4.7 s); at 6 Mb/s 720p (3.9 s).
  assert.is(gated(REAL, 4, 1, 8, 5e6, 4), 2);
  assert.is(gated(REAL, 4, 1, 8, 6e6, 4), 3);
  // A 3G start (2.5 Mb/s, 4 s ahead): 360p's peak fragment takes 2.9 s, more than half: stays on 240p.
  assert.is(gated(REAL, 1, 0, 4, 2.5e6, 4), 0);
  // The choice is the ceiling: a link that pays for 1080p does not lift a choice of 480p.
  assert.is(gated(REAL, 2, 0, 8, 1e9, 4), 2);
});

test('below 10 s, no estimate or no fragment length known: no early step up', () => {
  assert.is(gated(REAL, 3, 1, 8, 0, 4), 1);
  assert.is(gated(REAL, 3, 1, 8, NaN, 4), 1);
  assert.is(gated(REAL, 3, 1, 8, 1e9, Infinity), 1);
  assert.is(gated(REAL, 3, 1, -5, 1e9, 4), 1);
});

const choosing = (c: Partial<Choosing>): Choosing => ({ choice: 2, current: 2, aheadS: 50, estimate: 3.2e6, recent: 0, fragmentS: 4, min: 0, max: 4, filled: true, ...c });

test('nextLevel, 45 s ahead: the level the buffer allows, above hls.js’s choice (the LTE trace’s second half, 480p with 55 s ahead)', () => {
  // 0.9 × 3.2 = 2.88 Mb/s pays for 720p’s 2.68 average; hls.js’s step up prices the estimate at 0.7 (2.24).
  assert.is(nextLevel(REAL, choosing({})), 3);
  assert.is(nextLevel(REAL, choosing({ aheadS: 45 })), 3);
  assert.is(nextLevel(REAL, choosing({ aheadS: 44 })), 2, 'not full (the 3G trace’s hole begins with 30–41 s ahead): hls.js’s choice');
  assert.is(nextLevel(REAL, choosing({ max: 2 })), 2, 'never above the levels ABR may choose');
  assert.is(nextLevel(REAL, choosing({ choice: 1 })), 3, 'a choice below the current one too');
});

test('nextLevel, full: priced by the last fragments’ rate when hls.js’s estimate lags it (the LTE trace at 47 s: 2.6 Mb/s estimated, 6–12 Mb/s measured)', () => {
  const lagging = { estimate: 2.6e6, aheadS: 60 };
  assert.is(nextLevel(REAL, choosing(lagging)), 2, 'the estimate alone: 0.9 × 2.6 pays for 480p');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 8e6 })), 3, '0.9 × 8 Mb/s pays for 1080p’s 4.78 average: one level up at a time');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 8e6, current: 3, choice: 3 })), 4);
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 8e6, choice: 4 })), 4, 'hls.js’s own choice may leap');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 3.2e6 })), 3);
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 1e6 })), 2, 'a lower rate never lowers what the estimate pays for');
  assert.is(nextLevel(REAL, choosing({ ...lagging, aheadS: 44, recent: 8e6 })), 2, 'not full: hls.js’s choice, not above it');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 8e6, max: 3 })), 3, 'never above the levels ABR may choose');
});

test('nextLevel, full is three quarters of the loading level’s own buffer: 720p (33 s) from 25 s ahead', () => {
  assert.is(nextLevel(REAL, choosing({ current: 3, choice: 3, estimate: 5.5e6, aheadS: 26 })), 4, '0.9 × 5.5 pays for 1080p');
  assert.is(nextLevel(REAL, choosing({ current: 3, choice: 3, estimate: 5.5e6, aheadS: 24 })), 3, 'not full: hls.js’s choice');
});

test('fullAhead: 45 s at the low levels, 25 s at 720p, 15 s at 1080p', () => {
  assert.equal(REAL.map((l) => Math.round(fullAhead(l.peak))), [45, 45, 45, 25, 15]);
  assert.is(fullAhead(0), 15);
  assert.is(fullAhead(NaN), 15);
});

test('recentRate: the harmonic mean of the last four rates; none with fewer or with nonsense among them', () => {
  assert.is(recentRate([]), 0);
  assert.is(recentRate([4e6, 4e6, 4e6]), 0, 'three are too few');
  assert.is(recentRate([4e6, 4e6, 4e6, 4e6]), 4e6);
  assert.is(Math.round(recentRate([1e9, 8e6, 8e6, 8e6, 1e6])), 2909091, 'the last four; a slow one weighs most');
  assert.is(recentRate([4e6, 4e6, 4e6, NaN]), 0);
  assert.is(recentRate([4e6, 4e6, 0, 4e6]), 0);
  assert.is(recentRate([4e6, 4e6, -1, 4e6]), 0);
  assert.is(recentRate([4e6, 4e6, Infinity, 4e6]), 0);
});

test('nextLevel, the buffer full but nothing estimated, or nothing loading yet: hls.js’s choice, capped as before', () => {
  assert.is(nextLevel(REAL, choosing({ estimate: 0 })), 2);
  assert.is(nextLevel(REAL, choosing({ estimate: NaN })), 2);
  assert.is(nextLevel(REAL, choosing({ current: -1, choice: 0 })), 0);
});

test('nextLevel, not full: hls.js’s choice gated and capped (a slow link with a deep buffer stays low)', () => {
  assert.is(nextLevel(REAL, choosing({ aheadS: 8, choice: 4, current: 1, estimate: 5e6 })), 2, 'gated: 480p’s peak fragment in 2.4 s');
  assert.is(nextLevel(REAL, choosing({ aheadS: 8, choice: 4, current: 1, estimate: 2e6 })), 1, 'capped: 0.61 × 2 Mb/s pays for 360p only');
  assert.is(nextLevel(REAL, choosing({ aheadS: 60, choice: 0, current: 0, estimate: 0.9e6 })), 0, '0.81 Mb/s: 240p, however full');
  assert.is(nextLevel(REAL, choosing({ aheadS: 60, choice: 4, current: 2, estimate: 1e7, min: 1 })), 4);
});

test('nextLevel, 15 s ahead or more: the level loading now stays while nine tenths of the estimate pay for it (the LTE trace at 47 s)', () => {
  const dip = { current: 2, choice: 2, estimate: 1.6e6, aheadS: 20 };
  assert.is(bufferCap(REAL, dip.estimate, dip.aheadS), 1, 'the buffer’s share, 0.77 × 1.6 = 1.23 Mb/s, prices 480p’s 1.40 out');
  assert.is(nextLevel(REAL, choosing(dip)), 2, '0.9 × 1.6 = 1.44 pays for 480p: kept');
  assert.is(nextLevel(REAL, choosing({ ...dip, estimate: 1.5e6 })), 1, '0.9 × 1.5 = 1.35 does not: down');
  assert.is(nextLevel(REAL, choosing({ ...dip, aheadS: 14.9 })), 1, 'under 15 s ahead the buffer’s share rules');
  assert.is(nextLevel(REAL, choosing({ ...dip, choice: 1 })), 1, 'hls.js’s own step down is taken');
  assert.is(nextLevel(REAL, choosing({ ...dip, max: 1 })), 1, 'never above the levels ABR may choose');
  assert.is(nextLevel(REAL, choosing({ ...dip, estimate: 0 })), 2, 'nothing estimated: hls.js’s choice, as before');
  assert.is(nextLevel(REAL, choosing({ ...dip, estimate: NaN, choice: 1 })), 1);
});

test('a step down, the same level, and the first choice (nothing loaded yet) are never held', () => {
  assert.is(gated(REAL, 0, 2, 1, 0, 4), 0);
  assert.is(gated(REAL, 2, 2, 1, 0, 4), 2);
  assert.is(gated(REAL, 4, -1, 0, 0, 4), 4);
});

test('ahead: the range the playhead is in (0.5 s of slack before it), nothing when it is in a hole or none', () => {
  assert.is(ahead({ currentTime: 12, buffered: ranges([0, 4], [10, 30]) }), 18);
  assert.is(ahead({ currentTime: 9.6, buffered: ranges([10, 30]) }), 20.4);
  assert.is(ahead({ currentTime: 5, buffered: ranges([0, 4], [10, 30]) }), 0);
  assert.is(ahead({ currentTime: 30, buffered: ranges([10, 30]) }), 0);
  assert.is(ahead({ currentTime: 0, buffered: ranges() }), 0);
  assert.is(ahead(null), 0);
});

// The ladder's averages (bits/s): 240p … 1080p, each priced with a peak small enough for a 60 s buffer.
const LADDER = [283e3, 730e3, 1.4e6, 2.7e6, 4.5e6].map((bitrate) => ({ bitrate, peak: 1e6 }));

test('forwardTarget: a minute at low peaks, 24 MB above, 20 s at least (the ladder: 60/60/60/33/20 s)', () => {
  assert.equal(REAL.map((l) => Math.round(forwardTarget(l.peak))), [60, 60, 60, 33, 20]);
  assert.is(Math.round(forwardTarget(8e6)), 24);
  assert.is(forwardTarget(1e6), 60);
  assert.is(forwardTarget(0), 20);
  assert.is(forwardTarget(Number.NaN), 20);
});

test('forwardRoom: the seconds ahead and what 16 MB as fetched leave, at the next level’s average (the LTE trace at 93 s: 480p → 1080p with 36 s ahead)', () => {
  const [p480, p720, p1080] = [REAL[2], REAL[3], REAL[4]];
  assert.is(Math.round(forwardRoom(p1080, 36, 36 * (p480.bitrate / 8))), 52, '36 s of 480p (6.3 MB), then 9.7 MB of 1080p: 16 s more');
  assert.is(Math.round(forwardRoom(p1080, 27, 27 * (p1080.bitrate / 8))), 27, 'all held at 1080p: 27 s (16 MB), no more');
  assert.is(forwardRoom(p1080, 25, 25 * (p1080.peak / 8)), 25, '25 s at the peak (32 MB): full, nothing fetched');
  assert.is(Math.round(forwardRoom(p720, 20, 20 * (p720.bitrate / 8))), 48, '720p: 48 s as fetched (its own target 33 s)');
  assert.is(forwardRoom(p1080, 0, 0), 20, 'nothing ahead: the level’s own target');
  assert.is(forwardRoom(p1080, 59, 1e6), 60, 'never above a minute');
  assert.is(forwardRoom(REAL[1], 10, 1e6), 60, 'a low level’s own minute');
});

test('forwardRoom: nonsense in, the level’s own target out, or what is ahead', () => {
  assert.is(forwardRoom({ bitrate: 0, peak: 0 }, 30, 1e6), 20);
  assert.is(forwardRoom({ bitrate: NaN, peak: NaN }, 30, 1e6), 20);
  assert.is(forwardRoom(REAL[4], NaN, 1e6), 20);
  assert.is(forwardRoom(REAL[4], -3, 1e6), 20);
  assert.is(Math.round(forwardRoom(REAL[4], 10, NaN)), 37, 'nothing known held: the whole 16 MB, 26.8 s after the 10 s ahead');
  assert.is(Math.round(forwardRoom(REAL[4], 10, -5)), 37);
  assert.is(forwardRoom(REAL[4], 30, Infinity), 30);
});

test('bufferCap: a level whose whole buffer is under 30 s gets the full share once that buffer is full', () => {
  assert.is(bufferCap(REAL, 5.4e6, 20), 4, '0.9 × 5.4 = 4.86 Mb/s with 1080p’s 20 s ahead');
  assert.is(bufferCap(REAL, 5.4e6, 10), 3, '0.7 × 5.4 = 3.78: 720p');
  assert.is(bufferCap(REAL, 3.1e6, 30), 3, '720p buffers 33 s: full share from 30 s, 0.9 × 3.1 = 2.79');
  assert.is(bufferCap(REAL, 3.1e6, 22), 2, '0.79 × 3.1 = 2.45');
  assert.is(bufferCap(REAL, 5e6, 20), 3, 'a level of 20 s: 0.9 × 5 = 4.5 < 1080p’s 4.78');
  assert.is(bufferCap(REAL, 1.25e6, 20), 1, '360p’s buffer is 60 s: 30 s to full, 0.77 × 1.25 = 0.96');
  assert.is(bufferCap(REAL, 1.15e6, 20), 0, '0.77 × 1.15 = 0.88');
});

test('bufferCap: half the estimate with nothing ahead, nine tenths from 30 s on, in between by the buffer', () => {
  assert.is(bufferCap(LADDER, 2e6, 0), 1, '1 Mb/s to spend: 730k');
  assert.is(bufferCap(LADDER, 2e6, 30), 2, '1.8 Mb/s: 1.4M');
  assert.is(bufferCap(LADDER, 2e6, 120), 2, 'more buffer spends no more than 0.9');
  assert.is(bufferCap(LADDER, 3.2e6, 0), 2, '1.6 Mb/s');
  assert.is(bufferCap(LADDER, 3.2e6, 15), 2, '0.7 × 3.2 = 2.24 Mb/s');
  assert.is(bufferCap(LADDER, 3.2e6, 29), 3, '0.887 × 3.2 = 2.84 Mb/s');
  assert.is(bufferCap(LADDER, 6e6, 30), 4);
});

test('bufferCap: the lowest level when none fits; every level with no estimate; nonsense buffers read as none or full', () => {
  assert.is(bufferCap(LADDER, 1e5, 60), 0);
  assert.is(bufferCap(LADDER, 0, 0), 4);
  assert.is(bufferCap(LADDER, Number.NaN, 0), 4);
  assert.is(bufferCap(LADDER, 2e6, -5), 1);
  assert.is(bufferCap(LADDER, 2e6, Number.POSITIVE_INFINITY), 2);
  assert.is(bufferCap([], 2e6, 10), 0);
  assert.is(bufferCap([{ bitrate: 500e3, peak: 1e6 }], 2e6, 10), 0);
});

// The 3G trace at 0 s: 360p seg_016 (429 kB) asked at 28.6 s, 108 kB in 6 s into the hole, 30 s ahead.
const HOLE: InFlight = { level: 1, durationS: 4, loaded: 108000, total: 429000, streamingS: 6, aheadS: 30 };

test('abandonTo: a 360p fragment crawling into a hole, its rest over half the buffer: restarted at 240p', () => {
  assert.is(abandonTo(REAL, 0, HOLE), 0);
});

test('abandonTo: finished when the buffer pays for its rest, when it arrives faster than its level plays, or when a lower fragment saves too little', () => {
  assert.is(abandonTo(REAL, 0, { ...HOLE, aheadS: 40 }), -1, 'rest 17.8 s, under half of 40 s');
  assert.is(abandonTo(REAL, 0, { ...HOLE, loaded: 300000, streamingS: 2 }), -1, '1.2 Mb/s pays for 240p: not a hole');
  const dip1080: InFlight = { level: 4, durationS: 4, loaded: 500000, total: 2400000, streamingS: 2, aheadS: 6 };
  assert.is(abandonTo(REAL, 0, dip1080), -1, '1080p at 2 Mb/s drains its level but pays for 240p: left to hls.js');
  assert.is(abandonTo(REAL, 3, { ...dip1080, loaded: 300000, streamingS: 2 }), 3, 'with 720p the lowest allowed, 1.2 Mb/s does not pay for it: restarted there');
  assert.is(abandonTo(REAL, 0, { ...HOLE, loaded: 260000, streamingS: 20, aheadS: 10 }), -1, '169 kB left (13 s at its rate, over half of 10 s): a 240p fragment (≈ 250 kB at this weight) saves nothing');
});

test('abandonTo: the highest lower level that pays; never below minLevel, never from the lowest level', () => {
  const slow1080: InFlight = { level: 4, durationS: 4, loaded: 200000, total: 2400000, streamingS: 4, aheadS: 12 };
  assert.is(abandonTo(REAL, 0, slow1080), 3, '720p weighs 56 % of the 1080p fragment: under 80 % of its 2.2 MB rest');
  assert.is(abandonTo(REAL, 2, { ...HOLE, level: 2, total: 700000 }), -1, 'level 2 with minLevel 2: nothing below to go to');
  assert.is(abandonTo(REAL, 0, { ...HOLE, level: 0 }), -1);
  assert.is(abandonTo(REAL, 1, HOLE), -1);
});

test('abandonTo: nasty inputs (no byte yet, under a second of streaming, unknown total, NaN, unknown level) never abandon on a guess', () => {
  assert.is(abandonTo(REAL, 0, { ...HOLE, loaded: 0 }), -1);
  assert.is(abandonTo(REAL, 0, { ...HOLE, streamingS: 0.5 }), -1);
  assert.is(abandonTo(REAL, 0, { ...HOLE, streamingS: Number.NaN }), -1);
  assert.is(abandonTo(REAL, 0, { ...HOLE, loaded: Number.NaN }), -1);
  assert.is(abandonTo(REAL, 0, { ...HOLE, durationS: 0 }), -1);
  assert.is(abandonTo(REAL, 0, { ...HOLE, level: 7 }), -1);
  assert.is(abandonTo([], 0, HOLE), -1);
  assert.is(abandonTo(REAL, 0, { ...HOLE, aheadS: Number.NaN }), -1, 'an unknown buffer is not read as empty');
  // Content-Length unknown: the level's average (460 kB) stands for its weight, and 240p's 271 kB is under 80 % of its 352 kB rest.
  assert.is(abandonTo(REAL, 0, { ...HOLE, total: 0 }), 0);
  assert.is(abandonTo(REAL, -3, HOLE), 0, 'a negative minLevel reads as the lowest');
});

test('the start on a slow link (under six times the lowest level): at most 0.55 of the estimate until the buffer has been full', () => {
  // The 3G trace at 0 s in Firefox: 2.4 Mb/s estimated with 20 s ahead, the hole 7 s away.
  assert.is(bufferCap(REAL, 2.4e6, 20), 2, 'the buffer’s share, 0.77 × 2.4 = 1.84 Mb/s, pays for 480p');
  assert.is(bufferCap(REAL, 2.4e6, 20, true), 1, 'starting: 0.55 × 2.4 = 1.32, 360p');
  assert.is(bufferCap(REAL, 2.4e6, 0, true), 1, 'under the cap the buffer’s share rules as before: 0.5 × 2.4 = 1.2');
  assert.is(bufferCap(REAL, 1.5e6, 60, true), 0, 'however full the buffer');
  // The LTE trace at 0 s after its dip: 4 Mb/s (7.4 × 240p’s 0.54) with 20 s ahead climbs as before.
  assert.is(bufferCap(REAL, 4e6, 20, true), 3, '0.77 × 4 = 3.07 Mb/s pays for 720p');
  assert.is(bufferCap(REAL, 3.2e6, 20, true), 2, 'just under six times: 0.55 × 3.2 = 1.76, 480p');
  assert.is(bufferCap(REAL, 0, 20, true), 4, 'nothing estimated: every level, as before');
});

test('nextLevel: the start’s share until the buffer has first been full, then the buffer’s; full now, the full buffer’s rule', () => {
  const slow = { current: 1, choice: 3, estimate: 2.4e6, aheadS: 20, filled: false };
  assert.is(nextLevel(REAL, choosing(slow)), 1, 'starting: 360p');
  assert.is(nextLevel(REAL, choosing({ ...slow, filled: true })), 2, 'filled once: 480p');
  assert.is(nextLevel(REAL, choosing({ ...slow, aheadS: 45 })), 2, 'full now (45 s at 360p): the full buffer’s rule');
  assert.is(nextLevel(REAL, choosing({ ...slow, estimate: 4e6 })), 3, 'a fast link is not held: 720p');
});

test('nextLevel, not full: the cap priced by the better of hls.js’s estimate and the last fragments’ rate (the LTE trace at 47 s after its dip)', () => {
  // hls.js’s estimate, weighted by download time, lags a link back at 5 Mb/s whose small 240p fragments
  // load in a fraction of a second each; under six times the lowest level it alone held the start at 0.55.
  const lagging = { current: 2, choice: 3, estimate: 2.8e6, aheadS: 20, filled: false };
  assert.is(nextLevel(REAL, choosing(lagging)), 2, 'the estimate alone: starting, 0.55 × 2.8 = 1.54, 480p');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 5e6 })), 3, 'the rate, 5 Mb/s, is over six times: 0.77 × 5 = 3.83 pays for 720p');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 5e6, choice: 2 })), 2, 'never above hls.js’s choice while not full');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 1e6 })), 2, 'a lower rate (a hole coming) never lowers what the estimate pays for');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 1e6, estimate: 1.5e6 })), 0, 'both low: 240p');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: NaN })), 2, 'a nonsense rate reads as none: the estimate prices');
  assert.is(nextLevel(REAL, choosing({ ...lagging, recent: 5e6, filled: true, aheadS: 8, current: 0, choice: 4 })), 1, 'under 10 s ahead a step up is still gated by hls.js’s estimate: 360p’s peak fragment in 2.6 s');
});

test.run();
