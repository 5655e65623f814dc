// playback/: the estimate (harmonic mean, robust discount), the QoE plan (hand-computed sequences), and
// the policy's states and decisions (start, stall, hold and its bound, abandon, a failing rendition, the loads' retries).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Decision } from '../../../src/playback/decisions';
import { createEstimate } from '../../../src/playback/estimate';
import { planLevel, type PlanInput } from '../../../src/playback/plan';
import { createPolicy, retriesFor } from '../../../src/playback/policy';
import { TUNING } from '../../../src/playback/tuning';

test('estimate: the fallback before any sample, then the harmonic mean discounted by its worst miss', () => {
  const e = createEstimate(5, 500);
  assert.is(e.kbps(), 500);
  e.sample(1000e3, 1000, 100); // 1000 kb/s
  assert.is(e.meanKbps(), 1000);
  assert.is(e.kbps(), 1000);
  e.sample(500e3, 1000, 100); // 500 kb/s; the estimate (1000) missed by 100 %
  assert.ok(Math.abs(e.meanKbps() - 2 / (1 / 1000 + 1 / 500)) < 1e-9);
  assert.ok(Math.abs(e.kbps() - e.meanKbps() / 2) < 1e-9);
  assert.ok(Math.abs(e.latencyS() - 0.1) < 1e-9);
});

test('estimate: a prior miss discounts a lone sample, and leaves the window as real misses come', () => {
  const e = createEstimate(2, 500, 0.5, 1);
  assert.ok(Math.abs(e.kbps() - 500 / 1.5) < 1e-9, 'the fallback as unsure as a 100 % miss');
  e.sample(1000e3, 1000, 0);
  assert.ok(Math.abs(e.kbps() - 1000 / 1.5) < 1e-9, 'one sample: the prior still counts');
  e.sample(1000e3, 1000, 0); // no miss
  assert.ok(Math.abs(e.kbps() - 1000 / 1.5) < 1e-9, 'the window of 2 still holds the prior');
  e.sample(1000e3, 1000, 0);
  assert.is(e.kbps(), 1000, 'two real misses of 0: the prior is gone');
});

test('estimate: a miss counts at most errorCap, so one deep dip does not sink the plan for the whole window', () => {
  // 4000 kb/s, then a 400 kb/s segment: the mean (4000) missed it by 900 %. Uncapped, weight 0.5 divides
  // the new mean (727 kb/s) by 5.5; capped at 2, by 2: the harmonic mean already carries the dip.
  const uncapped = createEstimate(5, 500, 0.5, 0);
  const capped = createEstimate(5, 500, 0.5, 0, 2);
  for (const e of [uncapped, capped]) {
    e.sample(4000e3, 1000, 0);
    e.sample(400e3, 1000, 0);
  }
  const mean = 2 / (1 / 4000 + 1 / 400);
  assert.ok(Math.abs(capped.meanKbps() - mean) < 1e-9 && Math.abs(uncapped.meanKbps() - mean) < 1e-9);
  assert.ok(Math.abs(uncapped.kbps() - mean / 5.5) < 1e-9);
  assert.ok(Math.abs(capped.kbps() - mean / 2) < 1e-9);
  assert.is(TUNING.errorCap, 2);
});

test('estimate: nonsense samples (zero, negative, NaN, infinite) are ignored', () => {
  const e = createEstimate(5, 700);
  e.sample(0, 100, 10);
  e.sample(-5, 100, 10);
  e.sample(Number.NaN, 100, 10);
  e.sample(1e6, Number.POSITIVE_INFINITY, 10);
  e.sample(1e6, -1, 10);
  assert.is(e.kbps(), 700);
});

test('estimate: keeps only its last samples', () => {
  const e = createEstimate(2, 500);
  e.sample(100e3, 1000, 0);
  e.sample(1000e3, 1000, 0);
  e.sample(1000e3, 1000, 0);
  assert.is(e.meanKbps(), 1000);
});

