/** @jsxRuntime classic */
/** @jsx h */
// Critical path: written against Preact itself, not React, so that preact/compat (1.8 kB brotli)
// loads only with the lazy pieces (docs/performance.md "Budgets and what loads when"); classic JSX (Preact's own h), so the
// JSX runtime loads with them too. No hooks either: the frame is mounted once, so its state lives in
// mountPlayer's closure and its signals re-render it, and preact/hooks (1 kB brotli) comes only with
// the pieces that use it. Signals are read through @preact/signals-core, not @preact/signals
// (Preact's signal bindings, also lazy).
import { computed, effect, signal, untracked } from '@preact/signals-core';
import { type ComponentType, h, render } from 'preact';
import type { PieceModules, PlayerApi } from '../core/player-api';
import type { PlayerError } from '../core/errors';
import { ErrorScreen } from './error-screen';
import { PlayIcon } from '../core/icons';
import { ru } from '../i18n/ru';

const HIDE_DELAY_MS = 2000;

interface View {
  error: PlayerError | null;
  started: boolean;
  busy: boolean;
  hidden: boolean;
  stretched: boolean;
  poster: string | false | undefined;
  mutedAutoplay: boolean;
  Ads: ComponentType | undefined;
  Chrome: ComponentType<{ player: PlayerApi }> | undefined;
}

/**
 * Mounts the player's frame into `mount` and attaches the player to its <video> (in the next task:
 * the first render's task stays short). Returns what unmounts it and lets go of the player.
 */
export function mountPlayer(player: PlayerApi, mount: HTMLElement): () => void {
  const { store, bus } = player;
  const idle = signal(false);
  const chrome = signal<PieceModules['controls'] | undefined>(undefined);
  let live = true;
  let timer: ReturnType<typeof setTimeout> | undefined;

  // Controls auto-hide after 2000 ms without activity while playing; the delay is infinite while the
  // source preloads, i.e. until it plays for the first time (SPEC §9).
  const wake = () => {
    idle.value = false;
    clearTimeout(timer);
    timer = setTimeout(() => (idle.value = !store.controlsHeld.peek()), HIDE_DELAY_MS);
  };

  const view = computed<View>(() => {
    const error = store.error.value;
    const started = store.started.value;
    return {
      error,
      started,
      busy: !error && (store.loading.value || store.waiting.value || (store.playRequested.value && store.paused.value) || (store.adState.value === 'load' && !started)),
      hidden: idle.value && !store.paused.value && started,
      stretched: store.stretched.value,
      // With autoplay the first frame comes first (controller/start-settled.ts).
      poster: store.startSettled.value && store.poster.value,
      mutedAutoplay: store.mutedAutoplay.value,
      Ads: player.ads.value?.Overlay,
      Chrome: chrome.value?.Chrome,
    };
  });

  let askedControls = false;
  const stops = [
    // The controls piece, once the start has settled; rendered in a task after the one that
    // evaluated it: two short tasks, not one long one.
    effect(() => {
      if (askedControls || !store.startSettled.value) return;
      askedControls = true;
      player.load('controls').then(
        (m) => setTimeout(() => live && (chrome.value = m)),
        (err) => console.error('[player] piece controls failed to load', err),
      );
    }),
    bus.on('ui:hide-controls', () => (idle.value = !store.controlsHeld.peek())),
    effect(() => {
      if (store.paused.value || store.controlsHeld.value || !store.started.value) {
        idle.value = false;
        clearTimeout(timer);
      } else wake();
    }),
    effect(() => {
      const v = view.value;
      // The components' own signal reads (the pieces') are theirs, not this effect's.
      untracked(() => render(<Frame player={player} view={v} wake={wake} />, mount));
    }),
  ];
  setTimeout(() => live && player.attach(mount.querySelector<HTMLVideoElement>('.pl-video')!, mount.querySelector<HTMLElement>('.pl')!));
  return () => {
    live = false;
    clearTimeout(timer);
    for (const stop of stops) stop();
    render(null, mount);
    player.destroy();
  };
}

function Frame({ player, view, wake }: { player: PlayerApi; view: View; wake: () => void }) {
  const { requests } = player;
  const { error, started, busy, hidden, stretched, poster, mutedAutoplay, Ads, Chrome } = view;
  // An error screen is never covered by the chip: nothing is playing to unmute.
  const unmute = mutedAutoplay && !error;
  return (
    <div
      class="pl"
      tabIndex={-1}
      aria-label={ru.playerLabel}
      data-idle={hidden ? '' : undefined}
      data-started={started ? '' : undefined}
      data-stretched={stretched ? '' : undefined}
      data-unmute={unmute ? '' : undefined}
      onPointerMove={wake}
      onPointerDown={wake}
      onKeyDown={wake}
    >
      <video
        class="pl-video"
        playsInline
        crossOrigin="anonymous"
        preload="metadata"
        // The engine's own picture-in-picture toggle (Firefox) sits over the picture's right edge and
        // takes the clicks meant for the menus there; the player's button asks for it (media-extras.ts).
        disablePictureInPicture
        poster={poster || undefined}
        onClick={() => requests.togglePlay('user')}
      />
      {!error && Chrome && <Chrome player={player} />}
      {busy && <div class="pl-spinner" role="status" aria-label={ru.loadingLabel} />}
      {!started && !error && !busy && (
        <button type="button" class="pl-big-play" aria-label={ru.playLabel} onClick={() => requests.play('user')}>
          <PlayIcon />
        </button>
      )}
      {unmute && (
        <button type="button" class="pl-unmute" onClick={() => requests.toggleMute()}>
          {ru.unmuteLabel}
        </button>
      )}
      {Ads && !error && <Ads />}
      {error && <ErrorScreen error={error} onReset={requests.retry} />}
    </div>
  );
}
