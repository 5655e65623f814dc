import type { PlayerError } from '../core/errors';
import { ru } from '../i18n/ru';

/** SPEC §8 screens. Only the generic one has a way out: its button resets the error. */
export function ErrorScreen({ error, onReset }: { error: PlayerError; onReset: () => void }) {
  let text: string;
  switch (error.screen) {
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
      text = ru.loadFailed + (error.address ?? '');
      break;
    default:
      text = ru.generic + error.eventId;
  }
  return (
    <div class="pl-error" role="alert" data-screen={error.screen}>
      <p class="pl-error__text">{text}</p>
      {error.screen === 'generic' && (
        <button type="button" class="pl-error__button" onClick={onReset}>
          {ru.reload}
        </button>
      )}
    </div>
  );
}
