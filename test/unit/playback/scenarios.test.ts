// The playback policy's interactions, as the viewer meets them, in the simulator's virtual time (each in
// milliseconds of real time, on any machine): a hole in the signal, a trickle, a full outage, a seek past
// the buffer, a server that stops answering, a slow start, a failing rendition. Asserted on the
// policy's own decisions and on what the viewer got.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Decision } from '../../../src/playback/decisions';
import { TUNING } from '../../../src/playback/tuning';
import { simulate, type SessionOptions } from '../../../sim/engine';
import { playerWith } from '../../../sim/policies/player';
import type { Manifest, Trace, TracePeriod } from '../../../sim/types';

/** The production ladder's shape: 4 s segments of its five levels' mean bitrates (video and audio). */
const KBPS = [428, 828, 1328, 2628, 4628];
const LADDER: Manifest = { segmentS: 4, bitratesKbps: KBPS, segmentBits: KBPS.map((k) => Array.from({ length: 150 }, () => k * 4000)) };

const trace = (...parts: [seconds: number, kbps: number][]): Trace => ({
  name: 'scenario',
  periods: parts.map(([s, kbps]): TracePeriod => ({ durationMs: s * 1000, kbps, latencyMs: 80 })),
});

function run(t: Trace, options: Partial<SessionOptions> = {}) {
  const decisions: Decision[] = [];
  const result = simulate(LADDER, t, playerWith({ emit: (d) => decisions.push(d) }), { seconds: 300, ...options });
  const of = <K extends Decision['kind']>(kind: K) => decisions.filter((d): d is Extract<Decision, { kind: K }> => d.kind === kind);
  const levelAt = (ms: number) => of('level').filter((d) => d.t <= ms).at(-1)?.level ?? -1;
  return { result, decisions, of, levelAt };
}

test('a hole in the signal: steps down in it, at most one stall, shorter than the hole; climbs back after', () => {
  // 3 Mb/s for a minute, 20 s at 60 kb/s (less than the lowest level plays), 3 Mb/s again.
  const r = run(trace([60, 3000], [20, 60], [400, 3000]));
  assert.ok(r.levelAt(59000) >= 2, `on the good link: level ${r.levelAt(59000)}`);
  const down = [...r.of('level'), ...r.of('abandon')].filter((d) => d.t > 60000 && d.t < 80000 && ('level' in d ? d.level : d.to) < 2);
  assert.ok(down.length > 0, `a step down in the hole: ${JSON.stringify(r.decisions.filter((d) => d.t > 60000 && d.t < 80000))}`);
  assert.ok(r.levelAt(140000) >= 2, `back up after it: level ${r.levelAt(140000)}`);
  assert.ok(r.result.stalls <= 1 && r.result.stallS < 20, `${r.result.stalls} stalls, ${r.result.stallS.toFixed(1)} s`);
  assert.is(r.result.failed, false);
});

test('a hole that starts mid-fragment: the fragment is abandoned for a lower one, not waited for', () => {
  const r = run(trace([30, 5000], [40, 100], [300, 5000]), { seconds: 200 });
  const abandon = r.of('abandon').find((d) => d.reason === 'slow');
  assert.ok(abandon, `abandoned: ${JSON.stringify(r.of('abandon'))}`);
  assert.ok(abandon!.to < abandon!.from);
  assert.ok(r.result.unplayedMB > 0, 'what it had of that fragment is thrown away');
  assert.is(r.result.failed, false);
});

test('a trickle (300 kb/s, under the lowest level): the lowest level, stalls, no failure while bytes come', () => {
  const r = run(trace([600, 300]), { seconds: 120 });
  assert.equal([...new Set(r.of('level').map((d) => d.level))], [0]);
  assert.is(r.result.failed, false);
  assert.ok(r.of('fail').length === 0);
  // Each stall is held while the next segment would come too late, at most half the stall and 4 s:
  // never more stops than playing each segment as it lands, and never a hold past its bound.
  assert.ok(r.of('hold').length > 0, 'held after a stall');
  assert.ok(r.of('resume').every((d) => d.heldS <= TUNING.holdMaxS + 0.1), JSON.stringify(r.of('resume').map((d) => d.heldS)));
  const unheld = simulate(LADDER, trace([600, 300]), playerWith({ tuning: { holdMaxS: 0 } }), { seconds: 120 });
  assert.ok(r.result.stalls <= unheld.stalls, `${r.result.stalls} stalls held, ${unheld.stalls} not`);
});

