// playback/element.ts: the rules on the element's samples, on a virtual clock, with nasty samples: the
// stuck start (asked to play, buffered ahead, no frame for stuckStartMs: one 'stuck' decision) and the
// frames dropped (a period dropping more than dropShare of its decoded frames: a 'drops' decision).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Decision } from '../../../src/playback/decisions';
import { createDropWatch, createStartWatch, type Drops, type FramesSample, type StartSample } from '../../../src/playback/element';
import { TUNING } from '../../../src/playback/tuning';

const STUCK: Omit<StartSample, 't'> = { asked: true, frame: false, aheadS: 4 };

/** The watch fed `samples` in order; what it answered and decided. */
function run(samples: StartSample[], tuning = TUNING) {
  const decisions: Decision[] = [];
  const watch = createStartWatch((d) => decisions.push(d), tuning);
  const answers = samples.map((s) => watch.sample(s));
  return { answers, decisions };
}

/** A sample every `every` ms from `from` to `to` (inclusive), `s` at each. */
const every = (from: number, to: number, step: number, s: Omit<StartSample, 't'> = STUCK) => {
  const out: StartSample[] = [];
  for (let t = from; t <= to; t += step) out.push({ t, ...s });
  return out;
};

test('stuck start: asked, 1 s ahead and no frame in every sample for stuckStartMs: one decision with its reason, then never again', () => {
  const { answers, decisions } = run([{ t: 0, ...STUCK, asked: false }, ...every(500, 10000, 500)]);
  // Counted from the last sample that was not stuck (t 0): stuck at 3000.
  assert.is(answers.indexOf(true), 6);
  assert.is(answers.filter(Boolean).length, 1, 'once');
  assert.equal(decisions, [{ kind: 'stuck', t: 3000, aheadS: 4, waitedMs: 3000, reason: 'no-frame' }]);
  assert.is(TUNING.stuckStartMs, 3000);
  assert.is(TUNING.stuckAheadS, 1);
});

test('stuck start: exactly stuckAheadS ahead counts, less does not; paused or a frame shown never is', () => {
  assert.is(run(every(0, 5000, 500, { ...STUCK, aheadS: TUNING.stuckAheadS })).decisions.length, 1);
  assert.is(run(every(0, 60000, 500, { ...STUCK, aheadS: 0.99 })).decisions.length, 0, 'a slow link: nothing to show yet');
  assert.is(run(every(0, 60000, 500, { ...STUCK, asked: false })).decisions.length, 0, 'paused');
  assert.is(run(every(0, 60000, 500, { ...STUCK, frame: true })).decisions.length, 0, 'a frame');
});

test('stuck start: readyState flapping (a frame every other second) starts the count again each time', () => {
  const flapping = every(0, 60000, 500).map((s, i) => ({ ...s, frame: i % 4 === 0 }));
  assert.is(run(flapping).decisions.length, 0);
  // A frame at 1000 only: the count runs from then, stuck at 4000.
  const once = every(0, 10000, 500).map((s) => ({ ...s, frame: s.t === 1000 }));
  assert.equal(run(once).decisions.map((d) => d.t), [4000]);
});

test('stuck start: a buffer that is not a number is nothing buffered; negative, infinite, huge and NaN buffers', () => {
  for (const aheadS of [Number.NaN, -5, Number.NEGATIVE_INFINITY]) {
    assert.is(run(every(0, 60000, 500, { ...STUCK, aheadS })).decisions.length, 0, String(aheadS));
  }
  assert.is(run(every(0, 5000, 500, { ...STUCK, aheadS: 1e308 })).decisions.length, 1);
  // A NaN buffer in the middle starts the count again.
  const hole = every(0, 10000, 500).map((s) => ({ ...s, aheadS: s.t === 2000 ? Number.NaN : 4 }));
  assert.equal(run(hole).decisions.map((d) => d.t), [5000]);
});

