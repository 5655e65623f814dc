// Runs policies × traces, a class at a time, and averages each policy over a class's traces.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { simulate } from './engine';
import { meanMetrics, METRIC_KEYS } from './metrics';
import { optimal } from './optimal';
import { OPTIMAL, policies } from './policies/index';
import type { TraceClass } from './traces';
import type { Manifest, Metrics, Trace } from './types';

export interface RunOptions {
  /** Content seconds each session plays. */
  seconds: number;
  /** Or the seconds of each session's clock, however much is played (not for 'optimal', which plans content). */
  wallSeconds?: number | undefined;
  /** Multiplies every bandwidth of the class's traces. */
  scale: number;
  /** What a response given up still sends over the link, at most, KiB (sim/engine.ts QUEUED_KIB). */
  queuedKiB?: number | undefined;
}

/** A trace's result as the JSON lists it: `failed` appears only when the session failed. */
export type TraceRun = Metrics & { trace: string; failed?: true };

export interface PolicyRun {
  name: string;
  mean: Metrics;
  traces: TraceRun[];
  /** Sessions that ended in failure (the policy gave up). */
  failures: number;
}

export interface ClassRun {
  name: string;
  scale: number;
  traces: number;
  policies: PolicyRun[];
}

function checkPolicies(names: string[], session: SessionSettings): void {
  const known = [...Object.keys(policies), OPTIMAL];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new Error(`unknown policy ${unknown.join(', ')}; known: ${known.join(', ')}`);
  if (names.includes(OPTIMAL) && session.wallSeconds !== undefined) throw new Error(`${OPTIMAL} plans content seconds: run it without a wall-clock bound`);
}

/** One session; 'optimal' is computed with the whole trace known, never fails. */
function runSession(name: string, manifest: Manifest, trace: Trace, options: RunOptions): TraceRun {
  const pick = (m: Metrics) => Object.fromEntries(METRIC_KEYS.map((k) => [k, m[k]])) as unknown as Metrics;
  if (name === OPTIMAL) return { trace: trace.name, ...pick(optimal(manifest, trace, options)) };
  const factory = policies[name];
  if (!factory) throw new Error(`unknown policy ${name}`);
  const result = simulate(manifest, trace, factory, options);
  return { trace: trace.name, ...pick(result), ...(result.failed ? { failed: true as const } : {}) };
}

/**
 * A worker thread starts as plain JavaScript: it registers tsx's loader itself (Node 20's workers do
 * not inherit `--import tsx`), then loads sim/worker.ts.
 */
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); })`;

/** A class with the scale its traces run at. */
export type ScaledClass = TraceClass & { scale: number };

/** What every session of a run shares (each class brings its own scale). */
export type SessionSettings = Omit<RunOptions, 'scale'>;

/** What a worker runs: sessions named by class, policy and trace index (sim/worker.ts). */
export interface WorkerInput {
  manifest: Manifest;
  classes: ScaledClass[];
  session: SessionSettings;
  tasks: [number, string, number][];
}

/** The sessions of `input`, in its order. */
export function runTasks(input: WorkerInput): TraceRun[] {
  return input.tasks.map(([c, name, t]) => {
    const cls = input.classes[c]!;
    return runSession(name, input.manifest, cls.traces[t]!, { ...input.session, scale: cls.scale });
  });
}

/**
 * Every class × policy × trace, spread over `jobs` worker threads (default: the machine's cores): the
 * sessions are independent, so the cores divide the time. Sessions are dealt round-robin, which mixes
 * slow policies and long traces over the workers.
 */
export async function runClasses(classes: ScaledClass[], manifest: Manifest, names: string[], options: SessionSettings & { jobs?: number | undefined }): Promise<ClassRun[]> {
  const { jobs: wanted, ...session } = options;
  checkPolicies(names, session);
  const tasks: [number, string, number][] = [];
  classes.forEach((cls, c) => names.forEach((name) => cls.traces.forEach((_, t) => tasks.push([c, name, t]))));
  const jobs = Math.min(wanted ?? availableParallelism(), tasks.length);
  const share = (w: number) => tasks.filter((_, k) => k % jobs === w);
  const input = (w: number): WorkerInput => ({ manifest, classes, session, tasks: share(w) });
  const parts =
    jobs <= 1
      ? [runTasks(input(0))]
      : await Promise.all(
          Array.from({ length: jobs }, (_, w) => {
            const worker = new Worker(WORKER_BOOT, { eval: true, workerData: input(w) });
            return new Promise<TraceRun[]>((done, fail) => {
              worker.once('message', (runs: TraceRun[]) => {
                done(runs);
                void worker.terminate();
              });
              worker.once('error', fail);
              worker.once('exit', (code) => fail(new Error(`sim worker exited (${code}) before its results`)));
            });
          }),
        );
  const results = new Map<string, TraceRun>();
  tasks.forEach((task, k) => results.set(task.join('\0'), parts[k % jobs]![Math.floor(k / jobs)]!));
  return classes.map((cls, c) => ({
    name: cls.name,
    scale: cls.scale,
    traces: cls.traces.length,
    policies: names.map((name) => {
      const runs = cls.traces.map((_, t) => results.get([c, name, t].join('\0'))!);
      return { name, mean: meanMetrics(runs), traces: runs, failures: runs.filter((r) => r.failed).length };
    }),
  }));
}
