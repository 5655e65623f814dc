// SPEC §2 and §9 tap classifier: a double tap is a second tap within 275 ms; a single tap waits 250 ms
// so it is not fired for the first half of a double tap.

export const DOUBLE_TAP_MS = 275;
export const SINGLE_TAP_WAIT_MS = 250;

export type TapZone = 'left' | 'middle' | 'right';

export interface TapHandlers {
  single(): void;
  double(zone: TapZone): void;
}

/** Left fifth, right fifth or the rest, from the tap's x within the surface's width. */
export function tapZone(x: number, width: number): TapZone {
  if (width <= 0) return 'middle';
  if (x < width / 5) return 'left';
  if (x > (width * 4) / 5) return 'right';
  return 'middle';
}

export interface Timers {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(id: unknown): void;
}

const realTimers: Timers = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

export function createTapClassifier(handlers: TapHandlers, timers: Timers = realTimers) {
  let last = -Infinity;
  let pending: unknown;
  return {
    tap(zone: TapZone): void {
      const now = timers.now();
      if (now - last <= DOUBLE_TAP_MS) {
        timers.clear(pending);
        pending = undefined;
        last = -Infinity;
        handlers.double(zone);
        return;
      }
      last = now;
      pending = timers.set(() => {
        pending = undefined;
        handlers.single();
      }, SINGLE_TAP_WAIT_MS);
    },
    dispose(): void {
      timers.clear(pending);
    },
  };
}
