// The baselines' arithmetic, computed by hand: each policy over a few segments of a constant or stepped
// link (through the engine), and its inner rules (hls.js's EWMA, BOLA's utility choice, DYNAMIC's
// switch, the abandon rules) on views written out here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { simulate } from '../../../sim/engine';
import { bolaE, createBolaCore, type Estimate } from '../../../sim/policies/bola-e';
import { dynamic } from '../../../sim/policies/dynamic';
import { floor } from '../../../sim/policies/floor';
import { createHlsjs, hlsjs } from '../../../sim/policies/hlsjs';
import { player } from '../../../sim/policies/player';
import { throughput } from '../../../sim/policies/throughput';
import type { Download, Manifest, PolicyFactory, SimView, Trace } from '../../../sim/types';

/** Segments of exactly their level's bitrate × duration. */
const ladder = (segmentS: number, kbps: number[], segments = 20): Manifest => ({
  segmentS,
  bitratesKbps: kbps,
  segmentBits: kbps.map((k) => Array<number>(segments).fill(k * 1000 * segmentS)),
});
const link = (...periods: [number, number, number][]): Trace => ({
  name: 'hand',
  periods: periods.map(([durationMs, kbps, latencyMs]) => ({ durationMs, kbps, latencyMs })),
});
/** The levels a policy chooses for the first `count` segments. */
function chosen(factory: PolicyFactory, manifest: Manifest, trace: Trace, count: number): number[] {
  const levels: number[] = [];
  const logged: PolicyFactory = (m) => {
    const p = factory(m);
    return { ...p, choose: (view) => (levels.push(p.choose(view)), levels[levels.length - 1]!) };
  };
  simulate(manifest, trace, logged, { seconds: count * manifest.segmentS });
  return levels.slice(0, count);
}
const view = (manifest: Manifest, fields: Partial<SimView>): SimView => ({ nowMs: 0, bufferS: 0, index: 0, lastLevel: -1, playing: true, manifest, ...fields });
const download = (fields: Partial<Download>): Download => ({ level: 0, index: 0, bits: 0, startMs: 0, firstByteMs: 0, endMs: 0, abandoned: false, failed: false, ...fields });

// 3 levels of 2 s: 1, 2 and 4 Mb/s. BOLA's constants for them (target 25 s, 10 s minimum):
// v = 1, 1 + ln 2, 1 + ln 4; γp = (v₃ − 1) ÷ (25 ÷ 10 − 1) = 0.924196; V = 10 ÷ γp = 10.82021.
// V (v_m + γp) = 20.8202, 28.3202, 35.8202 s: level 1 beats level 0 above 13.3202 s of buffer, level 2
// beats level 1 above 20.8202 s.
const three = ladder(2, [1000, 2000, 4000]);
const estimateOf = (kbps: number, latencyMs = 0): Estimate => ({ kbps: () => kbps, latencyMs: () => latencyMs, push: () => {} });

test('throughput: the highest level under 0.9 of the harmonic mean of the last 5 requests', () => {
  // 0.3 / 0.6 / 1 Mb/s, 2 s; 1 Mb/s for 2 s, then 3 Mb/s; no latency.
  const m = ladder(2, [300, 600, 1000]);
  const trace = link([2000, 1000, 0], [1e9, 3000, 0]);
  // #0: nothing measured, level 0 (0.6 Mbit in 0.6 s: 1000 kb/s). #1: 0.9 × 1000 = 900 → level 1 (1.2 Mbit,
  // 0.6–1.8 s: 1000 kb/s). #2: still 900 → level 1 (0.2 Mbit by 2 s, 1 Mbit at 3 Mb/s: ends 2.333 s, 2250 kb/s).
  // #3: 0.9 × 3 ÷ (1/1000 + 1/1000 + 1/2250) = 1104.5 → level 2.
  assert.equal(chosen(throughput, m, trace, 4), [0, 1, 1, 2]);
  const p = throughput(m);
  assert.is(p.bufferTargetS(view(m, {})), 30);
  assert.is(p.abandon, undefined);
  // Only the last five count: one 100 kb/s sample then five at 4000 leave 0.9 × 4000 → level 2.
  p.onDownload(view(m, {}), download({ bits: 100, endMs: 1 }));
  for (let i = 0; i < 5; i++) p.onDownload(view(m, {}), download({ bits: 4000, endMs: 1 }));
  assert.is(p.choose(view(m, {})), 2);
});