const input = (over: Partial<PlanInput>): PlanInput => ({
  kbps: [1000, 2000],
  allowed: [true, true],
  segmentS: 4,
  bufferS: 0,
  lastLevel: 0,
  capacityKbps: 3000,
  latencyS: 0,
  targetS: 100,
  steps: 1,
  reserveS: 0,
  ...over,
});
const noReserve = TUNING;

test('plan: one step, hand-computed: 2 Mb/s at 3 Mb/s with 4 s buffered pays (8 − 1 switch > 4)', () => {
  // Level 1: 8 s·Mb/s, downloads in 2.67 s < 4 s buffered, no stall, switch 1 → 7. Level 0: 4.
  assert.is(planLevel(input({ bufferS: 4 }), noReserve), 1);
});

test('plan: one step, hand-computed: the same with nothing buffered stalls 2.67 s (8 − 1 − 11.5 < 4 − 5.7)', () => {
  // Level 1: 8 − 4.3 × 2.667 − 1 = −4.47; level 0: 4 − 4.3 × 1.333 = −1.73.
  assert.is(planLevel(input({ bufferS: 0 }), noReserve), 0);
});

test('plan: the reserve keeps the buffer: two steps on a link that just pays the top level', () => {
  const link = input({ bufferS: 6, capacityKbps: 2000, steps: 2, lastLevel: 1 });
  assert.is(planLevel(link, noReserve), 1);
  // Wanting 12 s at the horizon's end at full weight: top, top keeps 6 s: 16 − 4.3 × 6 = −9.8; low, low
  // grows it to 10 s: 4 − 1 + 4 − 4.3 × 2 = −1.6; top, low 11 − 17.2; low, top 10 − 17.2.
  assert.is(planLevel({ ...link, reserveS: 12 }, { ...TUNING, reserveWeight: 1 }), 0);
});

test('plan: only allowed levels; the lowest allowed when the link is unknown or none is allowed', () => {
  assert.is(planLevel(input({ bufferS: 30, allowed: [false, true] }), TUNING), 1);
  assert.is(planLevel(input({ bufferS: 30, allowed: [true, true], capacityKbps: 0 }), TUNING), 0);
  assert.is(planLevel(input({ allowed: [false, true], capacityKbps: Number.NaN }), TUNING), 1);
  assert.is(planLevel(input({ allowed: [false, false] }), TUNING), 0);
});

const ladder = { kbps: [400, 1200, 2500], segmentS: 4 };
const recorder = () => {
  const decisions: Decision[] = [];
  return { decisions, emit: (d: Decision) => decisions.push(d), kinds: () => decisions.map((d) => d.kind) };
};

test('policy: starting → playing → stalled → holding → playing, each move a decision', () => {
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit });
  assert.is(p.state(), 'starting');
  assert.ok(p.mayPlay({ t: 0, bufferS: 4 }), 'the start plays as soon as a segment is in');
  p.media({ t: 100, event: 'playing' });
  p.loaded({ t: 100, level: 0, bits: 1.6e6, requestT: 0, firstByteT: 100, endT: 16100 }); // 100 kb/s
  p.media({ t: 20000, event: 'stall' });
  assert.is(p.state(), 'stalled');
  assert.not.ok(p.mayPlay({ t: 30000, bufferS: 2 }), 'held: the next segment at 100 kb/s lands 16 s later, not within 1 s');
  assert.is(p.state(), 'holding');
  assert.ok(p.mayPlay({ t: 34000, bufferS: 3 }), 'let go at the bound: 4 s held (half the 10 s stall is more)');
  const resume = r.decisions.find((d) => d.kind === 'resume');
  assert.equal(resume && resume.kind === 'resume' && [resume.reason, resume.heldS], ['bound', 4]);
  p.media({ t: 34000, event: 'playing' });
  assert.equal(
    r.decisions.filter((d) => d.kind === 'state').map((d) => d.kind === 'state' && d.to),
    ['playing', 'stalled', 'holding', 'playing'],
  );
});

