/** @jsxImportSource preact */
// Critical path: Preact's own JSX runtime, like ui/player.tsx.
import { type PlayerError, screenOf } from '../core/errors';
import { ru } from '../i18n/ru';

/** SPEC §8 screens. Only the generic one has a way out: its button resets the error. */
export function ErrorScreen({ error, onReset }: { error: PlayerError; onReset: () => void }) {
  const screen = screenOf(error);
  let text: string;
  switch (screen) {
    case 'missing-movie-id':
      text = ru.missingMovieId;
      break;
    case 'not-found':
      text = ru.notFound;
      break;
    case 'blocked':
      text = ru.blocked;
      break;
    case 'load-failed':
      text = ru.loadFailed + (error.data?.address ?? '');
      break;
    default:
      text = ru.generic + (error.data?.eventId ?? '');
  }
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
