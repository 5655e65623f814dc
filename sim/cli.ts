// `npm run sim`: runs policies over trace classes on a ladder and prints per-class tables, the issue's
// goals table, and optionally the JSON others check the numbers with. See HELP.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readManifest, toSabreJson } from './manifest';
import { METRIC_KEYS } from './metrics';
import { QUEUED_KIB } from './engine';
import { goalsTable, resultsTable, traceLines } from './report';
import { POLICY_NAMES } from './policies/index';
import { runClasses, type ClassRun } from './run';
import { MAHIMAHI_DEFAULTS, fromOffset, readTracePaths, type MahimahiOptions } from './traces';
import type { Metrics } from './types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = resolve(ROOT, '../shared/traces/corpus');
const PRODUCTION = resolve(ROOT, 'sim/manifests/production.json');
/** The issue's default classes: the 4G traces are far above the ladder's top, so a congested cell is an eighth of them. */
const DEFAULT_CLASSES = [
  { folder: '3g', scale: 1 },
  { folder: '4g', scale: 1 / 8 },
  { folder: 'broadband', scale: 1 },
];

const HELP = `npm run sim -- [options]

With no --traces: the issue's default run, the shared corpus (${relative(ROOT, CORPUS)}) as 3g, 4g with
its bandwidth ÷ 8 and broadband, on sim/manifests/production.json, every policy, and the goals table.

  --traces PATH[,PATH…]  trace files or folders (a folder is a class: its .json corpus traces and
                         .down mahimahi traces, by name; a file joins its folder's class)
  --manifest FILE|URL    Sabre JSON (segment_duration_ms, bitrates_kbps, segment_sizes_bits, and
                         audio_sizes_bits when the audio loads beside the video, average_bandwidth_kbps
                         and bandwidth_kbps as a master declares them) or an HLS master playlist, a
                         path or an http(s) URL, read with real segment sizes
  --policies a,b,…       of ${POLICY_NAMES.join(', ')} (default: all)
  --scale F              multiplies every bandwidth (default 1; in the default run, each class's own)
  --seconds S            content seconds a viewer watches (default 600)
  --wall-seconds S       or: the viewer leaves S seconds after the first request, however much played
                         (as a bench:playback run ends 90 s after navigation; not with optimal)
  --queued-kib N         what a response given up still sends over the link, at most (default ${QUEUED_KIB})
  --offsets S[,S…]       each trace also from these seconds in (wrapped), as bench:playback plays it
  --json OUT             writes {"policies": {name: {"mean", "traces": [{"trace", …}]}}, "classes": …}
  --per-trace            a line per trace and policy (a failed session is marked FAILED)
  --latency-ms N         mahimahi traces' latency (default ${MAHIMAHI_DEFAULTS.latencyMs})
  --period-ms N          mahimahi deliveries counted per N ms (default ${MAHIMAHI_DEFAULTS.periodMs})
  --jobs N               worker threads (default: the machine's cores)
  --write-manifest OUT   writes --manifest as Sabre JSON to OUT; sim/manifests/production.json is
                         npm run media:ladder, then
                         npm run sim -- --manifest .cache/media/ladder/master.m3u8 --write-manifest sim/manifests/production.json`;

export interface CliOptions {
  help: boolean;
  /** Empty: the default run. */
  traces: string[];
  manifest: string;
  policies: string[];
  scale: number;
  seconds: number;
  wallSeconds?: number;
  queuedKiB: number;
  offsets: number[];
  json?: string;
  perTrace: boolean;
  mahimahi: MahimahiOptions;
  jobs?: number;
  writeManifest?: string;
}

