// The intro and credits of the current episode (content/markers.ts), on the player's own clock: the
// video's time. What the skip button and the credits countdown show follows from it alone, so a paused
// film holds the countdown, a seek restarts it, and a test drives it by setting the store's time.
import { type ReadonlySignal, computed, effect, signal, untracked } from '@preact/signals-core';
import type { PlayerParts } from '../core/player-api';
import { readMarkers } from '../content/markers';

/** Seconds of the intro the skip button shows for by itself; with the controls shown it stays. */
export const SKIP_SHOWN_S = 5;
/** Seconds of the credits before the next episode plays. */
export const COUNTDOWN_S = 10;

export interface IntroCredits {
  /** The skip button shows: in the intro, no ad, for its first seconds or while the controls show. */
  skipShown: ReadonlySignal<boolean>;
  /** The episode has a credits marker (the card then shows from it, not for the last seconds). */
  hasCredits: ReadonlySignal<boolean>;
  /** The video is in the credits. */
  inCredits: ReadonlySignal<boolean>;
  /** Whole seconds until the next episode plays, while it counts; else null. */
  countdown: ReadonlySignal<number | null>;
  /** The viewer closed the card for this episode ('Смотреть титры', ×). */
  dismissed: ReadonlySignal<boolean>;
  /** Jumps to the intro's end (a seek request). */
  skipIntro(): void;
  dismiss(): void;
  dispose(): void;
}

type Parts = Pick<PlayerParts, 'store' | 'bus' | 'requests'>;

export function watchIntroCredits({ store, bus, requests }: Parts, controlsShown: ReadonlySignal<boolean>): IntroCredits {
  const markers = computed(() => {
    const e = store.episode.value;
    return e ? readMarkers(e.markers, e.duration) : {};
  });
  const skipShown = signal(false);
  const inCredits = signal(false);
  const countdown = signal<number | null>(null);
  const dismissedFor = signal<number | null>(null);
  let id: number | undefined;
  // After a switch to another episode the store still has the old one's time until the new source
  // resets it (started goes false): until then nothing of the new episode's markers applies.
  let fresh = true;
  let introFrom: number | null = null;
  let creditsFrom: number | null = null;
  let reached = false;
  let moved = false;
  let skipped = false;

  const stop = effect(() => {
    const episode = store.episode.value;
    const started = store.started.value;
    const t = store.currentTime.value;
    if (episode?.id !== id) {
      fresh = id === undefined;
      id = episode?.id;
      introFrom = creditsFrom = null;
      reached = moved = false;
    }
    if (!started) fresh = true;
    // Markers are the episode's, and a variant may be shorter (a cut): only what lies within this media applies.
    const d = store.duration.value;
    const { intro: i, credits: c } = markers.value;
    const intro = i && i.end <= d ? i : undefined;
    const credits = c !== undefined && c < d ? c : undefined;
    const watching = !!episode && fresh && started && !store.error.value && store.adState.value !== 'ready' && !store.currentAd.value;

    const atIntro = watching && !!intro && t >= intro.start && t < intro.end;
    // Shown from where the video entered the intro (a seek back into it shows it again).
    introFrom = atIntro ? (introFrom === null || t < introFrom ? t : introFrom) : null;
    if (!atIntro) skipped = false;
    skipShown.value = atIntro && !skipped && (t - introFrom! < SKIP_SHOWN_S || controlsShown.value);

    const atCredits = watching && credits !== undefined && t >= credits;
    creditsFrom = atCredits ? (creditsFrom === null || t < creditsFrom ? t : creditsFrom) : null;
    inCredits.value = atCredits;
    const next = store.nextEpisode.value;
    if (atCredits && !reached) {
      reached = true;
      untracked(() => bus.emit('ui:credits', { episode: episode!, next: next ?? null }));
    }
    const counting = atCredits && !!next && dismissedFor.value !== id;
    const left = counting ? COUNTDOWN_S - (t - creditsFrom!) : 0;
    countdown.value = counting ? Math.max(0, Math.ceil(left)) : null;
    if (counting && left <= 0 && !moved) {
      moved = true;
      untracked(() => {
        bus.emit('ui:credits-next', { next: next! });
        requests.playNext();
      });
    }
  });
  const offEpisode = bus.on('content:episode-changed', () => (dismissedFor.value = null));

  return {
    skipShown,
    hasCredits: computed(() => (markers.value.credits ?? Infinity) < store.duration.value),
    inCredits,
    countdown,
    dismissed: computed(() => dismissedFor.value !== null && dismissedFor.value === store.episode.value?.id),
    skipIntro() {
      const intro = markers.peek().intro;
      if (!intro || !skipShown.peek()) return;
      // Hidden at once: the seek lands a moment later, and a second press would ask again.
      skipped = true;
      skipShown.value = false;
      bus.emit('ui:skip-intro', { from: store.currentTime.peek(), to: intro.end });
      requests.seek(intro.end);
    },
    dismiss() {
      dismissedFor.value = store.episode.peek()?.id ?? null;
    },
    dispose() {
      stop();
      offEpisode();
    },
  };
}