test('policy: the early reserve for the first earlyS after the picture starts (a first frame, a seek), the deep one after; never above the top level\'s forward buffer', () => {
  // 30 s buffered on a steady 2 Mb/s, coming from the top level: wanting 30 s at the horizon's end keeps
  // the top (2.5 Mb/s); wanting 40 s steps down to 1.2 Mb/s.
  const steady = (tuning = {}) => {
    const p = createPolicy({ ...ladder, tuning });
    for (let i = 0; i < 5; i++) p.loaded({ t: 0, level: 1, bits: 2e6, requestT: 0, firstByteT: 0, endT: 1000 });
    return p;
  };
  const at = (p: ReturnType<typeof steady>, t: number) => p.level({ t, bufferS: 30, lastLevel: 2 });
  assert.is(TUNING.earlyReserveS, 30);
  assert.is(TUNING.reserveS, 40);
  assert.is(at(steady(), 90000), 2, 'no picture yet: the early reserve');
  const p = steady();
  p.media({ t: 1000, event: 'frame' });
  assert.is(at(p, 60000), 2, 'within the first minute of the picture');
  assert.is(at(p, 61000), 1, 'a minute on: the deep reserve');
  p.media({ t: 70000, event: 'stall' });
  p.media({ t: 72000, event: 'playing' });
  assert.is(at(p, 73000), 1, 'playing again after a stall is not a new picture');
  p.media({ t: 80000, event: 'seeking' });
  assert.is(at(p, 81000), 2, 'seeking: the buffer starts again');
  p.media({ t: 82000, event: 'playing' });
  assert.is(at(p, 141000), 2, 'within a minute of the seek\'s picture');
  assert.is(at(p, 142000), 1, 'a minute after it');
  const small = steady({ forwardBytes: 9e6 }); // the top level's forward buffer: 30 s (forwardMinS)
  small.media({ t: 0, event: 'frame' });
  assert.is(at(small, 120000), 2, 'a reserve the top level\'s buffer cannot hold is capped at it');
});

test('policy: after a stall, plays once the segments on their way land before half the buffer has played', () => {
  const p = createPolicy(ladder);
  p.media({ t: 0, event: 'playing' });
  p.loaded({ t: 0, level: 0, bits: 1.6e6, requestT: 0, firstByteT: 0, endT: 1000 }); // 1.6 Mb/s
  p.media({ t: 5000, event: 'stall' });
  // One sample: planned at 1.6 / (1 + errorWeight × priorError) = 0.8 Mb/s.
  assert.ok(p.mayPlay({ t: 5500, bufferS: 5 }), 'the next 400 kb/s segment (1.6 Mb) in 2 s, before 2.5 s have played');
  p.media({ t: 5500, event: 'playing' });
  p.media({ t: 9000, event: 'stall' });
  assert.not.ok(p.mayPlay({ t: 9100, bufferS: 3 }), 'it would land after 1.5 s: held');
});

test('policy: the hold with what the caller sees in flight (the 3G hole: 234 kB left at 30 kB/s after a 2.6 s stall)', () => {
  const held = (o: { bufferS: number; leftBits: number; bitsPerS: number }, stalledMs = 2600, heldMs = 0) => {
    const p = createPolicy(ladder);
    p.media({ t: 0, event: 'playing' });
    p.media({ t: 1000, event: 'stall' });
    const first = p.mayPlay({ t: 1000 + stalledMs, ...o });
    return heldMs === 0 ? !first : first ? false : !p.mayPlay({ t: 1000 + stalledMs + heldMs, ...o });
  };
  const hole = { bufferS: 4, leftBits: 8 * 234e3, bitsPerS: 8 * 30e3 };
  assert.ok(held(hole), 'it would stop again: held');
  assert.ok(held(hole, 2600, 1290));
  assert.not.ok(held(hole, 2600, 1300), 'half the stall: let go whatever comes');
  assert.not.ok(held(hole, 20000, 4000), 'never more than 4 s');
  assert.ok(held(hole, 20000, 3900));
  assert.ok(held({ ...hole, bitsPerS: 8 * 100e3 }), '234 kB in 2.3 s: more than half the 4 s in');
  assert.not.ok(held({ ...hole, bitsPerS: 8 * 120e3 }), 'the link back (234 kB within half the 4 s): no hold');
  assert.not.ok(held({ ...hole, leftBits: 0 }), 'nothing on its way: no hold');
  assert.ok(held({ ...hole, bitsPerS: 0 }), 'nothing arriving: held, within the bound');
  assert.ok(held({ ...hole, bitsPerS: Number.NaN, bufferS: -1 }), 'nonsense rates and buffers hold, within the bound');
  assert.not.ok(held(hole, 0), 'no stall before: no hold');
});

