// The browser goals of docs/playback.md, as `npm run bench:playback` prints them: the player against the
// bare hls.js page on one trace in one engine, over that trace's runs; and, for `--long`, whether memory
// stays flat after the first minute.
import { atLeast } from '../sim/report';
import { STALL_PENALTY } from './qoe';

/** What a trace's runs of one page add up to (bench/playback.ts `summarize`). */
export interface PageTotals {
  runs: number;
  /** Runs that showed the player's error screen. */
  errorScreens: number;
  /** Mean ms from navigation to the first frame (NaN when no run had one). */
  firstFrameMs: number;
  stalls: number;
  rebufferRatio: number;
  /** Mean bits per second of the played seconds. */
  meanBitrate: number;
  /** QoE per run (bench/qoe.ts `qoeScore` over the runs, ÷ runs). */
  qoePerRun: number;
}

export interface GoalRow {
  goal: string;
  value: string;
  bound: string;
  /** undefined: not judged (a number is missing). */
  met: boolean | undefined;
}

const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '–');
const judged = (ok: boolean, ...numbers: number[]) => (numbers.every(Number.isFinite) ? ok : undefined);

/** QoE per run with the wait for the first frame counted as stall (at the QoE's price of a second of stall). */
export const qoeWithStart = (p: PageTotals) => p.qoePerRun - (STALL_PENALTY * p.firstFrameMs) / 1000;

const ratio = (a: number, b: number) => (b > 0 ? `${fixed(a / b, 2)}×` : `${fixed(a, 1)} vs ${fixed(b, 1)}`);

/** The five browser goals of the player (`player`) against the bare hls.js page (`bare`) on one trace. */
export function browserGoals(player: PageTotals, bare: PageTotals): GoalRow[] {
  const qp = qoeWithStart(player);
  const qb = qoeWithStart(bare);
  return [
    {
      goal: 'no error screen while bytes flow',
      value: `${player.errorScreens} of ${player.runs} runs`,
      bound: '0',
      met: player.runs > 0 ? player.errorScreens === 0 : undefined,
    },
    {
      goal: 'rebuffer ≤ ½ the bare page’s, no more stalls',
      value: `${pct(player.rebufferRatio)}, ${player.stalls} stalls`,
      bound: `≤ ${pct(bare.rebufferRatio / 2)}, ≤ ${bare.stalls}`,
      // No stall on either page is met: 0 ≤ ½ × 0.
      met: player.stalls === 0 ? true : judged(player.rebufferRatio <= bare.rebufferRatio / 2 && player.stalls <= bare.stalls, player.rebufferRatio, bare.rebufferRatio),
    },
    {
      goal: 'QoE ≥ 1.1× (the first frame’s wait as stall)',
      value: ratio(qp, qb),
      bound: '≥ 1.10×',
      met: judged(atLeast(qp, 1.1, qb), qp, qb),
    },
    {
      goal: 'bitrate ≥ 0.9×',
      value: ratio(player.meanBitrate, bare.meanBitrate),
      bound: '≥ 0.90×',
      met: judged(player.meanBitrate >= 0.9 * bare.meanBitrate, player.meanBitrate, bare.meanBitrate),
    },
    {
      goal: 'first frame ≤ 0.85×',
      value: ratio(player.firstFrameMs, bare.firstFrameMs),
      bound: '≤ 0.85×',
      met: judged(player.firstFrameMs <= 0.85 * bare.firstFrameMs, player.firstFrameMs, bare.firstFrameMs),
    },
  ];
}

/** One reading of the long watch (bench/playback-long.ts): its minute, and the JS heap and renderer RSS then (bytes). */
export interface MemoryMinute {
  minute: number;
  heapUsed: number;
  rendererRss: number;
}

/** The least-squares slope of `ys` over `xs`; NaN for fewer than two distinct xs. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, x) => a + x, 0) / n;
  const my = ys.reduce((a, y) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den > 0 ? num / den : NaN;
}

/** How much of its first-minute size a measure may gain in an hour at its later trend and still be flat. */
export const FLAT_SHARE_PER_HOUR = 0.1;

/**
 * Memory on the long title is flat after the first minute when, from minute 1 on, neither the JS heap
 * nor the renderer's RSS trends up by more than FLAT_SHARE_PER_HOUR of its minute-1 size an hour: a
 * leak grows with the minutes watched, a buffer that fills once does not, and a trend is read over
 * every minute so that one noisy reading does not decide it.
 */
export function memoryGoals(minutes: readonly MemoryMinute[]): GoalRow[] {
  const after = minutes.filter((m) => m.minute >= 1);
  const row = (what: string, pick: (m: MemoryMinute) => number): GoalRow => {
    const first = after[0] ? pick(after[0]) : NaN;
    const perHour = slope(after.map((m) => m.minute), after.map(pick)) * 60;
    return {
      goal: `${what} flat after the first minute`,
      value: `${perHour >= 0 ? '+' : ''}${fixed(perHour / 1e6, 1)} MB an hour`,
      bound: `≤ +${fixed((FLAT_SHARE_PER_HOUR * first) / 1e6, 1)} MB (${FLAT_SHARE_PER_HOUR * 100} % of minute 1's)`,
      met: after.length >= 3 ? judged(perHour <= FLAT_SHARE_PER_HOUR * first, perHour, first) : undefined,
    };
  };
  return [row('JS heap', (m) => m.heapUsed), row('renderer RSS', (m) => m.rendererRss)];
}

/** The rows as the command prints them, under `title`. */
export function goalsText(title: string, rows: readonly GoalRow[]): string {
  const widths = [48, 24, 40];
  const pad = (s: string, n: number) => (s.length >= n ? `${s} ` : s + ' '.repeat(n - s.length));
  const verdict = (met: boolean | undefined) => (met === undefined ? 'not judged' : met ? 'met' : 'NOT MET');
  return [
    title,
    `  ${pad('goal', widths[0]!)}${pad('value', widths[1]!)}${pad('bound', widths[2]!)}`,
    ...rows.map((r) => `  ${pad(r.goal, widths[0]!)}${pad(r.value, widths[1]!)}${pad(r.bound, widths[2]!)}${verdict(r.met)}`),
  ].join('\n');
}