test('hls.js: the start from the default estimate, then the 0.95 / 0.7 factors of a constant link', () => {
  const m = ladder(4, [300, 750, 1200, 1850, 2850]);
  // 1.5 Mb/s, 100 ms to the first byte. #0: 500 kb/s covers only level 0. #1 (4 s buffered): 1.2 Mbit in
  // 0.8 s after the wait is a 1.5 Mb/s sample; going up needs 0.7 × 1.5 ≥ the level: level 1 (1.05 ≥ 0.75),
  // fetched within the 4 s buffered (0.1 + 3 ÷ 1.05 + 0.1 for its playlist = 3.06 s). Level 2 needs 1.714 Mb/s.
  assert.equal(chosen(hlsjs, m, link([1000, 1500, 100]), 4), [0, 1, 1, 1]);
  // The forward buffer: what 60 MB holds at the level, at least 30 s, at most 600 s.
  const abr = createHlsjs(m);
  assert.is(abr.bufferTargetS(1), 600);
  assert.ok(Math.abs(abr.bufferTargetS(4) - 480e6 / 2.85e6) < 1e-9);
});

test("hls.js: the EWMA after two samples, weighted by download time, the lower of fast and slow", () => {
  const m = ladder(4, [300, 750, 1200, 1850, 2850]);
  const abr = createHlsjs(m);
  assert.is(abr.estimateBps(), 500_000);
  abr.asked(0);
  abr.loaded(0, 0, 100, 1100, 1.2e6); // 1 s after the 100 ms wait: 1.2 Mb/s
  abr.asked(1);
  abr.loaded(1, 2000, 2100, 3100, 3e6); // 3 Mb/s, also over 1 s
  // Each EWMA with weight-1 samples: (v₂ + α v₁) ÷ (1 + α), α = 0.5^(1/half-life).
  const ewma = (halfLife: number) => {
    const a = 0.5 ** (1 / halfLife);
    return (3e6 + a * 1.2e6) / (1 + a);
  };
  assert.ok(Math.abs(ewma(3) - 2203512.0) < 1); // fast
  assert.ok(Math.abs(ewma(9) - 2134640.2) < 1); // slow, the lower
  assert.ok(Math.abs(abr.estimateBps() - ewma(9)) < 1e-6);
  // With 8 s buffered, up to level 2 (0.7 × 2.13 = 1.49 ≥ 1.2; 0.1 + 4.8 ÷ 1.49 + 0.1 = 3.41 s < 8 s);
  // with 3 s, level 2 cannot arrive in time and level 1 (0.95 × 2.13; 0.1 + 3 ÷ 2.03 = 1.58 s) can.
  assert.is(abr.nextLevel(8), 2);
  assert.is(abr.nextLevel(3), 1);
});

test('hls.js: a level priced at its declared peak, but at its average with two segments buffered', () => {
  // Declared averages 300 / 750 / 1200 kb/s and peaks twice those, 4 s segments; the estimate after two
  // samples as in the test above: 2.1346 Mb/s, 100 ms to the first byte, levels 0 and 1 asked.
  const m: Manifest = { ...ladder(4, [300, 750, 1200]), declared: { averageKbps: [300, 750, 1200], peakKbps: [600, 1500, 2400] } };
  const abr = createHlsjs(m);
  abr.asked(0);
  abr.loaded(0, 0, 100, 1100, 1.2e6);
  abr.asked(1);
  abr.loaded(1, 2000, 2100, 3100, 3e6);
  // 8 s buffered (two segments): the average. Level 2 needs 0.7 × 2.1346 = 1.494 ≥ 1.2 Mb/s and is in
  // 0.1 + 4.8 ÷ 1.494 + 0.1 (its playlist) = 3.41 s.
  assert.is(abr.nextLevel(8), 2);
  // 7 s: the peak. Level 2's 2.4 Mb/s is above 1.494; level 1 (no switch up: 0.95 × 2.1346 = 2.028 ≥ 1.5)
  // is in 0.1 + 6 ÷ 2.028 = 3.06 s. With the average, level 2 would be.
  assert.is(abr.nextLevel(7), 1);
  // The forward buffer: what 60 MB holds at the peak.
  assert.is(abr.bufferTargetS(2), 480e6 / 2.4e6);
  // Without declared rates, the peak is the largest segment's rate: these segments are all alike.
  assert.is(createHlsjs(ladder(4, [300, 750, 1200])).bufferTargetS(2), 400);
});

