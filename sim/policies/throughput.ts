// The classic rate-based rule, the baseline of the ABR literature ("RB" in Yin et al., "A Control-Theoretic
// Approach for Dynamic Adaptive Video Streaming over HTTP", SIGCOMM 2015, and in Mao et al., Pensieve,
// SIGCOMM 2017): the highest level whose bitrate is below a safety share of the harmonic mean of the last
// few throughputs. No buffer rule, no abandon.
import type { PolicyFactory } from '../types';

/** Throughputs averaged: the last five requests' (Yin et al.). */
const SAMPLES = 5;
/** The share of the predicted throughput a level may use (the usual 0.9 of rate-based rules). */
const SAFETY = 0.9;
/** The forward buffer, s: a player's usual 30 s (hls.js's maxBufferLength). */
const BUFFER_S = 30;

export const throughput: PolicyFactory = (manifest) => {
  const kbps = manifest.bitratesKbps;
  /** kb/s of the last requests, oldest first. */
  const samples: number[] = [];
  return {
    choose() {
      // Nothing measured yet: the lowest level, as the rule has no other guess.
      if (samples.length === 0) return 0;
      // The harmonic mean weighs slow samples most, so one fast burst does not lift the level.
      const mean = samples.length / samples.reduce((sum, s) => sum + 1 / s, 0);
      let level = 0;
      for (let l = 1; l < kbps.length; l++) if (kbps[l]! <= SAFETY * mean) level = l;
      return level;
    },
    bufferTargetS: () => BUFFER_S,
    onDownload(_view, d) {
      if (d.failed || d.abandoned || d.bits <= 0) return;
      // The whole request, latency included: what a player measures of a fetch (bits per ms = kb/s).
      const ms = d.endMs - d.startMs;
      if (!(ms > 0)) return;
      samples.push(d.bits / ms);
      if (samples.length > SAMPLES) samples.shift();
    },
  };
};