test('policy: a stall before the first frame is the start, not a stall; a seek plays at once', () => {
  const p = createPolicy(ladder);
  p.media({ t: 0, event: 'stall' });
  assert.is(p.state(), 'starting');
  p.media({ t: 10, event: 'seeking' });
  assert.ok(p.mayPlay({ t: 20, bufferS: 0.5 }));
});

test('policy: abandons a segment that will not land before the buffer runs out, for a lower one that will', () => {
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit });
  const flight = { t: 3000, level: 2, bitsLoaded: 300e3, bitsTotal: 10e6, requestT: 0, lastByteT: 3000, bufferS: 6 };
  // 100 kb/s: 9.7 Mb left is 97 s; level 0 (1.6 Mb scaled by 10/10 → 1.6 Mb) takes 16 s > 6 s; level 1 neither,
  // but the lowest weighs less than 0.8 of what is left.
  assert.is(p.abandon(flight), 0);
  assert.equal(r.decisions.at(-1), { kind: 'abandon', t: 3000, from: 2, to: 0, reason: 'slow' });
  assert.is(p.abandon({ ...flight, bufferS: 200 }), -1, 'it lands in time: kept');
  assert.is(p.abandon({ ...flight, t: 500, lastByteT: 500 }), -1, 'too early to judge');
  assert.is(p.abandon({ ...flight, level: 0 }), -1, 'nothing lower');
  assert.is(p.abandon({ ...flight, bitsLoaded: 0, lastByteT: 0 }), -1, 'no byte yet: no rate');
});

test('policy: no byte for idleMs: asked again at the lowest level, until nothing has come for outageMs', () => {
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit });
  p.media({ t: 0, event: 'playing' });
  p.loaded({ t: 0, level: 1, bits: 1e6, requestT: -1000, firstByteT: -900, endT: 0 });
  p.media({ t: 1, event: 'stall' });
  const silent = { t: TUNING.idleMs, level: 1, bitsLoaded: 0, bitsTotal: 0, requestT: 0, lastByteT: 0, bufferS: 0 };
  assert.is(p.abandon({ ...silent, t: TUNING.idleMs - 1 }), -1);
  assert.is(p.abandon(silent), 0);
  assert.equal(r.decisions.at(-1), { kind: 'abandon', t: TUNING.idleMs, from: 1, to: 0, reason: 'idle' });
  const retry = { ...silent, level: 0, requestT: TUNING.outageMs - TUNING.idleMs - 1, lastByteT: TUNING.outageMs - TUNING.idleMs - 1 };
  assert.is(p.abandon({ ...retry, t: TUNING.outageMs - 1 }), 0, 'still within the outage budget');
  assert.is(p.abandon({ ...retry, t: TUNING.outageMs }), 'fail');
  assert.is(p.state(), 'failed');
  assert.equal(r.kinds().slice(-3), ['abandon', 'fail', 'state']);
});

test("policy: a request the caller's loader timed out is asked again at the lowest level allowed, however long the outage (the browser's watchdog owns the screen)", () => {
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit });
  p.media({ t: 0, event: 'playing' });
  p.media({ t: 1, event: 'stall' });
  assert.is(p.timedOut({ t: 20000, level: 2 }), 0);
  assert.equal(r.decisions.at(-1), { kind: 'abandon', t: 20000, from: 2, to: 0, reason: 'idle' });
  p.failed({ t: 20000, level: 0 });
  assert.is(p.timedOut({ t: 30000, level: 2 }), 1, 'the 240p avoided: the next');
  assert.is(p.timedOut({ t: 10 * TUNING.outageMs, level: 1 }), 0, 'never failed here; the avoidance over');
  assert.is(p.state(), 'stalled');
});