test('the player prices a level at its declared average, as the browser adapter does', () => {
  // Its forward buffer at the top level: 45 MB at the price, between 30 and 120 s.
  const m: Manifest = { ...ladder(4, [300, 750, 3000]), declared: { averageKbps: [400, 850, 6000], peakKbps: [800, 1700, 12000] } };
  assert.is(player(m).bufferTargetS(view(m, { lastLevel: 2 })), (8 * 45e6) / 6e6);
  assert.is(player(ladder(4, [300, 750, 3000])).bufferTargetS(view(m, { lastLevel: 2 })), 120);
});

test('hls.js: the emergency abandon restarts level 3 at level 0 and resets the estimate', () => {
  const m = ladder(4, [300, 750, 1200, 1850, 2850]);
  const abr = createHlsjs(m);
  abr.asked(0);
  abr.loaded(0, 0, 100, 1100, 1.2e6);
  abr.asked(1);
  abr.loaded(1, 2000, 2100, 3100, 3e6);
  // Too early: half a segment (2 s) has not passed.
  assert.is(abr.emergency(11_900, 5, 3, 10_000, 10_100, 0.95e6), -1);
  // 2.1 s in, 1 Mbit over 2 s of flow: 500 kb/s, 6.4 Mbit left → 12.8 s, more than the 5 s buffered.
  // Level 2 (playlist unknown: 0.1 + 9.6 + 0.1 s) and level 1 (0.1 + 6 s) are not in within 4.1 s:
  // the search ends at level 0, with level 1's 6.1 s < 12.8 s: abandon. The 500 kb/s sample leaves the
  // estimate at 1.16 Mb/s, and 0.7 × that > 300 kb/s: a new estimator at 300 kb/s, which fits level 0.
  assert.is(abr.emergency(12_100, 5, 3, 10_000, 10_100, 1e6), 0);
  assert.is(abr.estimateBps(), 300_000);
  // Level 0 is never abandoned, nor level 1 (hls.js's search for a lower level stops above level 0).
  assert.is(abr.emergency(12_100, 0, 0, 10_000, 10_100, 1), -1);
  assert.is(abr.emergency(30_000, 0, 1, 10_000, 10_100, 1), -1);
});

test("BOLA-E: the utility's choice at a given buffer, and the wait BOLA-O asks", () => {
  // A throughput that sustains the top level: neither BOLA-O nor the insufficient buffer rule binds.
  const fast = createBolaCore(three, estimateOf(100_000));
  fast.plan(21, 0).commit(); // the start: the top level, no placeholder needed above 20.82 s
  assert.is(fast.plan(12, 0).level, 0);
  assert.is(fast.plan(15, 0).level, 1);
  assert.is(fast.plan(22, 0).level, 2);
  // 3 Mb/s sustains level 1 only: at 30 s BOLA would go to level 2, BOLA-O keeps level 1 and waits
  // for the buffer to come down to level 1's 28.3202 s.
  const slow = createBolaCore(three, estimateOf(3000));
  const start = slow.plan(21, 0);
  assert.is(start.level, 1);
  start.commit();
  const high = slow.plan(30, 0);
  assert.is(high.level, 1);
  assert.ok(Math.abs(high.waitS - (30 - 28.3202)) < 1e-3);
});

test('BOLA-E: over a constant link, the start at the level the throughput sustains, held by the placeholder', () => {
  // 3 Mb/s, no latency. #0: level 0 (2 Mbit in 0.667 s: 3000 kb/s). #1 (2 s buffered): the start, level 1
  // (4 Mbit in 1.333 s ≤ 2 s; level 2's 8 Mbit would take 2.667 s), placeholder 13.32 − 2 = 11.32 s.
  // #2: 2.667 s + 11.32 = 13.99 s → level 1 (13.32–20.82), and 0.9 × 2.667 s × 3000 kb/s ≥ 4000 kbit.
  // #3: 3.333 s + 11.32 → level 1 again.
  assert.equal(chosen(bolaE, three, link([1000, 3000, 0]), 4), [0, 1, 1, 1]);
});

test('BOLA-E: the abandonment rule weighs the rest of the segment against a whole lower one', () => {
  const bola = createBolaCore(three, estimateOf(3000));
  bola.plan(21, 0).commit();
  // Level 2 (8 Mbit), first byte after 100 ms, 1 Mbit in 2 s (500 bits/ms), 3 s buffered. After another
  // 100 ms wait: 2.9 s, 6.95 Mbit left: (35.82 − 2.9) ÷ 6.95e6 = 4.74e-6; level 0's 2 Mbit scores
  // (20.82 − 2.9) ÷ 2e6 = 8.96e-6, level 1's 4 Mbit 6.36e-6: restart at level 0.
  const p = { level: 2, index: 5, bitsTotal: 8e6, startMs: 0, firstByteMs: 100 };
  assert.is(bola.abandon(view(three, { nowMs: 2100, bufferS: 3 }), { ...p, bitsLoaded: 1e6 }), 0);
  // 7.5 Mbit in: what is left (0.125 Mbit after the wait) is smaller than any lower segment: go on.
  assert.is(bola.abandon(view(three, { nowMs: 2100, bufferS: 3 }), { ...p, bitsLoaded: 7.5e6 }), -1);
});

