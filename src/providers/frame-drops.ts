import { createDropWatch, type Drops } from '../playback/element';
import { TUNING } from '../playback/tuning';

/**
 * The element's frame counters sampled every period for the policy's frame-drop rule
 * (src/playback/element.ts); `report` gets each 'drops' decision (analytics' fps_drop). Only
 * reported: hls.js's own watch also caps the level for the rest of the session, and a moment of load
 * (another tab, a busy 2-core machine) is not a device that cannot decode: capped, a film would stay
 * at a low level with a minute buffered.
 */
export function watchFrameDrops(
  video: Pick<HTMLVideoElement, 'getVideoPlaybackQuality'>,
  report: (d: Drops) => void,
  periodMs = TUNING.dropPeriodMs,
): () => void {
  if (typeof video.getVideoPlaybackQuality !== 'function') return () => {};
  const rule = createDropWatch(report);
  const look = () => {
    const q = video.getVideoPlaybackQuality();
    rule.sample({ t: performance.now(), dropped: q.droppedVideoFrames, decoded: q.totalVideoFrames });
  };
  look();
  const timer = setInterval(look, periodMs);
  return () => clearInterval(timer);
}
