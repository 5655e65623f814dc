// The engine's arithmetic, computed by hand: 2 s segments of 2 Mbit (level 0, 1 Mb/s) and 4 Mbit
// (level 1, 2 Mb/s) over constant links and a step, with scripted policies.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHECK_MS, QUEUED_KIB, sessionManifest, simulate, type SessionOptions } from '../../../sim/engine';
import type { Download, Manifest, PolicyFactory, SimPolicy, SimView, Trace, Verdict } from '../../../sim/types';

const ladder = (segments: number): Manifest => ({
  segmentS: 2,
  bitratesKbps: [1000, 2000],
  segmentBits: [Array(segments).fill(2e6), Array(segments).fill(4e6)],
});
const link = (...periods: [number, number, number][]): Trace => ({
  name: 'hand',
  periods: periods.map(([durationMs, kbps, latencyMs]) => ({ durationMs, kbps, latencyMs })),
});
/** 2000 kb/s: a level-0 segment in 1 s, a level-1 one in 2 s. */
const steady = (latencyMs: number) => link([1000, 2000, latencyMs]);

interface Log {
  downloads: Download[];
  chosen: SimView[];
  stalls: number[];
  seeks: [number, number][];
}

/** A policy from a level per index, an abandon rule and a buffer target, logging what it is told. */
function scripted(
  levels: (view: SimView, log: Log) => number,
  extra: { abandon?: SimPolicy['abandon']; targetS?: number } = {},
): { factory: PolicyFactory; log: Log } {
  const log: Log = { downloads: [], chosen: [], stalls: [], seeks: [] };
  const factory: PolicyFactory = () => ({
    choose: (view) => (log.chosen.push(view), levels(view, log)),
    bufferTargetS: () => extra.targetS ?? 100,
    ...(extra.abandon ? { abandon: extra.abandon } : {}),
    onDownload: (_view, d) => void log.downloads.push(d),
    onStall: (view) => void log.stalls.push(view.nowMs),
    onSeek: (view, toS) => void log.seeks.push([view.nowMs, toS]),
  });
  return { factory, log };
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual}, expected ${expected}`);

function run(manifest: Manifest, trace: Trace, factory: PolicyFactory, options: SessionOptions) {
  return simulate(manifest, trace, factory, options);
}

test('constant link, level 0: the start is the first segment latency and transfer, then no stall', () => {
  // Each segment: 100 ms latency + 1000 ms; the first is in at 1.1 s, the fourth at 4.4 s, long
  // before the buffer runs out; 8 s of content played at 1 Mb/s.
  const { factory, log } = scripted(() => 0);
  const r = run(ladder(4), steady(100), factory, { seconds: 8 });
  close(r.startupS, 1.1, 'start');
  assert.equal([r.stalls, r.stallS, r.switches, r.failed], [0, 0, 0, false]);
  close(r.kbps, 1000, 'kb/s');
  close(r.qoe, (8 - 4.3 * 1.1) / 8, 'QoE');
  close(r.unplayedMB, 0, 'unplayed');
  assert.equal(log.downloads.map((d) => [d.startMs, d.firstByteMs, d.endMs]), [[0, 100, 1100], [1100, 1200, 2200], [2200, 2300, 3300], [3300, 3400, 4400]]);
});

test('a buffer target: the next request waits for the playhead to drain the buffer to it', () => {
  // 20 Mb/s: a segment in 100 ms. At 0.2 s 3.9 s are buffered: wait to 3 s (1.1 s); at 1.2 s 4.9 s: wait to 3.1 s.
  const { factory, log } = scripted(() => 0, { targetS: 3 });
  run(ladder(8), link([1000, 20000, 0]), factory, { seconds: 16 });
  assert.equal(log.chosen.slice(0, 4).map((v) => Math.round(v.nowMs)), [0, 100, 1100, 3100]);
  assert.equal(log.chosen.slice(2, 4).map((v) => Number(v.bufferS.toFixed(6))), [3, 3]);
});

test('a step down: the buffer runs dry, one stall until the next segment is in', () => {
  // 2 s at 2000 kb/s, then 4 s at 500, repeating. Segments in at 1, 2, 6 (4 s at 500) and 7 s; the buffer
  // (4 s of content at 2 s, playing since 1 s) is empty at 5 s: a 1 s stall.
  const { factory, log } = scripted(() => 0);
  const r = run(ladder(4), link([2000, 2000, 0], [4000, 500, 0]), factory, { seconds: 8 });
  close(r.startupS, 1, 'start');
  assert.equal(r.stalls, 1);
  close(r.stallS, 1, 'stall s');
  assert.equal(log.stalls, [5000]);
  close(r.rebufferRatio, 1 / 9, 'rebuffer ratio');
  close(r.qoe, (8 - 4.3 * 2) / 8, 'QoE');
  assert.equal(log.downloads.map((d) => d.endMs), [1000, 2000, 6000, 7000]);
});

test('a switch up and back down, and an abandon restarted lower: the bits thrown away are unplayed', () => {
  // 0 → L0 in at 1.1 s (start). 1 → L1, asked at 1.1, in at 3.2 (2 s transfer): the buffer ran out at
  // 3.1, a 0.1 s stall. 2 → L1 asked at 3.2, first byte at 3.3; at the 3.8 s check 1 Mbit is in and the
  // rule restarts it at L0: first byte 3.9, in at 4.9, before the buffer empties at 5.2. 3 → L0 in at 6.0.
  // Played: 2 s at 1 Mb/s, 2 at 2, 4 at 1; switches 0→1 and 1→0, 1 Mb/s each.
  const abandon = (_view: SimView, p: { index: number; level: number; bitsLoaded: number }): Verdict =>
    p.index === 2 && p.level === 1 && p.bitsLoaded >= 1e6 ? 0 : -1;
  const { factory, log } = scripted((v) => [0, 1, 1, 0][v.index]!, { abandon });
  const r = run(ladder(4), steady(100), factory, { seconds: 8, queuedKiB: 0 });
  close(r.startupS, 1.1, 'start');
  assert.equal(r.stalls, 1);
  close(r.stallS, 0.1, 'stall s');
  assert.equal(r.switches, 2);
  close(r.kbps, 1250, 'kb/s');
  close(r.qoe, (10 - 4.3 * 1.2 - 2) / 8, 'QoE');
  close(r.unplayedMB, 0.125, 'unplayed MB');
  const cut = log.downloads[2]!;
  assert.equal([cut.level, cut.index, cut.abandoned, cut.startMs, cut.firstByteMs, cut.endMs], [1, 2, true, 3200, 3300, 3800]);
  close(cut.bits, 1e6, 'abandoned bits');
  assert.equal(log.downloads.slice(3).map((d) => [d.level, d.index, d.startMs, d.endMs]), [[0, 2, 3800, 4900], [0, 3, 4900, 6000]]);
});

test('a response given up still sends its queued rest (QUEUED_KIB at most) before the next one, unplayed', () => {
  // As above, on a link that queues 64 KiB (524288 bits, 262.144 ms at 2 Mb/s): segment 2 given up
  // at 3.8 s with 1 of its 4 Mbit in, so 524288 bits still cross; the restart at L0 is answered at
  // 3.9 s but its first byte waits for them, to 4062.144 ms, and it is in at 5062.144, before the
  // buffer empties at 5.2 s. Segment 3 follows, in at 6162.144, before 7.2 s. The same one stall.
  assert.equal(QUEUED_KIB, 64);
  const abandon = (_view: SimView, p: { index: number; level: number; bitsLoaded: number }): Verdict =>
    p.index === 2 && p.level === 1 && p.bitsLoaded >= 1e6 ? 0 : -1;
  const { factory, log } = scripted((v) => [0, 1, 1, 0][v.index]!, { abandon });
  const r = run(ladder(4), steady(100), factory, { seconds: 8 });
  assert.equal(log.downloads.map((d) => [d.level, d.index, d.abandoned, d.startMs, Number(d.firstByteMs.toFixed(3)), Number(d.endMs.toFixed(3))]), [
    [0, 0, false, 0, 100, 1100],
    [1, 1, false, 1100, 1200, 3200],
    [1, 2, true, 3200, 3300, 3800],
    [0, 2, false, 3800, 4062.144, 5062.144],
    [0, 3, false, 5062.144, 5162.144, 6162.144],
  ]);
  assert.equal(r.stalls, 1);
  close(r.stallS, 0.1, 'stall s');
  close(r.unplayedMB, (1e6 + 524288) / 8e6, 'unplayed MB: what it had and what was still queued');
  // A link that queues nothing (or a rest smaller than the queue) costs only the rest.
  const none = scripted((v) => [0, 1, 1, 0][v.index]!, { abandon });
  close(run(ladder(4), steady(100), none.factory, { seconds: 8, queuedKiB: 0 }).unplayedMB, 1e6 / 8e6, 'no queue');
  const deep = scripted((v) => [0, 1, 1, 0][v.index]!, { abandon });
  close(run(ladder(4), steady(100), deep.factory, { seconds: 8, queuedKiB: 1024 }).unplayedMB, 4e6 / 8e6, 'a queue deeper than the rest');
});

test('the abandon rule is asked every CHECK_MS of a request, while its first byte is awaited too', () => {
  // 250 ms of latency, then 1 s of transfer: asked at 100 … 1200 ms, the first byte known from 300.
  const asked: [number, number | undefined, number][] = [];
  const { factory } = scripted(() => 0, { abandon: (v, p) => (asked.push([v.nowMs, p.firstByteMs, p.bitsLoaded]), -1) });
  run(ladder(1), steady(250), factory, { seconds: 2 });
  assert.equal(asked.map(([t]) => Math.round(t)), Array.from({ length: 12 }, (_, k) => (k + 1) * CHECK_MS));
  assert.equal(asked.slice(0, 3).map(([, first, bits]) => [first, Math.round(bits)]), [[undefined, 0], [undefined, 0], [250, 100000]]);
});

test('a failing level: the request fails after its latency, with no bits; the policy picks another', () => {
  const { factory, log } = scripted((_v, l) => (l.downloads.some((d) => d.failed) ? 0 : 1));
  const r = run(ladder(1), steady(100), factory, { seconds: 2, failingLevels: [1] });
  assert.equal(log.downloads.map((d) => [d.level, d.failed, d.bits, d.startMs, d.endMs]), [[1, true, 0, 0, 100], [0, false, 2e6, 100, 1200]]);
  close(r.startupS, 1.2, 'start');
  assert.equal(r.failed, false);
});

test('a policy that only asks a failing level, or answers fail, ends the session failed and worse than any play', () => {
  const stubborn = scripted(() => 1);
  const r = run(ladder(4), steady(100), stubborn.factory, { seconds: 8, failingLevels: [1] });
  assert.equal(r.failed, true);
  // 1000 requests of 100 ms of latency waited, then the 8 s never played count as stalled.
  close(r.startupS, 100, 'start');
  close(r.qoe, -4.3 * (100 + 8) / 8, 'QoE');

  const quitter = scripted(() => 0, { abandon: (v) => (v.index === 2 ? 'fail' : -1) });
  const q = run(ladder(4), steady(0), quitter.factory, { seconds: 8, queuedKiB: 0 });
  // Segments 0 and 1 in at 1 and 2 s; at 2.1 s segment 2 is given up, 0.2 Mbit loaded; 1.1 s played.
  assert.equal(q.failed, true);
  close(q.unplayedMB, (0.2e6 + 2.9 * 1e6) / 8e6, 'unplayed MB');
  close(q.qoe, (1.1 - 4.3 * (1 + 6.9)) / 8, 'QoE');
});

test('a seek past the buffer: the request in flight and the buffer are thrown away, the wait is not a stall', () => {
  // 1 s a segment, no latency. At 2.5 s: segment 2 half in (1 Mbit), 1.5 s played, 2.5 s buffered
  // (2.5 Mbit). Seek to 11 s: segment 5 asked at 2.5, in at 3.5, its first second skipped (1 Mbit);
  // segments 6 and 7 follow and the film plays to its end (16 s) at 8.5 s: 6.5 s played.
  const { factory, log } = scripted(() => 0);
  const r = run(ladder(8), steady(0), factory, { seconds: 16, seeks: [{ atMs: 2500, toS: 11 }], queuedKiB: 0 });
  assert.equal(log.seeks, [[2500, 11]]);
  assert.equal(log.downloads.map((d) => [d.index, d.abandoned, d.endMs]), [[0, false, 1000], [1, false, 2000], [2, true, 2500], [5, false, 3500], [6, false, 4500], [7, false, 5500]]);
  assert.equal([r.stalls, r.stallS], [0, 0]);
  close(r.startupS, 1, 'start');
  close(r.unplayedMB, 4.5e6 / 8e6, 'unplayed MB');
  close(r.qoe, (6.5 - 4.3) / 6.5, 'QoE');
});

test('a seek within the buffer plays on; what it skips is unplayed', () => {
  // Segments in at 1, 2, 3, 4 s; at 3.5 s the playhead is at 2.5 s, buffered to 6 (segment 3 in flight
  // keeps going); seek to 5: 2.5 s skipped (2.5 Mbit); content left 3 s, played by 6.5 s.
  const { factory, log } = scripted(() => 0);
  const r = run(ladder(4), steady(0), factory, { seconds: 8, seeks: [{ atMs: 3500, toS: 5 }] });
  assert.equal(log.downloads.every((d) => !d.abandoned), true);
  close(r.unplayedMB, 2.5e6 / 8e6, 'unplayed MB');
  close(r.kbps, 1000, 'kb/s');
  assert.equal(r.stalls, 0);
});

test('the viewer leaves after `seconds`: what is buffered then is unplayed; the ladder repeats to cover them', () => {
  const { factory } = scripted(() => 0);
  // 4 segments in by 4 s, playing from 1 s; leaving at 5 s with 4 s buffered (4 Mbit).
  const r = run(ladder(4), steady(0), factory, { seconds: 4 });
  close(r.unplayedMB, 0.5, 'unplayed MB');
  assert.equal(sessionManifest(ladder(4), 20).segmentBits[1]!.length, 12);
  assert.equal(sessionManifest(ladder(4), 8).segmentBits[0]!.length, 4);
});

test('wallSeconds: the viewer leaves at that moment of the clock, stalled or not, however much is left to see', () => {
  // The step link of 'a step down': stalled from 5 s until the third segment lands at 6 s. Leaving at
  // 5.5 s: 4 s played (1–5 s), 0.5 s of stall, and what the third segment had of its 2 Mbit (asked at
  // 2 s, 3.5 s at 500 kb/s: 1.75 Mbit) thrown away.
  const { factory, log } = scripted(() => 0);
  const r = run(ladder(4), link([2000, 2000, 0], [4000, 500, 0]), factory, { seconds: 600, wallSeconds: 5.5 });
  assert.equal([r.stalls, r.failed], [1, false]);
  close(r.stallS, 0.5, 'stall s');
  close(r.startupS, 1, 'start');
  close(r.rebufferRatio, 0.5 / 4.5, 'rebuffer ratio');
  close(r.qoe, (4 - 4.3 * 1.5) / 4, 'QoE');
  close(r.unplayedMB, 1.75 / 8, 'unplayed MB');
  assert.equal(log.downloads.map((d) => d.endMs), [1000, 2000]);
  // Leaving while the buffer plays: the content seconds bound it, not the clock's.
  const early = run(ladder(4), steady(0), scripted(() => 0).factory, { seconds: 600, wallSeconds: 3 });
  close(early.startupS, 1, 'start');
  assert.equal(early.stallS, 0);
  close(early.kbps, 1000, 'kb/s');
  close(early.unplayedMB, 0.5, 'unplayed MB: 3 segments in, 2 s of them played');
  assert.throws(() => run(ladder(4), steady(0), scripted(() => 0).factory, { seconds: 8, wallSeconds: 0 }), /wallSeconds must be > 0/);
});

test("a segment's audio loads beside its video: the link carries both, a policy measures the video alone", () => {
  // Level 0's segments are 2 Mbit, 0.5 of it audio: in at 1 and 2 s on 2000 kb/s as before, but the
  // policy is told 1.5 Mbit a segment (the video's bytes over the time both took), and the abandon rule
  // sees the video's bits so far and in all.
  const audio = { ...ladder(2), audioBits: [500_000, 500_000] };
  const seen: [number, number][] = [];
  const { factory, log } = scripted(() => 0, { abandon: (_v, p) => (seen.push([p.bitsLoaded, p.bitsTotal]), -1) });
  const r = run(audio, steady(0), factory, { seconds: 4 });
  assert.equal(log.downloads.map((d) => [d.bits, d.endMs]), [[1_500_000, 1000], [1_500_000, 2000]]);
  assert.equal(seen[4], [750_000, 1_500_000], 'half-way through the first segment');
  close(r.kbps, 1000, 'kb/s played: the level, audio included');
  assert.equal(sessionManifest(audio, 8).audioBits, [500_000, 500_000, 500_000, 500_000], 'repeated with the ladder');
});

test('a level outside the ladder is the policy bug it is', () => {
  const { factory } = scripted(() => 5);
  assert.throws(() => run(ladder(4), steady(0), factory, { seconds: 8 }), /choose answered level 5/);
});

test.run();