test('DYNAMIC: THROUGHPUT below 10 s, BOLA above once it asks as much, back when BOLA asks less', () => {
  const p = dynamic(three);
  const at = (index: number, bufferS: number) => {
    const v = view(three, { index, bufferS, lastLevel: 0 });
    p.bufferTargetS(v);
    return p.choose(v);
  };
  assert.is(p.choose(view(three, {})), 0);
  p.onDownload(view(three, { bufferS: 2 }), download({ bits: 4.2e6, endMs: 1000 })); // 4200 kb/s, no latency
  // THROUGHPUT: 0.9 × 4200 = 3780 kb/s sustains level 1 (4 Mbit in 1.06 s; 8 Mbit would take 2.12 s).
  // BOLA starts at level 2 (4200 kb/s sustains it), with a placeholder of 20.82 − 2 = 18.82 s.
  assert.is(at(1, 2), 1); // THROUGHPUT
  assert.is(at(2, 8), 1); // BOLA asks level 2, but 8 s is below 10 s
  assert.is(at(3, 11), 2); // above 10 s and BOLA asks at least as much: BOLA
  assert.is(at(4, 9.5), 2); // below 10 s, but BOLA does not ask less: still BOLA
  // THROUGHPUT's abandon: 1 Mbit in 1 s of a level-2 segment, 7 s more to go, past 1.8 × 2 s: 0.9 × 1000 kb/s
  // sustains level 0, whose 2 Mbit is less than the 7 Mbit left.
  const to = p.abandon!(view(three, { nowMs: 11_000, bufferS: 4, lastLevel: 2 }), { level: 2, index: 5, bitsLoaded: 1e6, bitsTotal: 8e6, startMs: 10_000, firstByteMs: 10_000 });
  assert.is(to, 0);
  // The abandon lowers BOLA's placeholder to what level 0 needs: 10 s − 4 s buffered = 6 s.
  p.onDownload(view(three, { bufferS: 4 }), download({ level: 2, index: 5, bits: 1e6, startMs: 10_000, firstByteMs: 10_000, endMs: 11_000, abandoned: true }));
  // 4 s + 6 s = 10 s: BOLA asks level 0, THROUGHPUT level 1: back to THROUGHPUT.
  assert.is(at(5, 4), 1);
});

test('floor: the lowest level back to back, played as soon as it is in: the least wait of any policy', () => {
  // 1 / 2 Mb/s, 2 s; the link carries 1 Mb/s for 3 s, then 0.25 Mb/s; no latency. #0 (2 Mbit) is in at
  // 2 s and plays to 4 s; #1 has 1 Mbit by 3 s and the other at 0.25 Mb/s by 7 s (3 s stalled); #2 and
  // #3 take 8 s each: in at 15 s and 23 s, after 6 s stalled each. 2 s to start, 15 s of stall, 8 s played;
  // #4, asked at once (no cap), has 0.5 Mbit (0.0625 MB) when the viewer leaves at 25 s.
  const m = ladder(2, [1000, 2000]);
  const trace = link([3000, 1000, 0], [1e9, 250, 0]);
  const r = simulate(m, trace, floor, { seconds: 8 });
  assert.equal([r.startupS, r.stallS, r.stalls, r.kbps, r.switches, r.unplayedMB], [2, 15, 3, 1000, 0, 0.0625]);
  assert.ok(Math.abs(r.rebufferRatio - 15 / 23) < 1e-9);
  assert.ok(Math.abs(r.qoe - (8 - 4.3 * 17) / 8) < 1e-9);
  assert.is(floor(m).bufferTargetS(view(m, { bufferS: 1e6 })), Infinity);
  // No other policy waits less on the same link.
  for (const other of [throughput, hlsjs, bolaE, dynamic]) {
    const o = simulate(m, trace, other, { seconds: 8 });
    assert.ok(o.startupS + o.stallS >= r.startupS + r.stallS - 1e-9);
  }
});

test.run();
