/**
 * How late a timer may run and still have run in a page that ran: one that comes later than this ran
 * after the page could not run (WebKitGTK's main thread stops for seconds while GStreamer tears a
 * source down), and it runs ahead of what arrived meanwhile (a fetch's bytes, the element's
 * 'loadeddata'), queued behind it. Such a timer judges nothing yet: it waits once more, and what came
 * first counts. Only once: a page slow all along is still judged.
 */
const LATE_MS = 1000;

/** `fire` after `ms`; a timer that runs late (LATE_MS past its time) waits LATE_MS more first. Returns the cancel. */
function expireAfter(ms: number, fire: () => void): () => void {
  const due = performance.now() + ms;
  let timer = setTimeout(() => {
    if (performance.now() - due > LATE_MS) timer = setTimeout(fire, LATE_MS);
    else fire();
  }, ms);
  return () => clearTimeout(timer);
}

/**
 * For a watch that ticks every `periodMs`: whether the tick at `now` is one that runs late (LATE_MS
 * past its time) after one that did not, and judges nothing; the next tick, a period on, does. The
 * first call judges (a watch judges when it begins).
 */
export function lateTicks(periodMs: number): (now: number) => boolean {
  let last = NaN;
  let skipped = false;
  return (now) => {
    skipped = !skipped && now - last > periodMs + LATE_MS;
    last = now;
    return skipped;
  };
}

/**
 * An abort signal that fires after `ms` (with a TimeoutError) or when `parent` aborts (with its
 * reason), whichever comes first: every network wait gets one (DESIGN "Every wait ends"). Call
 * `done()` when the wait is over so the timer does not outlive it.
 */
export function deadline(ms: number, parent?: AbortSignal): { signal: AbortSignal; done(): void } {
  const ctl = new AbortController();
  const cancel = expireAfter(ms, () => ctl.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')));
  const forward = () => ctl.abort(parent!.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener('abort', forward);
  return {
    signal: ctl.signal,
    done() {
      cancel();
      parent?.removeEventListener('abort', forward);
    },
  };
}

/**
 * A deadline that counts time without progress: every `progress()` (a byte arrived) starts the `ms`
 * again. A slow answer that keeps coming is waited for; a silent one is not. `parent` aborting aborts
 * it too (with its reason).
 */
export function idleDeadline(ms: number, parent?: AbortSignal): { signal: AbortSignal; progress(): void; done(): void } {
  const ctl = new AbortController();
  let cancel = () => {};
  const forward = () => ctl.abort(parent!.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener('abort', forward);
  const done = () => {
    cancel();
    parent?.removeEventListener('abort', forward);
  };
  const progress = () => {
    cancel();
    cancel = expireAfter(ms, () => ctl.abort(new DOMException(`no byte within ${ms} ms`, 'TimeoutError')));
  };
  progress();
  return { signal: ctl.signal, progress, done };
}

/**
 * Resolves in a task of its own: work after it does not lengthen the current task (start-up work
 * split so that no task reaches 50 ms, docs/performance.md).
 */
export const nextTask = (): Promise<void> => new Promise((next) => setTimeout(next));

/** Rejects with the signal's reason once it aborts: races a wait that takes no signal of its own. */
export const whenAborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

/** `work` (a wait that takes no signal: a module's download, the element's own work), given up on past `ms` with a TimeoutError. */
export function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  const wait = deadline(ms);
  return Promise.race([work, whenAborted(wait.signal)]).finally(wait.done);
}

export const isTimeoutError = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'TimeoutError';
