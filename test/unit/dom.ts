// A happy-dom window as the global DOM for component tests.
import { Window } from 'happy-dom';

export function installDom(url = 'https://player.example/player/?movie_id=1') {
  const window = new Window({ url });
  const g = globalThis as Record<string, unknown>;
  for (const key of ['window', 'document', 'navigator', 'HTMLElement', 'Node', 'Event', 'KeyboardEvent', 'MouseEvent', 'requestAnimationFrame', 'cancelAnimationFrame']) {
    const value = (window as unknown as Record<string, unknown>)[key];
    Object.defineProperty(g, key, { value, configurable: true, writable: true });
  }
  return window;
}
