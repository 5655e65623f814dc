// What a session is worth (sim/types.ts Metrics): the played seconds tallied as the playhead moves,
// then the linear QoE and the rest, and the mean over traces.
import type { Metrics } from './types';

/** The stall weight: a second waited costs 4.3 Mb/s of a second played. */
const STALL_WEIGHT = 4.3;

/** The played content, segment by segment as the playhead crosses it. */
export interface Tally {
  /** `s` seconds of buffered segment `id` (at `level`) played. */
  play(id: number, level: number, s: number): void;
  readonly playedS: number;
  /** Σ seconds × kb/s of what was played. */
  readonly kbpsS: number;
  readonly switches: number;
  /** Σ |Δ Mb/s| between consecutive played segments. */
  readonly switchMbps: number;
}

export function createTally(bitratesKbps: number[]): Tally {
  let playedS = 0;
  let kbpsS = 0;
  let switches = 0;
  let switchMbps = 0;
  let lastId = -1;
  let lastLevel = -1;
  return {
    play(id, level, s) {
      if (s <= 0) return;
      if (id !== lastId) {
        if (lastLevel >= 0 && level !== lastLevel) {
          switches += 1;
          switchMbps += Math.abs(bitratesKbps[level]! - bitratesKbps[lastLevel]!) / 1000;
        }
        lastId = id;
        lastLevel = level;
      }
      playedS += s;
      kbpsS += s * bitratesKbps[level]!;
    },
    get playedS() {
      return playedS;
    },
    get kbpsS() {
      return kbpsS;
    },
    get switches() {
      return switches;
    },
    get switchMbps() {
      return switchMbps;
    },
  };
}

export interface SessionTotals {
  tally: Tally;
  stallS: number;
  stalls: number;
  startupS: number;
  unplayedBits: number;
  /** The session ended in failure: the content not played counts as stalled, over the whole session. */
  failed: boolean;
  /** Content seconds the viewer meant to watch. */
  seconds: number;
}

export function metricsOf(s: SessionTotals): Metrics {
  const { tally } = s;
  const missedS = s.failed ? Math.max(0, s.seconds - tally.playedS) : 0;
  const contentS = s.failed ? Math.max(s.seconds, tally.playedS) : tally.playedS;
  const waitS = s.stallS + s.startupS + missedS;
  const qoe = contentS > 0 ? (tally.kbpsS / 1000 - STALL_WEIGHT * waitS - tally.switchMbps) / contentS : -STALL_WEIGHT * waitS;
  return {
    qoe,
    rebufferRatio: s.stallS + tally.playedS > 0 ? s.stallS / (s.stallS + tally.playedS) : 0,
    stalls: s.stalls,
    stallS: s.stallS,
    startupS: s.startupS,
    kbps: tally.playedS > 0 ? tally.kbpsS / tally.playedS : 0,
    switches: tally.switches,
    unplayedMB: s.unplayedBits / 8 / 1e6,
  };
}

export const METRIC_KEYS = ['qoe', 'rebufferRatio', 'stalls', 'stallS', 'startupS', 'kbps', 'switches', 'unplayedMB'] as const;

/** The plain mean of every field (each trace weighs the same, as in the papers' per-class figures). */
export function meanMetrics(list: Metrics[]): Metrics {
  const mean = Object.fromEntries(METRIC_KEYS.map((k) => [k, 0])) as unknown as Metrics;
  if (list.length === 0) return mean;
  for (const m of list) for (const k of METRIC_KEYS) mean[k] += m[k] / list.length;
  return mean;
}
