/** hls.js's measure: a period in which more than this share of the frames was dropped. */
const DROP_SHARE = 0.2;
const PERIOD_MS = 5000;

/**
 * Every period, the frames the element dropped and decoded since the last look; a period that dropped
 * more than a fifth is reported (analytics' fps_drop). Only reported: hls.js's own watch also caps the
 * level for the rest of the session, and a moment of load (another tab, a busy 2-core machine) is
 * not a device that cannot decode: capped, a film would stay at a low level with a minute buffered.
 */
export function watchFrameDrops(
  video: Pick<HTMLVideoElement, 'getVideoPlaybackQuality'>,
  report: (dropped: number, decoded: number) => void,
  periodMs = PERIOD_MS,
): () => void {
  if (typeof video.getVideoPlaybackQuality !== 'function') return () => {};
  let last = video.getVideoPlaybackQuality();
  const timer = setInterval(() => {
    const now = video.getVideoPlaybackQuality();
    const dropped = now.droppedVideoFrames - last.droppedVideoFrames;
    const decoded = now.totalVideoFrames - last.totalVideoFrames;
    last = now;
    if (decoded > 0 && dropped > DROP_SHARE * decoded) report(dropped, decoded);
  }, periodMs);
  return () => clearInterval(timer);
}
