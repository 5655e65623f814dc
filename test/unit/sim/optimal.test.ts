// The link model by hand, and the offline optimum against brute force (every level sequence, simulated
// here with downloadEnd and the QoE), against the engine replaying its schedule, and above every
// baseline.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { simulate } from '../../../sim/engine';
import { bitsBetween, downloadEnd } from '../../../sim/link';
import { optimum, optimal } from '../../../sim/optimal';
import { bolaE } from '../../../sim/policies/bola-e';
import { dynamic } from '../../../sim/policies/dynamic';
import { hlsjs } from '../../../sim/policies/hlsjs';
import { throughput } from '../../../sim/policies/throughput';
import { readTracePaths } from '../../../sim/traces';
import type { Manifest, PolicyFactory, Trace } from '../../../sim/types';

const link = (...periods: [number, number, number][]): Trace => ({
  name: 'hand',
  periods: periods.map(([durationMs, kbps, latencyMs]) => ({ durationMs, kbps, latencyMs })),
});

/** The best QoE over every level sequence: each segment asked when the last is in, played as soon as it can be. */
function bruteForce(manifest: Manifest, trace: Trace, seconds: number): { qoe: number; levels: number[] } {
  const segS = manifest.segmentS;
  const count = Math.ceil(seconds / segS);
  const kbps = manifest.bitratesKbps;
  let best = { qoe: -Infinity, levels: [] as number[] };
  const levels: number[] = [];
  const walk = (i: number) => {
    if (i === count) {
      let t = 0;
      let playEnd = 0;
      let waitS = 0;
      let mbps = 0;
      levels.forEach((level, k) => {
        t = downloadEnd(trace, 1, t, manifest.segmentBits[level]![k]!).endMs;
        waitS += Math.max(0, t - playEnd) / 1000;
        const playedS = Math.min(segS, seconds - k * segS);
        playEnd = Math.max(t, playEnd) + playedS * 1000;
        mbps += (playedS * kbps[level]!) / 1000 - (k > 0 ? Math.abs(kbps[level]! - kbps[levels[k - 1]!]!) / 1000 : 0);
      });
      const qoe = (mbps - 4.3 * waitS) / seconds;
      if (qoe > best.qoe) best = { qoe, levels: [...levels] };
      return;
    }
    for (let level = 0; level < kbps.length; level++) {
      levels[i] = level;
      walk(i + 1);
    }
  };
  walk(0);
  return best;
}

test('downloadEnd: the latency of the period it starts in, then each period in turn, the trace repeating', () => {
  const trace = link([1000, 1000, 100], [1000, 0, 300], [2000, 3000, 50]);
  // Asked at 500 ms: first byte at 600, 400 kbit by 1000, nothing in 1000–2000, then 3 Mb/s.
  assert.equal(downloadEnd(trace, 1, 500, 1e6), { firstByteMs: 600, endMs: 2200 });
  // Asked in the empty period: its latency, and nothing flows until it ends.
  assert.equal(downloadEnd(trace, 1, 1500, 3e5), { firstByteMs: 1800, endMs: 2100 });
  // Past the end (4000 ms) the trace starts again: asked at 4850, first byte at 4950, 50 kbit by 5000,
  // nothing until 6000, then 3 Mb/s.
  assert.equal(downloadEnd(trace, 1, 4850, 1.1e6), { firstByteMs: 4950, endMs: 6000 + 1.05e6 / 3000 });
  // Scaled: twice the capacity.
  assert.equal(downloadEnd(trace, 2, 0, 1e6), { firstByteMs: 100, endMs: 600 });
  assert.is(bitsBetween(trace, 1, 500, 2500), 5e5 + 1.5e6);
  assert.equal(downloadEnd(link([1000, 0, 10]), 1, 0, 1), { firstByteMs: 10, endMs: Infinity });
});

test('optimal: equals brute force on 4 segments, 3 levels, a link that drops then recovers', () => {
  const manifest: Manifest = {
    segmentS: 2,
    bitratesKbps: [500, 1000, 2000],
    segmentBits: [
      [1e6, 0.8e6, 1.2e6, 1e6],
      [2e6, 1.7e6, 2.4e6, 2e6],
      [4e6, 3.5e6, 4.4e6, 3.9e6],
    ],
  };
  const trace = link([3000, 2500, 50], [4000, 400, 50], [5000, 3000, 50]);
  const brute = bruteForce(manifest, trace, 8);
  const found = optimum(manifest, trace, { seconds: 8, scale: 1 });
  assert.ok(Math.abs(found.metrics.qoe - brute.qoe) < 1e-9, `${found.metrics.qoe} vs ${brute.qoe}`);
  assert.equal(found.levels, brute.levels);
});

