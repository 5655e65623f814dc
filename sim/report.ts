// The command line's tables: a class's policies side by side, a line per trace, and the goals
// for the player against the baselines and the optimum.
import type { ClassRun, PolicyRun } from './run';
import type { Metrics } from './types';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const fixed = (x: number, digits: number) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

const scaleText = (scale: number) => (scale === 1 ? '' : `, bandwidth × ${scale === 1 / 8 ? '1/8' : String(Number(scale.toPrecision(4)))}`);

/** QoE ÷ the optimum's, when the optimum is positive (a ratio of negative QoEs says nothing). */
const ofOptimal = (qoe: number, optimal: PolicyRun | undefined) => (optimal && optimal.mean.qoe > 0 ? qoe / optimal.mean.qoe : NaN);

const COLUMNS: [string, number, (m: Metrics) => string][] = [
  ['QoE', 8, (m) => fixed(m.qoe, 3)],
  ['rebuf %', 8, (m) => fixed(m.rebufferRatio * 100, 2)],
  ['stalls', 7, (m) => fixed(m.stalls, 2)],
  ['stall s', 8, (m) => fixed(m.stallS, 1)],
  ['start s', 8, (m) => fixed(m.startupS, 2)],
  ['kb/s', 7, (m) => fixed(m.kbps, 0)],
  ['switches', 9, (m) => fixed(m.switches, 1)],
  ['unpl. MB', 9, (m) => fixed(m.unplayedMB, 2)],
];

/** A row per policy: the class's means (and the share of the optimum's QoE). */
export function resultsTable(run: ClassRun): string {
  const optimal = run.policies.find((p) => p.name === 'optimal');
  const head = `${pad('policy', 11)}${lpad('QoE', 8)}${lpad('× opt.', 8)}${COLUMNS.slice(1).map(([h, w]) => lpad(h, w)).join('')}  failed`;
  const rows = run.policies.map((p) => {
    const cells = COLUMNS.map(([, w, f]) => lpad(f(p.mean), w));
    cells.splice(1, 0, lpad(fixed(ofOptimal(p.mean.qoe, optimal), 3), 8));
    return `${pad(p.name, 11)}${cells.join('')}  ${p.failures > 0 ? p.failures : ''}`;
  });
  return [`\n${run.name}: ${run.traces} traces${scaleText(run.scale)} (means over traces)`, head, ...rows].join('\n');
}

/** A line per trace and policy; a session the policy gave up is marked FAILED. */
export function traceLines(run: ClassRun): string {
  const names = run.policies[0]?.traces.map((t) => t.trace) ?? [];
  const width = Math.max(5, ...names.map((n) => n.length)) + 2;
  const head = `${pad('trace', width)}${pad('policy', 11)}${COLUMNS.map(([h, w]) => lpad(h, w)).join('')}`;
  const lines = names.flatMap((_, t) =>
    run.policies.map((p) => {
      const r = p.traces[t]!;
      return `${pad(r.trace, width)}${pad(p.name, 11)}${COLUMNS.map(([, w, f]) => lpad(f(r), w)).join('')}${r.failed ? '  FAILED' : ''}`;
    }),
  );
  return [head, ...lines].join('\n');
}

/**
 * `x` at least `k` times `base`, read for a negative base as "better by the same share of its size"
 * (k = 1.1 over a base of −2 asks for −1.8), so a ratio's goal keeps its sense below zero.
 */
export const atLeast = (x: number, k: number, base: number) => x >= base + (k - 1) * Math.abs(base);

/** The goals for `player` in one class; undefined when player is not among the policies. */
export function goalsTable(run: ClassRun): string | undefined {
  const by = (name: string) => run.policies.find((p) => p.name === name)?.mean;
  const player = by('player');
  if (!player) return undefined;
  const optimal = by('optimal');
  const hlsjs = by('hlsjs');
  const bola = by('bola-e');
  const dynamic = by('dynamic');
  const rows: [string, string, string, boolean | undefined, [string, string]?][] = [];
  const ratio = (a: number, b: number) => (b > 0 ? fixed(a / b, 3) : `${fixed(a, 3)} vs ${fixed(b, 3)}`);

  rows.push(['QoE ÷ optimal', optimal ? ratio(player.qoe, optimal.qoe) : '–', '≥ 0.85', optimal ? atLeast(player.qoe, 0.85, optimal.qoe) : undefined]);
  // A baseline near the limit: its ratio goal would ask for more than the optimum, so 0.97× it counts.
  const beat = (label: string, base: Metrics | undefined, k: number) => {
    if (!base) return rows.push([label, '–', `≥ ${k.toFixed(2)}`, undefined]);
    const nearLimit = optimal !== undefined && base.qoe + (k - 1) * Math.abs(base.qoe) > optimal.qoe;
    if (nearLimit) rows.push([label, `${ratio(player.qoe, optimal.qoe)} × optimal`, '≥ 0.97 × optimal (baseline near it)', atLeast(player.qoe, 0.97, optimal.qoe)]);
    else rows.push([label, ratio(player.qoe, base.qoe), `≥ ${k.toFixed(2)}`, atLeast(player.qoe, k, base.qoe)]);
  };
  beat('QoE ÷ hlsjs', hlsjs, 1.1);
  const better = bola && dynamic ? (bola.qoe >= dynamic.qoe ? bola : dynamic) : (bola ?? dynamic);
  const betterName = better === undefined ? 'max(bola-e, dynamic)' : better === bola ? 'bola-e' : 'dynamic';
  beat(`QoE ÷ ${betterName}${bola && dynamic ? ' (the better of bola-e, dynamic)' : ''}`, better, 1.05);
  const pct = (x: number) => `${fixed(x * 100, 2)} %`;
  rows.push(['rebuffer vs hlsjs', pct(player.rebufferRatio), hlsjs ? `≤ 0.5 × ${pct(hlsjs.rebufferRatio)}` : '≤ 0.5 × hlsjs', hlsjs ? player.rebufferRatio <= 0.5 * hlsjs.rebufferRatio : undefined]);
  // Whether the rebuffer goal is reachable at all: no policy that starts once its first segment is in
  // rebuffers less than `floor` (sim/policies/floor.ts); the rest could only be moved into the start.
  const floor = by('floor');
  if (floor && hlsjs) rows.push(['rebuffer floor (any policy starting at once)', pct(floor.rebufferRatio), `≤ 0.5 × ${pct(hlsjs.rebufferRatio)}`, floor.rebufferRatio <= 0.5 * hlsjs.rebufferRatio, ['reachable', 'UNREACHABLE']]);
  rows.push(['rebuffer vs bola-e', pct(player.rebufferRatio), bola ? `≤ ${pct(bola.rebufferRatio)}` : '≤ bola-e', bola ? player.rebufferRatio <= bola.rebufferRatio : undefined]);
  rows.push(['unplayed MB vs hlsjs', fixed(player.unplayedMB, 2), hlsjs ? `≤ ${fixed(hlsjs.unplayedMB, 2)}` : '≤ hlsjs', hlsjs ? player.unplayedMB <= hlsjs.unplayedMB : undefined]);

  const verdict = (met: boolean | undefined, [yes, no] = ['met', 'NOT MET']) => (met === undefined ? 'no baseline' : met ? yes : no);
  const lines = rows.map(([goal, value, bound, met, words]) => `  ${pad(goal, 48)}${pad(value, 20)}${pad(bound, 38)}${verdict(met, words)}`);
  return [`${run.name} goals (player)`, `  ${pad('goal', 48)}${pad('value', 20)}${pad('bound', 38)}`, ...lines].join('\n');
}
