// hls.js 1.7.4's default ABR, as its docs (docs/API.md) and its AbrController describe it, rewritten for
// the simulator:
// - the estimate: two EWMAs of throughput (half-lives abrEwmaFastVoD 3 and abrEwmaSlowVoD 9, in seconds of
//   download), each sample weighted by its download time, the lower of the two taken; abrEwmaDefaultEstimate
//   (500 kb/s) until the first sample; the first byte's wait is estimated apart and left out of samples;
// - the first level: the highest one the default estimate covers, within maxStarvationDelay (4 s);
// - the next level: the highest one that fits abrBandWidthFactor (0.95) of the estimate, abrBandWidthUpFactor
//   (0.7) to go up, and loads before the buffer runs out; if none does, the highest that stalls less than
//   min(segment, maxStarvationDelay 4 s);
// - the emergency abandon: from half a segment's time into a request, when the rest of it will take longer
//   than the buffer ahead and a lower level (the highest that loads in time, level 0 at worst) would be
//   in sooner, the request is restarted there; the estimate is reset to that level's bitrate when it was
//   more than 1 ÷ 0.7 times it; level 0's requests are never abandoned, nor, as hls.js's search stops
//   above level 0, level 1's;
// - the forward buffer: maxBufferLength (30 s) or what maxBufferSize (60 MB) holds at the level asked,
//   whichever is longer, at most maxMaxBufferLength (600 s).
// hls.js prices a level as the master declares it (sim/manifest.ts declaredRates): at its BANDWIDTH, the
// peak segment's rate (its maxBitrate), for the first level, the emergency abandon and the forward
// buffer, and for the next level unless two segments are buffered and no stall is allowed, where it
// takes AVERAGE-BANDWIDTH. A level's playlist costs one first-byte wait the first time the level is
// asked (hls.js counts it for levels not loaded yet).
import { declaredRates } from '../manifest';
import type { Manifest, PolicyFactory } from '../types';

const FAST_HALF_LIFE_S = 3; // abrEwmaFastVoD
const SLOW_HALF_LIFE_S = 9; // abrEwmaSlowVoD
const DEFAULT_ESTIMATE_BPS = 500_000; // abrEwmaDefaultEstimate
const DEFAULT_TTFB_MS = 100; // the TTFB estimate before any sample
const BW_FACTOR = 0.95; // abrBandWidthFactor
const BW_UP_FACTOR = 0.7; // abrBandWidthUpFactor
const MAX_STARVATION_S = 4; // maxStarvationDelay
const MAX_BUFFER_S = 30; // maxBufferLength
const MAX_BUFFER_BYTES = 60 * 1000 * 1000; // maxBufferSize
const MAX_MAX_BUFFER_S = 600; // maxMaxBufferLength
/** An EWMA counts once its samples weigh this much (hls.js's minWeight_). */
const MIN_WEIGHT = 0.001;
/** The shortest duration a sample is given, ms: hls.js's minDelayMs_ (at most bytes ÷ 100000). */
const MIN_DELAY_MS = 50;

/** hls.js's EWMA: a sample of weight w moves the estimate by 1 − α^w; the estimate is unbiased by 1 − α^Σw. */
interface Ewma {
  sample(weight: number, value: number): void;
  weight(): number;
  estimate(): number;
}

function ewma(halfLife: number): Ewma {
  const alpha = Math.exp(Math.log(0.5) / halfLife);
  let estimate = 0;
  let total = 0;
  return {
    sample(weight, value) {
      const a = alpha ** weight;
      estimate = value * (1 - a) + a * estimate;
      total += weight;
    },
    weight: () => total,
    estimate: () => (1 - alpha ** total ? estimate / (1 - alpha ** total) : estimate),
  };
}

/**
 * The bandwidth estimator: the lower of a fast and a slow EWMA, a default until the first sample; and the
 * first byte's wait, an EWMA with the slow half-life whose samples weigh √2·e^(−s²/2) (long waits count less).
 */