test('policy: a byte of a request that is then cut counts as heard: the budget runs from it', () => {
  const p = createPolicy(ladder);
  p.media({ t: 0, event: 'playing' });
  p.media({ t: 25000, event: 'stall' });
  assert.is(p.abandon({ t: 30000, level: 0, bitsLoaded: 8000, bitsTotal: 0, requestT: 0, lastByteT: 20000, bufferS: 0 }), 0);
  assert.is(p.abandon({ t: 20000 + TUNING.outageMs - 1, level: 0, bitsLoaded: 0, bitsTotal: 0, requestT: 30000, lastByteT: 30000, bufferS: 0 }), 0);
  assert.is(p.abandon({ t: 20000 + TUNING.outageMs, level: 0, bitsLoaded: 0, bitsTotal: 0, requestT: 30000, lastByteT: 30000, bufferS: 0 }), 'fail');
});

test('policy: a film still playing from its buffer is never failed for a silent link, only asked again', () => {
  const p = createPolicy(ladder);
  p.media({ t: 0, event: 'playing' });
  p.loaded({ t: 0, level: 0, bits: 1e6, requestT: -1000, firstByteT: -900, endT: 0 });
  const silent = { level: 0, bitsLoaded: 0, bitsTotal: 0, requestT: 300000, lastByteT: 300000, bufferS: 50 };
  assert.is(p.abandon({ ...silent, t: 310000 }), 0);
  p.media({ t: 320000, event: 'stall' });
  assert.is(p.abandon({ ...silent, t: 320000 + TUNING.outageMs - TUNING.idleMs - 1, requestT: 320000, lastByteT: 320000 }), 0, 'the budget runs from idleMs before the stall');
  assert.is(p.abandon({ ...silent, t: 320000 + TUNING.outageMs - TUNING.idleMs, requestT: 320000, lastByteT: 320000 }), 'fail');
});

test('policy: before the first frame a request with no byte for startIdleMs fails the start', () => {
  const p = createPolicy(ladder);
  const silent = { t: TUNING.startIdleMs - 1, level: 0, bitsLoaded: 0, bitsTotal: 0, requestT: 0, lastByteT: 0, bufferS: 0 };
  assert.is(p.abandon(silent), -1);
  assert.is(p.abandon({ ...silent, t: TUNING.startIdleMs }), 'fail');
});

test('policy: a failing rendition is avoided until it answers; all failing is the end', () => {
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit, estimateKbps: 300 });
  p.failed({ t: 0, level: 0 });
  assert.is(p.level({ t: 1, bufferS: 0, lastLevel: -1 }), 1, 'the lowest fails: the next one up');
  assert.ok(r.decisions.some((d) => d.kind === 'level' && d.level === 1 && d.reason === 'avoid'));
  p.failed({ t: 2, level: 99 });
  p.failed({ t: 2, level: -1 });
  assert.is(p.state(), 'starting', 'levels that do not exist are ignored');
  p.failed({ t: 3, level: 1 });
  p.failed({ t: 4, level: 2 });
  assert.is(p.state(), 'failed');
  assert.ok(r.decisions.some((d) => d.kind === 'fail' && d.reason === 'all-failed'));
  assert.not.ok(p.mayPlay({ t: 5, bufferS: 10 }));
});

test('policy: a level avoided comes back once its time is up or a segment of it arrives', () => {
  const p = createPolicy({ ...ladder, estimateKbps: 300 });
  p.failed({ t: 0, level: 0 });
  assert.is(p.level({ t: TUNING.avoidMs + 1, bufferS: 0, lastLevel: -1 }), 0);
  p.failed({ t: TUNING.avoidMs + 2, level: 0 });
  p.loaded({ t: TUNING.avoidMs + 3, level: 0, bits: 1e5, requestT: 0, firstByteT: 1, endT: 1000 });
  assert.is(p.level({ t: TUNING.avoidMs + 4, bufferS: 0, lastLevel: -1 }), 0);
});

