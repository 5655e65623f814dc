import { effect } from '@preact/signals-core';
import type { Bus } from '../core/bus';
import type { Store } from '../core/store';

/** The longest what the first frame does not need waits for it: a stalled start still gets its interface. */
export const START_HOLD_MS = 5000;

/**
 * Sets `store.startSettled` once the start no longer needs the network to itself (DESIGN "critical
 * path"). With autoplay the first frame is what the viewer waits for: on HTTP/1.1 a page gets six
 * connections a host, and the interface's pieces and the poster, asked for while the playlists were
 * out, held them (Fast 3G waterfalls: the variant playlist waited ~0.5 s for a connection). They wait
 * for the content's first frame or a pre-roll's, an error, the viewer's first touch or key, or
 * START_HOLD_MS, whichever comes first. Without autoplay the viewer starts from the interface: at once.
 * Returns the disposer (a player destroyed before then loads nothing more).
 */
export function settleStart(store: Store, bus: Bus, autoPlay: boolean): () => void {
  if (!autoPlay) {
    store.startSettled.value = true;
    return () => {};
  }
  const offs: Array<() => void> = [];
  const dispose = () => offs.splice(0).forEach((off) => off());
  const settle = () => {
    store.startSettled.value = true;
    dispose();
  };
  // What waits for the start (pieces, poster, analytics) is set going in a task of its own, not in
  // the first frame's 'playing' handler (a long task there otherwise).
  const settleSoon = () => void setTimeout(settle);
  const timer = setTimeout(settle, START_HOLD_MS);
  const touched = { capture: true, once: true, passive: true } as const;
  window.addEventListener('pointerdown', settle, touched);
  window.addEventListener('keydown', settle, touched);
  offs.push(
    () => clearTimeout(timer),
    () => window.removeEventListener('pointerdown', settle, touched),
    () => window.removeEventListener('keydown', settle, touched),
    bus.on('ad:play', settleSoon),
    effect(() => {
      if (store.started.value || store.error.value) settleSoon();
    }),
  );
  return dispose;
}
