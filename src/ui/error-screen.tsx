/** @jsxRuntime classic */
/** @jsx h */
// Critical path: classic JSX compiled to Preact's own h, like ui/player.tsx.
import { h } from 'preact';
import { type PlayerError, screenOf } from '../core/errors';
import { ru } from '../i18n/ru';

/** SPEC §8 screens. Only the generic one has a way out: its button resets the error. */
export function ErrorScreen({ error, onReset }: { error: PlayerError; onReset: () => void }) {
  const screen = screenOf(error);
  const text = {
    'missing-movie-id': ru.missingMovieId,
    'not-found': ru.notFound,
    blocked: ru.blocked,
    'load-failed': ru.loadFailed + (error.data?.address ?? ''),
    generic: ru.generic + (error.data?.eventId ?? ''),
  }[screen];
  return (
    <div class="pl-error" role="alert" data-screen={screen}>
      <p class="pl-error__text">{text}</p>
      {screen === 'generic' && (
        <button type="button" class="pl-error__button" onClick={onReset}>
          {ru.reload}
        </button>
      )}
    </div>
  );
}
