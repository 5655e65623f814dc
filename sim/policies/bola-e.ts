// BOLA-E as Spiteri, Sitaraman and Sparacio describe it ("From Theory to Practice: Improving Bitrate
// Adaptation in the DASH Reference Player", ACM MMSys 2018), with the constants of Sabre, the simulator
// the paper's results come from:
// - BOLA: the level maximising (V (v_m + γp) − Q) / S_m, with utilities v_m = ln(S_m / S_1) + 1, Q the
//   buffer, V and γp set so that the lowest level is picked below 10 s and the top one at the target;
// - the placeholder (BOLA-PL): at the start and after a seek, virtual buffer is added so that BOLA picks the
//   level the throughput sustains; the placeholder absorbs the waits BOLA asks for;
// - BOLA-O: no up-switch past the level the measured throughput sustains (the paper's runs use it);
// - the insufficient buffer rule: no level whose segment cannot arrive, at a safety share of the
//   throughput, before the buffer runs out;
// - the abandonment rule: a request is dropped for a lower level when that level's whole segment scores
//   higher than the rest of this one.
import type { Manifest, PolicyFactory, Progress, SimPolicy, SimView } from '../types';

/** BOLA picks the lowest level below this buffer, s, and needs this much more per level (Sabre's BOLA-E). */
const MIN_BUFFER_S = 10;
const MIN_BUFFER_PER_LEVEL_S = 2;
/** The buffer target, s: Sabre's default maximum buffer (its `--max-buffer`, the paper's VOD runs). */
const SABRE_BUFFER_S = 25;
/** The insufficient buffer rule's safety share: 0.9 at first, × 0.9 each decision, down to 0.5 (Sabre). */
const IBR_START = 0.9;
const IBR_FLOOR = 0.5;
/** The throughput estimate's half-lives, ms of download time (Sabre's default EWMA: 3 s and 8 s). */
const HALF_LIVES_MS = [3000, 8000];

/** Sabre's default throughput and latency estimate: two EWMAs each, the lower throughput, the higher latency. */
export interface Estimate {
  /** kb/s; undefined before the first sample. */
  kbps(): number | undefined;
  latencyMs(): number;
  push(downloadMs: number, kbps: number, latencyMs: number): void;
}

export function createEstimate(segmentS: number): Estimate {
  const tput = HALF_LIVES_MS.map(() => 0);
  const lat = HALF_LIVES_MS.map(() => 0);
  let tputWeight = 0;
  let latWeight = 0;
  // Latency samples count one per request: its half-lives are the same times in segments.
  const latHalfLives = HALF_LIVES_MS.map((h) => h / (segmentS * 1000));
  return {
    kbps: () => (tputWeight > 0 ? Math.min(...tput.map((t, i) => t / (1 - 0.5 ** (tputWeight / HALF_LIVES_MS[i]!)))) : undefined),
    latencyMs: () => (latWeight > 0 ? Math.max(...lat.map((l, i) => l / (1 - 0.5 ** (latWeight / latHalfLives[i]!)))) : 0),
    push(downloadMs, kbps, latencyMs) {
      HALF_LIVES_MS.forEach((h, i) => {
        const a = 0.5 ** (downloadMs / h);
        tput[i] = a * tput[i]! + (1 - a) * kbps;
        const b = 0.5 ** (1 / latHalfLives[i]!);
        lat[i] = b * lat[i]! + (1 - b) * latencyMs;
      });
      tputWeight += downloadMs;
      latWeight += 1;
    },
  };
}

/** The highest level whose segment, after the latency, arrives within a segment's time at `kbps`. */
export function levelForThroughput(manifest: Manifest, kbps: number, latencyMs: number): number {
  const segMs = manifest.segmentS * 1000;
  let level = 0;
  while (level + 1 < manifest.bitratesKbps.length && latencyMs + (segMs * manifest.bitratesKbps[level + 1]!) / kbps <= segMs) level += 1;
  return level;
}

/** A BOLA-E decision: its level, the wait before the request (s), and the state to keep if it is taken. */
export interface BolaPlan {
  level: number;
  waitS: number;
  commit(): void;
}