function estimator(defaultBps: number) {
  const fast = ewma(FAST_HALF_LIFE_S);
  const slow = ewma(SLOW_HALF_LIFE_S);
  const ttfb = ewma(SLOW_HALF_LIFE_S);
  return {
    /** A download of `bits` over `durationMs` (its first byte's wait left out). */
    sample(durationMs: number, bits: number) {
      if (bits <= 0) return;
      const seconds = Math.max(durationMs, Math.min(MIN_DELAY_MS, bits / 8 / 100000)) / 1000;
      fast.sample(seconds, bits / seconds);
      slow.sample(seconds, bits / seconds);
    },
    sampleTtfb: (ms: number) => ttfb.sample(Math.SQRT2 * Math.exp(-((ms / 1000) ** 2) / 2), Math.max(ms, 5)),
    canEstimate: () => fast.weight() >= MIN_WEIGHT,
    bps: () => (fast.weight() >= MIN_WEIGHT ? Math.min(fast.estimate(), slow.estimate()) : defaultBps),
    ttfbMs: () => (ttfb.weight() >= MIN_WEIGHT ? ttfb.estimate() : DEFAULT_TTFB_MS),
  };
}

export function createHlsjs(manifest: Manifest) {
  const declared = declaredRates(manifest);
  const bps = declared.averageKbps.map((k) => k * 1000);
  const peak = declared.peakKbps.map((k) => k * 1000);
  const top = bps.length - 1;
  const segS = manifest.segmentS;
  let bw = estimator(DEFAULT_ESTIMATE_BPS);
  const ttfbMs = () => bw.ttfbMs();
  /** Levels whose playlist hls.js has loaded (it asks a level's playlist when it first switches to it). */
  const known = new Set<number>();
  let lastLoaded = -1;

  /** Seconds to fetch a segment of `bits` at `bwBps`, a playlist first for a level not loaded yet. */
  const fetchS = (bits: number, bwBps: number, level: number) => ttfbMs() / 1000 + bits / bwBps + (known.has(level) ? 0 : ttfbMs() / 1000);

  /** hls.js's findBestLevel: from the top down, the first level that fits the bandwidth and the time. */
  const findBest = (bwBps: number, maxLevel: number, starvationS: number, maxStarvationS: number, factor: number, upFactor: number, first: boolean) => {
    const maxFetchS = starvationS + maxStarvationS;
    const base = lastLoaded === -1 ? 0 : lastLoaded;
    const ttfbS = ttfbMs() / 1000;
    // The mean only with a fragment in hand, two of them buffered and no stall allowed; else the peak.
    const rates = !first && starvationS >= 2 * segS && maxStarvationS === 0 ? bps : peak;
    for (let i = maxLevel; i >= 0; i--) {
      const adjusted = (i > base ? upFactor : factor) * bwBps;
      // A level's segment duration comes from its playlist, else the fragment in hand, else 1 s.
      const durationS = known.has(i) || !first ? segS : 1;
      const fetch = fetchS(rates[i]! * durationS, adjusted, i);
      if (adjusted >= rates[i]! && (fetch <= ttfbS || !Number.isFinite(fetch) || fetch < maxFetchS)) return i;
    }
    return -1;
  };

  /** The level hls.js asks next with this much buffered (its nextAutoLevel; no side effects). */
  const nextLevel = (bufferS: number) => {
    if (lastLoaded === -1 || !bw.canEstimate()) {
      // firstAutoLevel: the estimate (at least level 0's bitrate on the very first pick), no margins.
      const first = lastLoaded === -1;
      const level = findBest(first ? Math.max(bw.bps(), bps[0]!) : bw.bps(), top, bufferS / 2, MAX_STARVATION_S, 1, 1, first);
      return level > -1 ? level : 0;
    }
    if (bufferS > 0) {
      const level = findBest(bw.bps(), top, bufferS, 0, BW_FACTOR, BW_UP_FACTOR, false);
      if (level >= 0) return level;
    }
    const level = findBest(bw.bps(), top, bufferS, Math.min(segS, MAX_STARVATION_S), BW_FACTOR, BW_UP_FACTOR, false);
    // No level stalls less than that: the lowest (hls.js keeps the current one only when it is the lowest).
    return Math.max(level, 0);
  };

  return {
    nextLevel,
    estimateBps: () => bw.bps(),
    ttfbMs,
    /** The forward buffer hls.js keeps when it is about to ask `level`. */
    bufferTargetS: (level: number) => Math.min(Math.max((8 * MAX_BUFFER_BYTES) / peak[level]!, MAX_BUFFER_S), MAX_MAX_BUFFER_S),
    asked: (level: number) => void known.add(level),
    loaded(level: number, startMs: number, firstByteMs: number, endMs: number, bits: number) {
      // FRAG_LOADED samples the first byte's wait, then FRAG_BUFFERED the bandwidth with that wait left out.
      bw.sampleTtfb(firstByteMs - startMs);
      bw.sample(endMs - startMs - Math.min(firstByteMs - startMs, ttfbMs()), bits);
      lastLoaded = level;
    },
    /** The emergency abandon: the level to restart at, or -1. */
    emergency(nowMs: number, bufferS: number, level: number, startMs: number, firstByteMs: number | undefined, bitsLoaded: number) {
      if (level <= 0) return -1;
      const loadingMs = nowMs - startMs;
      const ttfbEstimate = ttfbMs();
      if (loadingMs <= Math.max(ttfbEstimate, (1000 * segS) / 2)) return -1;
      const firstByte = firstByteMs !== undefined && bitsLoaded > 0;
      const ttfbSeen = firstByteMs !== undefined ? firstByteMs - startMs : -1;
      const estimate = bw.bps();
      const expected = Math.max(bitsLoaded, segS * bps[level]!);
      let streamingMs = firstByte ? loadingMs - ttfbSeen : loadingMs;
      if (streamingMs < 1 && firstByte) streamingMs = Math.min(loadingMs, bitsLoaded / estimate);
      const rate = firstByte ? (bitsLoaded * 1000) / streamingMs : 0;
      const ttfbS = ttfbEstimate / 1000;
      const restS = rate ? (expected - bitsLoaded) / rate : expected / estimate + ttfbS;
      if (restS <= bufferS) return -1;
      const bwe = rate || estimate;
      let next = level - 1;
      let nextS = Infinity;
      for (; next > 0; next--) {
        nextS = fetchS(segS * peak[next]!, bwe, next);
        if (nextS < Math.min(bufferS, segS + ttfbS)) break;
      }
      if (nextS >= restS || nextS > segS * 10) return -1;
      if (firstByte) bw.sample(loadingMs - Math.min(ttfbEstimate, ttfbSeen), bitsLoaded);
      else bw.sampleTtfb(loadingMs);
      // A new estimator, the first byte's wait included, starting from the level switched to.
      if (bw.bps() * BW_UP_FACTOR > peak[next]!) bw = estimator(peak[next]!);
      const best = findBest(peak[next]!, next, 0, bufferS, 1, 1, false);
      return best > -1 ? best : next;
    },
  };
}

export const hlsjs: PolicyFactory = (manifest) => {
  const abr = createHlsjs(manifest);
  return {
    choose(view) {
      const level = abr.nextLevel(view.bufferS);
      abr.asked(level);
      return level;
    },
    // hls.js sizes the forward buffer for the level it is about to ask.
    bufferTargetS: (view) => abr.bufferTargetS(abr.nextLevel(view.bufferS)),
    abandon(view, p) {
      // hls.js weighs a request only once the media has something to play (readyState > 0).
      if (view.lastLevel < 0) return -1;
      const to = abr.emergency(view.nowMs, view.bufferS, p.level, p.startMs, p.firstByteMs, p.bitsLoaded);
      if (to >= 0) abr.asked(to);
      return to;
    },
    onDownload(_view, d) {
      if (d.failed || d.abandoned) return;
      abr.loaded(d.level, d.startMs, d.firstByteMs, d.endMs, d.bits);
    },
  };
};
