import type { Bus } from '../core/bus';
import type { Store } from '../core/store';

/**
 * SPEC §4: on iOS inside a parent frame, fullscreen is 'stretched' (the player fills the frame and
 * the parent is asked to enlarge it), since iOS gives only the <video> native fullscreen, without
 * our controls. fullscreen_mode=stretched asks for it anywhere; native asks never to.
 */
export function shouldStretch(mode: string | undefined, win: Window = window): boolean {
  if (mode === 'stretched') return true;
  if (mode === 'native') return false;
  const nav = win.navigator;
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
  let framed: boolean;
  try {
    framed = win.self !== win.top;
  } catch {
    framed = true;
  }
  return ios && framed;
}

/** Native fullscreen of the player's container, or the stretched kind where native cannot serve. */
export function createFullscreen(store: Store, bus: Bus, mode: string | undefined) {
  let container: HTMLElement | undefined;
  const onChange = () => {
    const active = !!container && document.fullscreenElement === container;
    store.fullscreen.value = active;
    bus.emit('player:fullscreen', { active, mode: 'native' });
  };
  const setStretched = (active: boolean) => {
    // Unbatched: nothing reacts to both (renders are deferred anyway), and without batch this lazy
    // piece imports no signals module, so the entry's stays one chunk with Preact.
    store.stretched.value = active;
    store.fullscreen.value = active;
    bus.emit('player:fullscreen', { active, mode: 'stretched' });
  };
  document.addEventListener('fullscreenchange', onChange);
  return {
    /** root: the player's container (none before the UI attached it). */
    toggle(root: HTMLElement | undefined): void {
      if (!(container = root)) return;
      // Stretched where asked for, and in a frame whose document may not go fullscreen (providers/capabilities.ts).
      const stretch = shouldStretch(mode) || store.offers.peek().fullscreen === 'stretched';
      if (store.stretched.value || (!document.fullscreenElement && stretch)) {
        return setStretched(!store.stretched.value);
      }
      const done = document.fullscreenElement ? document.exitFullscreen?.() : container.requestFullscreen?.();
      if (!done) console.warn('[player] no fullscreen support');
      else done.catch(() => console.warn('[player] no fullscreen support'));
    },
    dispose: () => document.removeEventListener('fullscreenchange', onChange),
  };
}