test('a full outage of 40 s: asked again while nothing comes, then plays on by itself', () => {
  const r = run(trace([60, 3000], [40, 0], [600, 3000]), { seconds: 240 });
  assert.ok(r.of('abandon').some((d) => d.reason === 'idle'), 'the silent request asked again');
  assert.is(r.of('fail').length, 0);
  assert.is(r.result.failed, false);
  assert.ok(r.result.stallS < 40, `stall ${r.result.stallS.toFixed(1)} s (the buffer covered part of the outage)`);
});

test('a server that stops answering mid-film: the session fails within the outage budget, not before', () => {
  const r = run(trace([60, 3000], [100000, 0]), { seconds: 600 });
  const fail = r.of('fail')[0];
  assert.ok(fail, 'failed');
  assert.is(fail.reason, 'idle');
  assert.is(r.result.failed, true);
  // The last byte came at 60 s at the latest (the link fell silent then; the buffer target may have
  // stopped requests earlier): the session fails once nothing has come for the outage budget, and
  // not before the silent request was asked again.
  assert.ok(fail.t >= 60000 + TUNING.idleMs, `not before a retry (${fail.t} ms)`);
  assert.ok(fail.t <= 60000 + TUNING.outageMs + TUNING.idleMs, `within the budget (${fail.t} ms)`);
  assert.ok(r.of('abandon').some((d) => d.reason === 'idle'));
});

test('a server that never answers: the start fails after startIdleMs', () => {
  const r = run(trace([100000, 0], [1, 1000]));
  const fail = r.of('fail')[0];
  assert.ok(fail && fail.reason === 'idle');
  assert.ok(Math.abs(fail.t - TUNING.startIdleMs) <= 200, `at ${fail.t} ms`);
  assert.equal(r.of('state').map((d) => d.to), ['failed']);
});

test('a seek past the buffer: seeking, then playing from there; the wait is not a stall', () => {
  const r = run(trace([600, 2000]), { seconds: 200, seeks: [{ atMs: 40000, toS: 400 }] });
  const moves = r.of('state').map((d) => d.to);
  assert.ok(moves.includes('seeking'), moves.join(','));
  assert.is(moves.at(-1), 'playing');
  assert.is(r.result.stalls, 0);
  assert.is(r.result.failed, false);
});

test('a slow start (250 kb/s): the lowest level first, the first frame after one segment', () => {
  const r = run(trace([600, 250]), { seconds: 60 });
  const first = r.of('level')[0];
  assert.equal([first.level, first.reason], [0, 'start']);
  const oneSegmentS = (KBPS[0] * 4) / 250;
  assert.ok(r.result.startupS < oneSegmentS + 0.5, `start ${r.result.startupS.toFixed(2)} s`);
});

test('a fast start with a good first estimate goes higher than the lowest level', () => {
  const decisions: Decision[] = [];
  simulate(LADDER, trace([600, 8000]), playerWith({ estimateKbps: 8000, emit: (d) => decisions.push(d) }), { seconds: 60 });
  const first = decisions.find((d) => d.kind === 'level');
  assert.ok(first && first.kind === 'level' && first.level > 0, JSON.stringify(first));
});

test('a rendition whose segments fail: avoided, and the film plays on the others', () => {
  const r = run(trace([600, 3000]), { seconds: 120, failingLevels: [0] });
  assert.ok(r.of('avoid').some((d) => d.level === 0) || !r.of('level').some((d) => d.level === 0));
  assert.is(r.result.failed, false);
  assert.ok(r.result.kbps > KBPS[0]);
});

test('every rendition failing: the policy gives up at once (SPEC §8), it does not spin', () => {
  const r = run(trace([600, 3000]), { seconds: 120, failingLevels: [0, 1, 2, 3, 4] });
  assert.ok(r.of('fail').some((d) => d.reason === 'all-failed'));
  assert.is(r.result.failed, true);
});

test.run();