export interface BolaCore {
  /** The decision at `bufferS` (after the engine's own wait, `waitedS`, which the placeholder absorbs). */
  plan(bufferS: number, waitedS: number): BolaPlan;
  /** The abandonment rule: the lower level to restart at, or -1. */
  abandon(view: SimView, progress: Progress): number;
  onDownload(view: SimView, level: number, abandonedTo: number | undefined, downloadMs: number): void;
  onSeek(): void;
}

export function createBolaCore(manifest: Manifest, estimate: Estimate): BolaCore {
  const kbps = manifest.bitratesKbps;
  const top = kbps.length - 1;
  const utility = kbps.map((k) => Math.log(k / kbps[0]!) + 1);
  // V and γp (the paper): the lowest level's score leads below MIN_BUFFER_S, the top's from the target on.
  const targetS = Math.max(SABRE_BUFFER_S, MIN_BUFFER_S + MIN_BUFFER_PER_LEVEL_S * kbps.length);
  const gp = top > 0 ? (utility[top]! - 1) / (targetS / MIN_BUFFER_S - 1) : 1;
  const vp = MIN_BUFFER_S / gp;
  const levelForBuffer = (bufferS: number) => {
    let best = 0;
    for (let q = 1; q <= top; q++) if ((vp * (utility[q]! + gp) - bufferS) / kbps[q]! > (vp * (utility[best]! + gp) - bufferS) / kbps[best]!) best = q;
    return best;
  };
  /** The buffer from which BOLA prefers `q` to every lower level. */
  const minBufferFor = (q: number) => {
    let level = 0;
    for (let lower = 0; lower < q; lower++) {
      const l = vp * (gp + (kbps[q]! * utility[lower]! - kbps[lower]! * utility[q]!) / (kbps[q]! - kbps[lower]!));
      level = Math.max(level, l);
    }
    return level;
  };
  /** The buffer at which `q`'s score falls to 0: above it, BOLA would rather wait. */
  const maxBufferFor = (q: number) => vp * (utility[q]! + gp);

  let steady = false;
  let placeholderS = 0;
  let lastLevel = 0;
  let ibrSafety = IBR_START;

  return {
    plan(bufferS, waitedS) {
      let placeholder = placeholderS + waitedS;
      const tput = estimate.kbps();
      const latencyMs = estimate.latencyMs();
      if (tput === undefined) return { level: lastLevel, waitS: 0, commit: () => void (placeholderS = placeholder) };
      if (!steady) {
        // The start (or a seek): the level the throughput sustains, with the placeholder BOLA needs to pick it.
        const level = levelForThroughput(manifest, tput, latencyMs);
        placeholder = Math.max(0, minBufferFor(level) - bufferS);
        return {
          level,
          waitS: 0,
          commit: () => {
            steady = true;
            ibrSafety = IBR_START;
            placeholderS = placeholder;
          },
        };
      }
      let level = levelForBuffer(bufferS + placeholder);
      const sustained = levelForThroughput(manifest, tput, latencyMs);
      if (level > lastLevel && level > sustained) level = Math.max(lastLevel, sustained);
      // Above the level's highest buffer BOLA waits; the placeholder is spent first, real buffer after.
      let waitS = Math.max(0, bufferS + placeholder - maxBufferFor(level));
      const spent = Math.min(waitS, placeholder);
      placeholder -= spent;
      waitS -= spent;
      if (level === top) waitS = 0;
      const safeKbits = ibrSafety * (bufferS - latencyMs / 1000) * tput;
      for (let q = 0; q < level; q++) {
        if (kbps[q + 1]! * manifest.segmentS > safeKbits) {
          level = q;
          waitS = 0;
          placeholder = Math.min(placeholder, Math.max(0, minBufferFor(q) - bufferS));
          break;
        }
      }
      return {
        level,
        waitS,
        commit: () => {
          placeholderS = placeholder;
          ibrSafety = Math.max(IBR_FLOOR, ibrSafety * IBR_START);
        },
      };
    },
    abandon(view, p) {
      const remain = p.bitsTotal - p.bitsLoaded;
      if (p.bitsLoaded <= 0 || remain <= 0 || p.firstByteMs === undefined || view.nowMs <= p.firstByteMs) return -1;
      // A restart pays another latency: weigh the buffer and the bits left as they will be after it.
      const ttfbMs = p.firstByteMs - p.startMs;
      const buffer = Math.max(0, view.bufferS + placeholderS - ttfbMs / 1000);
      const bitsPerMs = p.bitsLoaded / (view.nowMs - p.firstByteMs);
      const left = remain - ttfbMs * bitsPerMs;
      if (left <= 0) return -1;
      let to = -1;
      let score = (vp * (gp + utility[p.level]!) - buffer) / left;
      for (let q = 0; q < p.level; q++) {
        const size = (p.bitsTotal * kbps[q]!) / kbps[p.level]!;
        const s = (vp * (gp + utility[q]!) - buffer) / size;
        // Only a segment smaller than what is left: otherwise going on is the quicker way to a segment.
        if (size < left && s > score) {
          score = s;
          to = q;
        }
      }
      return to;
    },
    onDownload(view, level, abandonedTo, downloadMs) {
      lastLevel = level;
      const bufferS = view.bufferS;
      if (abandonedTo === undefined) {
        // The placeholder may not lift the buffer past the level's range, nor (unless stalled) leave it under.
        const bufferWas = bufferS + downloadMs / 1000;
        placeholderS = Math.min(placeholderS, Math.max(0, maxBufferFor(level) - bufferWas));
        if (bufferS > 0) placeholderS = Math.max(placeholderS, minBufferFor(level) - bufferWas);
      } else {
        // An abandon means the placeholder promised too much: down to what the new level needs.
        const want = abandonedTo > 0 ? minBufferFor(abandonedTo) : MIN_BUFFER_S;
        placeholderS = Math.min(placeholderS, Math.max(0, want - bufferS));
      }
    },
    onSeek() {
      steady = false;
    },
  };
}