test('optimal: never above brute force, and within 2 % of it, on random small cases', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let exact = 0;
  const cases = 60;
  for (let k = 0; k < cases; k++) {
    const levels = 2 + Math.floor(random() * 2);
    const count = 3 + Math.floor(random() * 4);
    const segS = [1, 2, 4][Math.floor(random() * 3)]!;
    const kbps = Array.from({ length: levels }, (_, l) => 300 * (l + 1) ** 1.5);
    const manifest: Manifest = { segmentS: segS, bitratesKbps: kbps, segmentBits: kbps.map((b) => Array.from({ length: count }, () => b * 1000 * segS * (0.6 + 0.8 * random()))) };
    const periods = Array.from({ length: 1 + Math.floor(random() * 5) }, (): [number, number, number] => [200 + Math.floor(random() * 3000), random() < 0.15 ? 0 : 100 + Math.floor(random() * 3000), 50]);
    const trace = link(...periods);
    const seconds = count * segS - (random() < 0.3 ? segS / 2 : 0);
    const brute = bruteForce(manifest, trace, seconds);
    const found = optimal(manifest, trace, { seconds, scale: 1 });
    assert.ok(found.qoe <= brute.qoe + 1e-9, `case ${k}: ${found.qoe} above ${brute.qoe}`);
    assert.ok(brute.qoe - found.qoe <= 0.02 * Math.abs(brute.qoe), `case ${k}: ${found.qoe} vs ${brute.qoe}`);
    if (brute.qoe - found.qoe < 1e-9) exact += 1;
  }
  assert.ok(exact >= cases * 0.9, `${exact} of ${cases} exact`);
});

test("optimal: the engine, asked the optimum's levels with no buffer limit, plays the same session", () => {
  const manifest: Manifest = { segmentS: 2, bitratesKbps: [500, 1000, 2000], segmentBits: [500, 1000, 2000].map((k) => Array<number>(10).fill(k * 2000)) };
  const trace = link([5000, 1500, 80], [3000, 0, 80], [6000, 2500, 80]);
  const found = optimum(manifest, trace, { seconds: 20, scale: 1 });
  const oracle: PolicyFactory = () => ({ choose: (view) => found.levels[view.index]!, bufferTargetS: () => Infinity, onDownload: () => {} });
  const replay = simulate(manifest, trace, oracle, { seconds: 20 });
  for (const key of ['qoe', 'stalls', 'stallS', 'startupS', 'kbps', 'switches', 'unplayedMB'] as const) {
    assert.ok(Math.abs(replay[key] - found.metrics[key]) < 1e-6, `${key}: ${replay[key]} vs ${found.metrics[key]}`);
  }
});

test('optimal: at least every baseline, on hand links and on corpus traces', () => {
  const kbps = [300, 750, 1200, 1850, 2850];
  const manifest: Manifest = { segmentS: 4, bitratesKbps: kbps, segmentBits: kbps.map((k) => Array.from({ length: 30 }, (_, i) => k * 4000 * (1 + 0.3 * Math.sin(i)))) };
  const traces = [link([1000, 1500, 100]), link([20_000, 3000, 50], [10_000, 200, 50], [30_000, 1200, 50]), link([15_000, 2500, 20], [8000, 0, 20])];
  const corpus = fileURLToPath(new URL('../../../../shared/traces/corpus/', import.meta.url));
  for (const file of ['3g/report.2010-09-13_1003CEST.json', '4g/report_bus_0002.json', 'broadband/trace0000.json']) {
    if (existsSync(corpus + file)) traces.push(...readTracePaths([corpus + file])[0]!.traces);
  }
  for (const trace of traces) {
    const scale = trace.name.includes('bus') ? 1 / 8 : 1;
    const best = optimal(manifest, trace, { seconds: 120, scale });
    for (const [name, factory] of Object.entries({ hlsjs, throughput, bolaE, dynamic })) {
      const got = simulate(manifest, trace, factory, { seconds: 120, scale });
      assert.ok(got.qoe <= best.qoe + 1e-9, `${trace.name} ${name}: ${got.qoe} above the optimum's ${best.qoe}`);
    }
  }
});

test.run();
