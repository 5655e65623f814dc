/** SPEC §9: progress is saved at most once every 10 s. */
export const SAVE_INTERVAL_MS = 10_000;

/** A gate that opens at most once per interval: call it on every tick, act when it returns true. */
export function createThrottle(intervalMs: number, now: () => number = Date.now): () => boolean {
  let last = -Infinity;
  return () => {
    const t = now();
    if (t - last < intervalMs) return false;
    last = t;
    return true;
  };
}
