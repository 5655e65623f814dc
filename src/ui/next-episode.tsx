import { type Signal, signal, useComputed } from '@preact/signals';
import type { PlayerApi } from '../core/player-api';
import type { Store } from '../core/store';
import type { IntroCredits } from './intro-credits';
import { NextIcon } from './series-icons';
import { stripNumberPrefix } from './strip-number';
import { ruUi } from '../i18n/ru-ui';

/** Without a credits marker the card shows for the last seconds of an episode, and when it has ended. */
const END_WINDOW_S = 10;
const LEAVE_DELAY_MS = 250;

// Hover of the next button, shared by the button (control bar) and the card (over the picture),
// one per player; one timer, so moving from the button onto the card keeps the card open.
interface Hover {
  on: Signal<boolean>;
  timer?: ReturnType<typeof setTimeout>;
}
const hovers = new WeakMap<Store, Hover>();
const hoverOf = (store: Store) => {
  let h = hovers.get(store);
  if (!h) hovers.set(store, (h = { on: signal(false) }));
  return h;
};

function hoverHandlers(store: Store) {
  const hover = hoverOf(store);
  return {
    // SPEC §4: on hover, not on touch devices; a pen or a finger never opens it.
    onPointerEnter: (e: PointerEvent) => {
      if (e.pointerType !== 'mouse') return;
      clearTimeout(hover.timer);
      hover.on.value = true;
    },
    // A short grace period lets the pointer travel from the button to the card.
    onPointerLeave: () => {
      clearTimeout(hover.timer);
      hover.timer = setTimeout(() => (hover.on.value = false), LEAVE_DELAY_MS);
    },
  };
}

/** The control-bar button: plays the next episode; shown only when moving on is allowed. */
export function NextButton({ player }: { player: PlayerApi }) {
  const hover = hoverHandlers(player.store);
  if (!player.store.nextEpisode.value) return null;
  return (
    <button
      type="button"
      class="pl-button"
      data-action="next"
      aria-label={ruUi.nextEpisode}
      onClick={() => {
        hoverOf(player.store).on.value = false;
        player.requests.playNext();
      }}
      {...hover}
    >
      <NextIcon />
    </button>
  );
}

/**
 * SPEC §2 next-episode card: 'Следующий эпизод', number, title, description, poster, red button. At
 * an episode's credits marker it counts down to the next episode ('Смотреть титры' closes it).
 */
export function NextEpisodeCard({ player, marks }: { player: PlayerApi; marks: IntroCredits }) {
  const { store } = player;
  const hover = hoverHandlers(store);
  const atEnd = useComputed(() => {
    const d = store.duration.value;
    if (store.ended.value) return true;
    if (marks.hasCredits.value) return marks.inCredits.value;
    return store.started.value && d > 2 * END_WINDOW_S && d - store.currentTime.value <= END_WINDOW_S;
  });
  const next = store.nextEpisode.value;
  const countdown = marks.countdown.value;
  const shown = hoverOf(store).on.value || (atEnd.value && !marks.dismissed.value);
  if (!next || !shown) return null;
  const poster = next.posterPath || store.content.value?.posterUrl;
  const season = next.season?.order;
  return (
    <div class="pl-next" role="dialog" aria-label={ruUi.nextEpisode} onClick={(e) => e.stopPropagation()} {...hover}>
      {poster && <img class="pl-next__poster" src={poster} alt="" />}
      <div class="pl-next__body">
        <div class="pl-next__head">{countdown === null ? ruUi.nextEpisode : ruUi.nextEpisodeIn(countdown)}</div>
        <div class="pl-next__number">
          {typeof season === 'number' ? ruUi.seasonEpisode(season, next.order) : ruUi.episodeNumber(next.order)}
        </div>
        <div class="pl-next__title">{stripNumberPrefix(next.title ?? '')}</div>
        {next.description && <p class="pl-next__description">{next.description}</p>}
        <div class="pl-next__actions">
          <button
            type="button"
            class="pl-next__play"
            data-action="next-play"
            onClick={() => {
              hoverOf(store).on.value = false;
              player.requests.playNext();
            }}
          >
            {ruUi.play}
          </button>
          {countdown !== null && (
            <button
              type="button"
              class="pl-next__credits"
              data-action="watch-credits"
              onClick={() => {
                hoverOf(store).on.value = false;
                marks.dismiss();
              }}
            >
              {ruUi.watchCredits}
            </button>
          )}
        </div>
      </div>
      <button
        type="button"
        class="pl-next__close"
        aria-label={ruUi.close}
        onClick={() => {
          hoverOf(store).on.value = false;
          marks.dismiss();
        }}
      >
        ×
      </button>
    </div>
  );
}
