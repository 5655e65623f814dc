import { lateTicks } from '../core/deadline';

/**
 * `judge` every `periodMs` on the page's clock, except at a tick that runs late after the page could
 * not run (src/core/deadline.ts `lateTicks`). Returns the stop.
 */
export function everyOnTime(judge: () => void, periodMs: number): () => void {
  const late = lateTicks(periodMs);
  late(performance.now());
  const timer = setInterval(() => late(performance.now()) || judge(), periodMs);
  return () => clearInterval(timer);
}
