/**
 * An abort signal that fires after `ms` (with a TimeoutError) or when `parent` aborts (with its
 * reason), whichever comes first: every network wait gets one (DESIGN "Every wait ends"). Call
 * `done()` when the wait is over so the timer does not outlive it.
 */
export function deadline(ms: number, parent?: AbortSignal): { signal: AbortSignal; done(): void } {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')), ms);
  const forward = () => ctl.abort(parent!.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener('abort', forward);
  return {
    signal: ctl.signal,
    done() {
      clearTimeout(timer);
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
  let timer: ReturnType<typeof setTimeout>;
  const forward = () => ctl.abort(parent!.reason);
  if (parent?.aborted) forward();
  else parent?.addEventListener('abort', forward);
  const done = () => {
    clearTimeout(timer);
    parent?.removeEventListener('abort', forward);
  };
  const progress = () => {
    clearTimeout(timer);
    timer = setTimeout(() => ctl.abort(new DOMException(`no byte within ${ms} ms`, 'TimeoutError')), ms);
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
