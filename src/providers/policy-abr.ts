import { ErrorDetails, type AbrController, type Fragment } from 'hls.js';
import type { Bus } from '../core/bus';
import { IDLE_MS } from '../playback/deadlines';
import { createPolicy, type Policy } from '../playback/policy';
import { abandonFragment, abrSlot, reconfigure } from './hls-internals';
import { loadPolicies } from './hls-load-policy';
import { everyOnTime } from './on-time';

/** The seconds buffered ahead of the playhead. */
export function ahead(media: Pick<HTMLMediaElement, 'buffered' | 'currentTime'> | null): number {
  if (!media) return 0;
  const b = media.buffered;
  for (let i = 0; i < b.length; i++) {
    if (b.start(i) <= media.currentTime + 0.5 && b.end(i) > media.currentTime) return b.end(i) - media.currentTime;
  }
  return 0;
}

/** Where the engine finds the policy of its current hls.js instance (undefined until its levels are known): the hold after a stall asks it too. */
export interface PolicySlot {
  current?: () => Policy | undefined;
}

/** HTMLMediaElement.HAVE_CURRENT_DATA: the element has a frame. */
const HAVE_CURRENT_DATA = 2;

/** How often a main fragment in flight is weighed for abandoning (the policy's rule needs a rate, not a tick). */
const CHECK_MS = 500;

const PLAYLIST_ERRORS: readonly string[] = [ErrorDetails.LEVEL_LOAD_ERROR, ErrorDetails.LEVEL_PARSING_ERROR, ErrorDetails.FRAG_LOAD_ERROR];

/**
 * hls.js's ABR slot, filled by the playback policy (src/playback/policy.ts): the next level, the forward
 * buffer, abandoning a fragment and the loads' retries are the policy's; hls.js's own choice and its own abandon rule are
 * off (hls-internals.ts `abrSlot`), so one rule judges each fragment. Its bandwidth estimator still
 * runs: `hls.bandwidthEstimate` is what analytics and the hold read. Each decision goes to the bus as
 * `playback:decision`.
 */
export function policyAbr(bus: Bus, estimateBps: number | undefined, slot: PolicySlot): typeof AbrController {
  return abrSlot((hls, sample) => {
    let policy: Policy | undefined;
    let unwatch = () => {};
    let gone = false;
    /** A level set from outside (hls.js after an error, our abandon), taken once for the next fragment. */
    let forced = -1;

    const ready = (): Policy | undefined => {
      if (policy || gone || !hls.levels.length) return policy;
      const kbps = hls.levels.map((l) => (l.averageBitrate || l.bitrate) / 1000);
      const segmentS = hls.levels.find((l) => l.details)?.details?.targetduration ?? 4;
      policy = createPolicy({
        kbps,
        segmentS,
        ...(estimateBps && { estimateKbps: estimateBps / 1000 }),
        emit: (decision) => {
          // The retries the policy switched to are the next requests' (the loaders read them at each).
          if (decision.kind === 'retries') reconfigure(hls, loadPolicies(decision.retries));
          bus.emit('playback:decision', decision);
        },
      });
      // Made after the first frame (the early start's, in before hls.js had its levels): told it now.
      if ((hls.media?.readyState ?? 0) >= HAVE_CURRENT_DATA) policy.media({ t: performance.now(), event: 'frame' });
      return policy;
    };

    /**
     * The policy's abandon rule on a main fragment still arriving: a lower level instead when it will not
     * land before the buffer runs out. It is weighed through a trickle's gaps, as the simulator weighs it;
     * a request silent for IDLE_MS is the watched loader's (watched-loader.ts), which times it out and
     * lets hls.js retry it at the level the policy's `timedOut` gives (onError).
     */
    const weigh = (frag: Fragment, lastByteT: number) => {
      const stats = frag.stats;
      if (!policy || stats.aborted || stats.loading.end) return unwatch();
      const t = performance.now();
      if (!hls.autoLevelEnabled || !hls.media || hls.media.paused || !stats.loading.first || t - lastByteT >= IDLE_MS) return;
      const level = policy.abandon({
        t,
        level: frag.level,
        bitsLoaded: 8 * stats.loaded,
        bitsTotal: 8 * stats.total,
        requestT: stats.loading.start,
        lastByteT,
        bufferS: ahead(hls.media),
      });
      if (typeof level !== 'number' || level < hls.minAutoLevel || level >= frag.level) return;
      unwatch();
      // As hls.js's own abandon: the rate measured so far is the estimate the next choice starts from.
      sample(t - stats.loading.start, stats.loaded);
      hls.nextLoadLevel = hls.nextAutoLevel = level;
      abandonFragment(hls, frag);
    };

    // hls.js sizes the buffer as max(maxBufferLength, maxBufferSize at the level's rate): without the
    // size, maxBufferLength (the policy's) is the target; maxMaxBufferLength stays hls.js's to halve
    // when the browser's quota is reached.
    reconfigure(hls, { maxBufferSize: 0 });
    slot.current = ready;

    return {
      nextAutoLevel(own) {
        const p = ready();
        if (!p || gone) return own();
        if (forced >= 0) return forced;
        const level = p.level({
          t: performance.now(),
          bufferS: ahead(hls.media),
          lastLevel: hls.loadLevel,
          min: hls.minAutoLevel,
          max: hls.maxAutoLevel,
        });
        // hls.js asks for the next level, then reads its buffer target from the config at its next tick.
        reconfigure(hls, { maxBufferLength: p.forwardS(level) });
        return level;
      },
      forcedAutoLevel(level) {
        forced = level;
      },
      onFragLoading({ frag, part }) {
        // hls.js tells every load: an audio fragment or an init segment loads beside the main fragment
        // watched, and must not end its watch (else a fragment asked before the next audio one is never
        // judged again, however slowly it arrives).
        if (frag.type !== 'main' || frag.sn === 'initSegment' || frag.bitrateTest || part) return;
        unwatch();
        forced = -1;
        let bytes = 0;
        let lastByteT = performance.now();
        // Not at a tick late after the page could not run: its bytes are still queued, and the rate
        // over that time would be the page's, not the link's.
        unwatch = everyOnTime(() => {
          const stats = frag.stats;
          if (stats.loaded > bytes) [bytes, lastByteT] = [stats.loaded, performance.now()];
          weigh(frag, lastByteT);
        }, CHECK_MS);
      },
      onFragLoaded({ frag, part }) {
        if (frag.type !== 'main' || part || frag.bitrateTest) return;
        unwatch();
        const { loaded, loading } = frag.stats;
        ready()?.loaded({ t: performance.now(), level: frag.level, bits: 8 * loaded, requestT: loading.start, firstByteT: loading.first, endT: loading.end });
      },
      onError(data) {
        // A fragment the watched loader timed out is asked again where the policy says (the lowest
        // level), not at the level the plan would choose from an estimate the silence never reached.
        const p = ready();
        if (p && data.details === ErrorDetails.FRAG_LOAD_TIMEOUT && data.frag?.type === 'main' && hls.autoLevelEnabled) {
          forced = p.timedOut({ t: performance.now(), level: data.frag.level });
        }
        // A playlist's error names its level in the request's context, not in `level`.
        const level = data.frag?.type === 'main' ? data.frag.level : (data.level ?? data.context?.level);
        // An HTTP answer, not a slow link: the rendition is avoided while it fails.
        if (PLAYLIST_ERRORS.includes(data.details) && data.response && typeof level === 'number') ready()?.failed({ t: performance.now(), level });
      },
      destroy() {
        gone = true;
        unwatch();
      },
    };
  });
}