test('policy: the forward buffer is forwardBytes at the level, between its bounds', () => {
  const p = createPolicy({ kbps: [100, 4000, 50000], segmentS: 4 });
  assert.is(p.forwardS(0), TUNING.forwardMaxS);
  assert.is(p.forwardS(1), Math.min(TUNING.forwardMaxS, Math.max(TUNING.forwardMinS, (8 * TUNING.forwardBytes) / 4e6)));
  assert.is(p.forwardS(2), TUNING.forwardMinS);
  assert.is(p.forwardS(-3), TUNING.forwardMaxS, 'out of range: clamped to the ladder');
});

test('policy: the level decision is emitted only when it changes', () => {
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit, estimateKbps: 5000 });
  p.level({ t: 0, bufferS: 20, lastLevel: 2 });
  p.level({ t: 1, bufferS: 20, lastLevel: 2 });
  assert.is(r.decisions.filter((d) => d.kind === 'level').length, 1);
});


test("policy: the loads' retries switch at the first frame, once, whatever the state; the start's until then", () => {
  assert.equal(retriesFor(false), TUNING.startRetries);
  assert.equal(retriesFor(true), TUNING.playRetries);
  const r = recorder();
  const p = createPolicy({ ...ladder, emit: r.emit });
  // A start at a resume point seeks before its first frame: still the start's retries.
  p.media({ t: 50, event: 'seeking' });
  assert.is(r.decisions.filter((d) => d.kind === 'retries').length, 0);
  p.media({ t: 100, event: 'frame' });
  assert.is(p.state(), 'seeking', 'a frame after a seek is no end of the seek');
  p.media({ t: 200, event: 'frame' });
  p.media({ t: 300, event: 'playing' });
  assert.equal(r.decisions.filter((d) => d.kind === 'retries'), [{ kind: 'retries', t: 100, retries: TUNING.playRetries, reason: 'first-frame' }]);
  // The first frame ends the start: starting → playing (the playhead may stand still, paused).
  const q = createPolicy({ ...ladder, emit: r.emit });
  q.media({ t: 0, event: 'frame' });
  assert.is(q.state(), 'playing');
  // A failed start switches nothing; a first frame then moves nothing either.
  const f = recorder();
  const failed = createPolicy({ ...ladder, emit: f.emit });
  failed.abandon({ t: TUNING.startIdleMs, level: 0, bitsLoaded: 0, bitsTotal: 0, requestT: 0, lastByteT: 0, bufferS: 0 });
  assert.is(failed.state(), 'failed');
  failed.media({ t: TUNING.startIdleMs + 1, event: 'frame' });
  assert.is(failed.state(), 'failed');
  assert.is(f.decisions.filter((d) => d.kind === 'retries').length, 0);
  // The tuning passed is the one decided.
  const own = { ...TUNING.playRetries, fragment: { timeouts: 9, errors: 9, delayMs: 1, maxDelayMs: 2 } };
  const o = recorder();
  createPolicy({ ...ladder, emit: o.emit, tuning: { playRetries: own } }).media({ t: Number.NaN, event: 'playing' });
  assert.equal(o.decisions.filter((d) => d.kind === 'retries').map((d) => d.kind === 'retries' && d.retries), [own]);
});

test("tuning: the retries are hls.js's load policies of before (errors once or twice at the start; as hls.js's after)", () => {
  assert.equal(TUNING.startRetries, {
    manifest: { timeouts: 1, errors: 1, delayMs: 500, maxDelayMs: 1000 },
    playlist: { timeouts: 1, errors: 1, delayMs: 500, maxDelayMs: 1000 },
    fragment: { timeouts: 1, errors: 2, delayMs: 500, maxDelayMs: 1000 },
  });
  assert.equal(TUNING.playRetries, {
    manifest: { timeouts: 2, errors: 1, delayMs: 1000, maxDelayMs: 8000 },
    playlist: { timeouts: 2, errors: 2, delayMs: 1000, maxDelayMs: 8000 },
    fragment: { timeouts: 2, errors: 3, delayMs: 1000, maxDelayMs: 4000 },
  });
});

test.run();
