// Trace readers: the corpus's JSON (Sabre's format) and mahimahi's packet-delivery files, turned into
// the periods the engine replays (sim/types.ts Trace).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { Trace, TracePeriod } from './types';

/** mahimahi's packets are 1500 bytes. */
const PACKET_BITS = 1500 * 8;

export interface MahimahiOptions {
  /** Every request's wait for its first byte, ms (mahimahi files carry no latency). */
  latencyMs: number;
  /** The periods the deliveries are counted in, ms: short enough to keep the trace's swings. */
  periodMs: number;
}

export const MAHIMAHI_DEFAULTS: MahimahiOptions = { latencyMs: 40, periodMs: 100 };

/** Trace files by extension; a file named on its own with another extension is recognised by its content. */
const CORPUS_EXT = new Set(['.json']);
const MAHIMAHI_EXT = new Set(['.down', '.mahi', '.mahimahi']);

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Sabre's JSON: an array of `{duration_ms, bandwidth_kbps, latency_ms}`. */
export function parseCorpusTrace(text: string, name: string): Trace {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`trace ${name}: not JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(data)) throw new Error(`trace ${name}: expected an array of {duration_ms, bandwidth_kbps, latency_ms}`);
  if (data.length === 0) throw new Error(`trace ${name}: no periods`);
  const periods = data.map((row: unknown, i): TracePeriod => {
    const r = (row ?? {}) as Record<string, unknown>;
    const durationMs = r.duration_ms;
    const kbps = r.bandwidth_kbps;
    const latencyMs = r.latency_ms;
    if (!isNumber(durationMs) || !isNumber(kbps) || !isNumber(latencyMs)) {
      throw new Error(`trace ${name}: period ${i} needs numbers duration_ms, bandwidth_kbps and latency_ms`);
    }
    if (durationMs <= 0) throw new Error(`trace ${name}: period ${i} has duration_ms ${durationMs} (must be > 0)`);
    if (kbps < 0) throw new Error(`trace ${name}: period ${i} has bandwidth_kbps ${kbps} (must be >= 0)`);
    if (latencyMs < 0) throw new Error(`trace ${name}: period ${i} has latency_ms ${latencyMs} (must be >= 0)`);
    return { durationMs, kbps, latencyMs };
  });
  return checkCarries({ name, periods });
}

/**
 * mahimahi: a line per 1500-byte delivery opportunity, its time in ms from the trace's start (a time
 * repeated N times is N packets). The trace lasts until its last time and then repeats, as mahimahi
 * replays it; the deliveries are counted per `periodMs`.
 */
export function parseMahimahi(text: string, name: string, options: Partial<MahimahiOptions> = {}): Trace {
  const { latencyMs, periodMs } = { ...MAHIMAHI_DEFAULTS, ...options };
  if (!(periodMs > 0)) throw new Error(`trace ${name}: period must be > 0 ms, not ${periodMs}`);
  if (!(latencyMs >= 0)) throw new Error(`trace ${name}: latency must be >= 0 ms, not ${latencyMs}`);
  const times: number[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    if (!/^-?\d+$/.test(line)) throw new Error(`trace ${name}: line ${i + 1} is not a time in ms: "${line.slice(0, 40)}"`);
    const t = Number(line);
    if (t < 0) throw new Error(`trace ${name}: line ${i + 1} has a negative time ${t}`);
    if (times.length > 0 && t < times[times.length - 1]!) throw new Error(`trace ${name}: line ${i + 1} goes back in time (${t})`);
    times.push(t);
  }
  if (times.length === 0) throw new Error(`trace ${name}: no packet times`);
  // A trace of one instant ("1") still lasts 1 ms: one packet a millisecond.
  const lengthMs = Math.max(times[times.length - 1]!, 1);
  const count = Math.ceil(lengthMs / periodMs);
  const packets = new Array<number>(count).fill(0);
  for (const t of times) packets[Math.min(Math.floor(t / periodMs), count - 1)]! += 1;
  const periods = packets.map((n, k): TracePeriod => {
    const durationMs = Math.min(periodMs, lengthMs - k * periodMs);
    // bits per ms is kb/s
    return { durationMs, kbps: (n * PACKET_BITS) / durationMs, latencyMs };
  });
  return checkCarries({ name, periods });
}

/** A trace that carries nothing would hold every request forever. */
function checkCarries(trace: Trace): Trace {
  if (!trace.periods.some((p) => p.kbps > 0)) throw new Error(`trace ${trace.name}: carries nothing (every period is 0 kb/s)`);
  return trace;
}

/** One file, by its extension, or by its first character when the extension says nothing. */
function readTraceFile(path: string, options: Partial<MahimahiOptions> = {}): Trace {
  const text = readFileSync(path, 'utf8');
  const name = basename(path);
  const ext = extname(path).toLowerCase();
  if (CORPUS_EXT.has(ext)) return parseCorpusTrace(text, name);
  if (MAHIMAHI_EXT.has(ext)) return parseMahimahi(text, name, options);
  return text.trimStart().startsWith('[') ? parseCorpusTrace(text, name) : parseMahimahi(text, name, options);
}

export interface TraceClass {
  /** The folder's name (for a file, its folder's). */
  name: string;
  traces: Trace[];
}

/**
 * PATHs in the command line's order: a folder is a class of all its trace files (by name; README,
 * licences and mahimahi's uplink `.up` files are not traces); a file joins the class of its folder.
 * PATHs of one class name are merged.
 */
export function readTracePaths(paths: string[], options: Partial<MahimahiOptions> = {}): TraceClass[] {
  const classes = new Map<string, Trace[]>();
  const add = (cls: string, trace: Trace) => {
    const list = classes.get(cls) ?? [];
    list.push(trace);
    classes.set(cls, list);
  };
  for (const raw of paths) {
    const path = resolve(raw);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw new Error(`traces: no such file or folder: ${raw}`);
    }
    if (isDir) {
      const files = readdirSync(path)
        .filter((f) => CORPUS_EXT.has(extname(f).toLowerCase()) || MAHIMAHI_EXT.has(extname(f).toLowerCase()))
        .sort();
      if (files.length === 0) throw new Error(`traces: no trace files (.json, .down) in ${raw}`);
      for (const f of files) add(basename(path), readTraceFile(join(path, f), options));
    } else {
      add(basename(dirname(path)), readTraceFile(path, options));
    }
  }
  return [...classes].map(([name, traces]) => ({ name, traces }));
}

/**
 * The trace replayed from `seconds` in (wrapping at its end), named `name@Ns`: the browser benchmark
 * (`npm run bench:playback`) plays each trace from several offsets, and the simulator predicts the same runs.
 */
export function fromOffset(trace: Trace, seconds: number): Trace {
  const total = trace.periods.reduce((ms, p) => ms + p.durationMs, 0);
  let at = total > 0 ? (seconds * 1000) % total : 0;
  const name = `${trace.name}@${seconds}s`;
  for (let i = 0; i < trace.periods.length; i++) {
    const p = trace.periods[i]!;
    if (at < p.durationMs) {
      const head = at > 0 ? [{ ...p, durationMs: p.durationMs - at }] : [p];
      const tail = at > 0 ? [{ ...p, durationMs: at }] : [];
      return { name, periods: [...head, ...trace.periods.slice(i + 1), ...trace.periods.slice(0, i), ...tail] };
    }
    at -= p.durationMs;
  }
  return { ...trace, name };
}