test('stuck start: a clock that is not a number is ignored, one that goes back counts again; negative and huge clocks', () => {
  const withNaN = every(0, 5000, 500).map((s) => (s.t === 1500 ? { ...s, t: Number.NaN } : s));
  assert.equal(run(withNaN).decisions.map((d) => d.t), [3000], 'the NaN sample changes nothing');
  assert.equal(run([...every(0, 2500, 500), ...every(-10000, -5000, 500)]).decisions.map((d) => d.t), [-7000], 'back in time: from there');
  assert.equal(run(every(-1e15, -1e15 + 5000, 500)).decisions.map((d) => d.t), [-1e15 + 3000]);
  const huge = 2 ** 52;
  assert.equal(run(every(huge, huge + 5000, 500)).decisions.map((d) => d.t), [huge + 3000]);
  assert.is(run([{ t: Number.POSITIVE_INFINITY, ...STUCK }, { t: Number.POSITIVE_INFINITY, ...STUCK }]).decisions.length, 0);
  // One sample far later than the one before, stuck in both: the time between counts.
  assert.equal(run([{ t: 0, ...STUCK }, { t: 1e9, ...STUCK }]).decisions.map((d) => d.kind === 'stuck' && d.waitedMs), [1e9]);
});

test('stuck start: its constants are the tuning passed', () => {
  const tuning = { ...TUNING, stuckStartMs: 1000, stuckAheadS: 10 };
  assert.equal(run(every(0, 5000, 250, { ...STUCK, aheadS: 10 }), tuning).decisions.map((d) => d.t), [1000]);
  assert.is(run(every(0, 5000, 250, STUCK), tuning).decisions.length, 0);
});

/** The drop watch fed [t, dropped, decoded] samples; its decisions. */
function drops(samples: Array<[number, number, number]>, tuning = TUNING): Drops[] {
  const out: Drops[] = [];
  const watch = createDropWatch((d) => out.push(d), tuning);
  for (const [t, dropped, decoded] of samples) watch.sample({ t, dropped, decoded } satisfies FramesSample);
  return out;
}

test('frame drops: a period dropping more than a fifth of its decoded frames, with its own counts; a fifth or less is not', () => {
  assert.is(TUNING.dropShare, 0.2);
  assert.is(TUNING.dropPeriodMs, 5000);
  assert.equal(
    drops([
      [0, 0, 0],
      [5000, 30, 100],
      [10000, 50, 200],
      [15000, 50, 300],
      [20000, 71, 400],
    ]),
    [
      { kind: 'drops', t: 5000, dropped: 30, decoded: 100, reason: 'share' },
      { kind: 'drops', t: 20000, dropped: 21, decoded: 100, reason: 'share' },
    ],
  );
  assert.equal(drops([[0, 500, 1000]]), [], 'the first sample is the baseline: what came before the watch is not a period');
});

test('frame drops: nothing decoded, counters gone back (a new element), NaN and infinite counts decide nothing; the next period is weighed against them', () => {
  assert.equal(drops([[0, 0, 0], [5000, 10, 0], [10000, 20, 0]]), [], 'nothing decoded');
  // A new element: its counters start again from 0.
  assert.equal(drops([[0, 50, 1000], [5000, 5, 10], [10000, 30, 110]]).map((d) => [d.dropped, d.decoded]), [[25, 100]]);
  assert.equal(drops([[0, 0, 0], [5000, Number.NaN, 100], [10000, 40, 200], [15000, 80, 300]]).map((d) => d.t), [15000], 'NaN: no decision, then the period after it');
  assert.equal(drops([[0, 0, 0], [5000, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY], [10000, 1, 1]]), []);
  assert.equal(drops([[0, 0, 0], [5000, -10, 100]]), [], 'a negative count of drops');
});

test('frame drops: the clock only stamps the decision (negative, huge, NaN, going back); its share is the tuning passed', () => {
  assert.equal(drops([[-1e15, 0, 0], [Number.NaN, 30, 100], [2 ** 60, 60, 200], [-5, 90, 300]]).map((d) => d.t), [Number.NaN, 2 ** 60, -5]);
  assert.equal(drops([[0, 0, 0], [5000, 30, 100]], { ...TUNING, dropShare: 0.5 }), []);
  assert.equal(drops([[0, 0, 0], [5000, 6, 100]], { ...TUNING, dropShare: 0.05 }).length, 1);
});

test.run();