const positive = (flag: string, value: string | undefined): number => {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a number > 0, not ${value ?? 'nothing'}`);
  return n;
};

export function parseArgs(argv: string[]): CliOptions {
  const o: CliOptions = {
    help: false,
    traces: [],
    manifest: PRODUCTION,
    policies: POLICY_NAMES,
    scale: 1,
    seconds: 600,
    queuedKiB: QUEUED_KIB,
    offsets: [],
    perTrace: false,
    mahimahi: { ...MAHIMAHI_DEFAULTS },
  };
  const list = (v: string) => v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--help':
      case '-h': o.help = true; break;
      case '--traces': o.traces.push(...list(value())); break;
      case '--manifest': o.manifest = value(); break;
      case '--policies': o.policies = list(value()); break;
      case '--scale': o.scale = positive(flag, value()); break;
      case '--seconds': o.seconds = positive(flag, value()); break;
      case '--wall-seconds': o.wallSeconds = positive(flag, value()); break;
      case '--queued-kib': {
        const v = value();
        o.queuedKiB = Number(v);
        if (!(o.queuedKiB >= 0) || v.trim() === '') throw new Error(`--queued-kib needs a number >= 0, not ${v}`);
        break;
      }
      case '--offsets': {
        const v = value();
        o.offsets = list(v).map(Number);
        if (o.offsets.length === 0 || o.offsets.some((n) => !(n >= 0))) throw new Error(`--offsets needs seconds >= 0, not ${v}`);
        break;
      }
      case '--json': o.json = value(); break;
      case '--per-trace': o.perTrace = true; break;
      case '--latency-ms': {
        const v = value();
        o.mahimahi.latencyMs = Number(v);
        if (!(o.mahimahi.latencyMs >= 0) || v.trim() === '') throw new Error(`--latency-ms needs a number >= 0, not ${v}`);
        break;
      }
      case '--period-ms': o.mahimahi.periodMs = positive(flag, value()); break;
      case '--jobs': o.jobs = Math.max(1, Math.round(positive(flag, value()))); break;
      case '--write-manifest': o.writeManifest = value(); break;
      default: throw new Error(`unknown option ${flag} (npm run sim -- --help)`);
    }
  }
  const known = new Set(POLICY_NAMES);
  const unknown = o.policies.filter((p) => !known.has(p));
  if (unknown.length > 0) throw new Error(`unknown policy ${unknown.join(', ')}; known: ${POLICY_NAMES.join(', ')}`);
  if (o.policies.length === 0) throw new Error('--policies names none');
  if (o.wallSeconds !== undefined && o.policies.includes('optimal')) throw new Error('--wall-seconds: optimal plans content seconds; name the --policies to run without it');
  return o;
}

/** The classes to run: the named PATHs at --scale, or the default corpus classes at theirs (× --scale). */
export function classesOf(o: CliOptions) {
  const classes =
    o.traces.length > 0
      ? readTracePaths(o.traces, o.mahimahi).map((cls) => ({ ...cls, scale: o.scale }))
      : DEFAULT_CLASSES.map(({ folder, scale }) => ({ ...readTracePaths([resolve(CORPUS, folder)])[0]!, scale: scale * o.scale }));
  if (o.offsets.length === 0) return classes;
  return classes.map((cls) => ({ ...cls, traces: cls.traces.flatMap((t) => o.offsets.map((s) => fromOffset(t, s))) }));
}

type JsonTrace = Metrics & { trace: string; class: string; failed?: true };
interface JsonReport {
  policies: Record<string, { mean: Metrics; failures: number; traces: JsonTrace[] }>;
  classes: Record<string, { scale: number; traces: number; policies: Record<string, { mean: Metrics; failures: number }> }>;
}

/** The issue's JSON: every trace of every class under its policy, plus the per-class means. */
export function toJson(runs: ClassRun[]): JsonReport {
  const report: JsonReport = { policies: {}, classes: {} };
  const all = new Map<string, JsonTrace[]>();
  for (const cls of runs) {
    report.classes[cls.name] = { scale: cls.scale, traces: cls.traces, policies: {} };
    for (const p of cls.policies) {
      report.classes[cls.name]!.policies[p.name] = { mean: p.mean, failures: p.failures };
      all.set(p.name, [...(all.get(p.name) ?? []), ...p.traces.map((t) => ({ ...t, class: cls.name }))]);
    }
  }
  for (const [name, traces] of all) {
    const mean = Object.fromEntries(METRIC_KEYS.map((k) => [k, traces.reduce((s, t) => s + t[k], 0) / traces.length])) as unknown as Metrics;
    report.policies[name] = { mean, failures: traces.filter((t) => t.failed).length, traces };
  }
  return report;
}

export async function main(argv: string[]): Promise<number> {
  const o = parseArgs(argv);
  if (o.help) {
    console.log(HELP);
    return 0;
  }
  const manifest = await readManifest(o.manifest);
  if (o.writeManifest) {
    mkdirSync(dirname(resolve(o.writeManifest)), { recursive: true });
    writeFileSync(o.writeManifest, toSabreJson(manifest));
    console.log(`${o.writeManifest}: ${manifest.bitratesKbps.length} levels (${manifest.bitratesKbps.map((k) => Math.round(k)).join(', ')} kb/s), ${manifest.segmentBits[0]!.length} segments of ${manifest.segmentS} s`);
    if (o.traces.length === 0) return 0;
  }
  const started = performance.now();
  const classes = classesOf(o);
  const runs = await runClasses(classes, manifest, o.policies, { seconds: o.seconds, wallSeconds: o.wallSeconds, queuedKiB: o.queuedKiB, jobs: o.jobs });
  for (const run of runs) {
    console.log(resultsTable(run));
    if (o.perTrace) console.log(traceLines(run));
    const goals = goalsTable(run);
    if (goals) console.log(goals);
  }
  if (o.json) {
    mkdirSync(dirname(resolve(o.json)), { recursive: true });
    writeFileSync(o.json, `${JSON.stringify(toJson(runs), null, 1)}\n`);
  }
  const traces = classes.reduce((n, c) => n + c.traces.length, 0);
  console.log(`${traces} traces × ${o.policies.length} policies, ${o.wallSeconds === undefined ? `${o.seconds} s` : `${o.wallSeconds} s of clock`} each, in ${((performance.now() - started) / 1000).toFixed(1)} s${o.json ? `; JSON in ${o.json}` : ''}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`sim: ${err.message}`);
      process.exit(2);
    },
  );
}