/** Per request: the Sabre engine's full-buffer wait (a segment is asked only when it fits), then the rule's. */
export interface Planned {
  index: number;
  level: number;
  targetS: number;
  commit(): void;
}

/** What the engine waits for before a request: the segment must fit under Sabre's buffer. */
export function fullBufferWait(view: SimView): { bufferS: number; waitedS: number } {
  const capS = Math.max(0, SABRE_BUFFER_S - view.manifest.segmentS);
  const waitedS = Math.max(0, view.bufferS - capS);
  return { bufferS: view.bufferS - waitedS, waitedS };
}

/** Glue shared by BOLA-E and DYNAMIC: a plan per segment, made when the engine first asks for the target. */
export function planned(plan: (view: SimView) => Planned): Pick<SimPolicy, 'choose' | 'bufferTargetS'> & { reset(): void } {
  let current: Planned | undefined;
  const get = (view: SimView) => (current && current.index === view.index ? current : (current = plan(view)));
  return {
    bufferTargetS: (view) => get(view).targetS,
    choose(view) {
      const p = get(view);
      current = undefined;
      p.commit();
      return p.level;
    },
    reset: () => void (current = undefined),
  };
}

export const bolaE: PolicyFactory = (manifest) => {
  const estimate = createEstimate(manifest.segmentS);
  const bola = createBolaCore(manifest, estimate);
  let abandonedTo: number | undefined;
  const glue = planned((view) => {
    // Sabre asks the rule from the second segment on; the first is the lowest level.
    if (view.index === 0 && view.lastLevel < 0) return { index: view.index, level: 0, targetS: Infinity, commit: () => {} };
    const { bufferS, waitedS } = fullBufferWait(view);
    const p = bola.plan(bufferS, waitedS);
    return { index: view.index, level: p.level, targetS: bufferS - p.waitS, commit: p.commit };
  });
  return {
    choose: glue.choose,
    bufferTargetS: glue.bufferTargetS,
    abandon(view, progress) {
      // Sabre never abandons the first segment: nothing is buffered to weigh it against.
      if (view.lastLevel < 0) return -1;
      const to = bola.abandon(view, progress);
      if (to >= 0) abandonedTo = to;
      return to;
    },
    onDownload(view, d) {
      // A failed request tells nothing; one dropped by a seek is followed by a new start (onSeek).
      if (d.failed || (d.abandoned && abandonedTo === undefined)) return;
      bola.onDownload(view, d.level, d.abandoned ? abandonedTo : undefined, d.endMs - d.startMs);
      if (!d.abandoned && d.endMs > d.firstByteMs) estimate.push(d.endMs - d.firstByteMs, d.bits / (d.endMs - d.firstByteMs), d.firstByteMs - d.startMs);
      if (d.abandoned) abandonedTo = undefined;
    },
    onSeek() {
      bola.onSeek();
      glue.reset();
    },
  };
};
