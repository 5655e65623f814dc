import type { Decision } from '../playback/decisions';
import { createStartWatch } from '../playback/element';
import { everyOnTime } from './on-time';

/** How often the element is looked at: the rule's time is the policy's (TUNING.stuckStartMs), this is only how finely it is seen. */
const CHECK_MS = 500;
/** HTMLMediaElement.HAVE_CURRENT_DATA (a frame to show), spelled out: the watch takes any element-like object. */
const HAVE_CURRENT_DATA = 2;

/**
 * The element sampled for the policy's stuck-start rule (src/playback/element.ts): asked to play,
 * `bufferedAhead()` seconds ahead, a frame or not, every CHECK_MS. `decide` gets the 'stuck' decision
 * (for the bus) and `stuck` is then called, once; the returned function stops the watch (call it at the
 * first frame).
 */
export function watchStuckStart(
  video: Pick<HTMLMediaElement, 'paused' | 'readyState'>,
  bufferedAhead: () => number,
  decide: (d: Decision) => void,
  stuck: () => void,
  checkMs = CHECK_MS,
): () => void {
  const rule = createStartWatch(decide);
  // A sample late after the page could not run is not taken: the frame it would miss is still queued.
  const stop = everyOnTime(() => {
    if (!rule.sample({ t: performance.now(), asked: !video.paused, frame: video.readyState >= HAVE_CURRENT_DATA, aheadS: bufferedAhead() })) return;
    stop();
    stuck();
  }, checkMs);
  return stop;
}
