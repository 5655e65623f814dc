/**
 * WebKit (WebKitGTK under load: about one journey in thirty of the engines stage) may keep an element
 * at HAVE_METADATA with the start in its SourceBuffers: asked to play, it waits and never shows a
 * frame, and the watchdog's start timeout ends it in the error screen 15 s later. Asked to play for
 * STUCK_START_MS with STUCK_AHEAD_S buffered ahead and still no frame, the start is stuck.
 */
const STUCK_START_MS = 3000;
const STUCK_AHEAD_S = 1;
const CHECK_MS = 500;
/** HTMLMediaElement.HAVE_CURRENT_DATA (a frame to show), spelled out: the watch takes any element-like object. */
const HAVE_CURRENT_DATA = 2;

/**
 * Calls `stuck` once when the element has been asked to play, with `bufferedAhead()` seconds ahead,
 * and no frame for `stuckMs` running; the returned function stops the watch (call it at the first frame).
 */
export function watchStuckStart(
  video: Pick<HTMLMediaElement, 'paused' | 'readyState'>,
  bufferedAhead: () => number,
  stuck: () => void,
  stuckMs = STUCK_START_MS,
  checkMs = CHECK_MS,
): () => void {
  let since = 0;
  const timer = setInterval(() => {
    const waiting = !video.paused && video.readyState < HAVE_CURRENT_DATA && bufferedAhead() >= STUCK_AHEAD_S;
    since = waiting ? since + checkMs : 0;
    if (since < stuckMs) return;
    clearInterval(timer);
    stuck();
  }, checkMs);
  return () => clearInterval(timer);
}
