// The player's own policy (src/playback/), the same code the browser runs, driven by the simulator.
import type { Decision } from '../../src/playback/decisions';
import { createPolicy } from '../../src/playback/policy';
import type { Tuning } from '../../src/playback/tuning';
import { declaredRates } from '../manifest';
import type { PolicyFactory } from '../types';

/** The policy with other tuning, and a listener for its decisions (scenario tests, `--decisions`). */
export function playerWith(options: { tuning?: Partial<Tuning>; estimateKbps?: number; emit?: (d: Decision) => void } = {}): PolicyFactory {
  return (manifest) => {
    const policy = createPolicy({ kbps: declaredRates(manifest).averageKbps, segmentS: manifest.segmentS, ...options });
    // The simulator reports bits so far; the policy wants when the last of them came.
    let flight = { index: -1, level: -1, startMs: -1, bits: 0, totalBits: 0, lastByteMs: 0 };
    return {
      choose: (view) => policy.level({ t: view.nowMs, bufferS: view.bufferS, lastLevel: view.lastLevel }),
      bufferTargetS: (view) => policy.forwardS(Math.max(0, view.lastLevel)),
      abandon(view, p) {
        if (p.index !== flight.index || p.level !== flight.level || p.startMs !== flight.startMs) {
          flight = { index: p.index, level: p.level, startMs: p.startMs, bits: 0, totalBits: p.bitsTotal, lastByteMs: p.startMs };
        }
        if (p.bitsLoaded > flight.bits) flight = { ...flight, bits: p.bitsLoaded, lastByteMs: view.nowMs };
        return policy.abandon({
          t: view.nowMs,
          level: p.level,
          bitsLoaded: p.bitsLoaded,
          bitsTotal: p.bitsTotal,
          requestT: p.startMs,
          lastByteT: flight.lastByteMs,
          bufferS: view.bufferS,
        });
      },
      mayPlay(view) {
        // What the request in flight still lacks, as the browser's hold sees it (its rate: the estimate's).
        const leftBits = flight.index === view.index ? Math.max(0, flight.totalBits - flight.bits) : undefined;
        const play = policy.mayPlay({ t: view.nowMs, bufferS: view.bufferS, leftBits });
        if (play) policy.media({ t: view.nowMs, event: 'playing' });
        return play;
      },
      onDownload(view, d) {
        if (d.failed) policy.failed({ t: view.nowMs, level: d.level });
        else if (!d.abandoned) policy.loaded({ t: view.nowMs, level: d.level, bits: d.bits, requestT: d.startMs, firstByteT: d.firstByteMs, endT: d.endMs });
      },
      onStall: (view) => policy.media({ t: view.nowMs, event: 'stall' }),
      onSeek: (view) => policy.media({ t: view.nowMs, event: 'seeking' }),
    };
  };
}

export const player: PolicyFactory = playerWith();
