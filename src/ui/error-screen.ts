// Critical path: plain DOM, like ui/player.ts (preact loads with the lazy pieces only).
import { type PlayerError, screenOf } from '../core/errors';
import { ru } from '../i18n/ru';

/** SPEC §8 screens. Only the generic one has a way out: its button resets the error. */
export function errorScreen(error: PlayerError, onReset: () => void): HTMLElement {
  const screen = screenOf(error);
  const root = document.createElement('div');
  root.className = 'pl-error';
  root.setAttribute('role', 'alert');
  root.dataset.screen = screen;
  const text = root.appendChild(document.createElement('p'));
  text.className = 'pl-error__text';
  text.textContent = {
    'missing-movie-id': ru.missingMovieId,
    'not-found': ru.notFound,
    blocked: ru.blocked,
    'load-failed': ru.loadFailed + (error.data?.address ?? ''),
    generic: ru.generic + (error.data?.eventId ?? ''),
  }[screen];
  if (screen === 'generic') {
    const button = root.appendChild(document.createElement('button'));
    button.type = 'button';
    button.className = 'pl-error__button';
    button.textContent = ru.reload;
    button.onclick = onReset;
  }
  return root;
}
