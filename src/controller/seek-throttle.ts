/** SPEC §9 player default: seek request throttle. */
export const SEEK_THROTTLE_MS = 100;

/**
 * A held arrow key or a dragged media-session scrubber asks for dozens of seeks a second: the first
 * goes at once, the last one of each 100 ms follows, and relative seeks add up from the target still
 * pending so no key press is lost.
 */
export function createSeekThrottle(seek: (to: number) => void, now: () => number = () => performance.now()) {
  let target: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastAt = -Infinity;
  const flush = () => {
    timer = undefined;
    lastAt = now();
    const to = target;
    target = undefined;
    if (to !== undefined) seek(to);
  };
  const request = (to: number) => {
    if (!Number.isFinite(to)) return;
    target = to;
    const wait = lastAt + SEEK_THROTTLE_MS - now();
    if (wait <= 0) flush();
    else timer ??= setTimeout(flush, wait);
  };
  return {
    request,
    by: (delta: number, current: number) => request((target ?? current) + delta),
    /** A seek still waiting for its turn belonged to the old source; the next one goes at once. */
    cancel(): void {
      clearTimeout(timer);
      timer = undefined;
      target = undefined;
    },
    dispose: () => clearTimeout(timer),
  };
}
