/** @jsxImportSource preact */
// Critical path: written against Preact itself, not React, so that preact/compat (1.8 kB brotli)
// loads only with the lazy pieces (README "What loads when"). Keep it to hooks and plain JSX.
// Likewise it reads signals through @preact/signals-core, not @preact/signals (Preact's signal
// bindings, 1.2 kB brotli), which also comes only with the lazy pieces: useView below re-renders.
import { computed, effect, signal } from '@preact/signals-core';
import { useEffect, useMemo, useReducer, useRef } from 'preact/hooks';
import type { PlayerApi } from '../core/player-api';
import { ErrorScreen } from './error-screen';
import { PlayIcon } from '../core/icons';
import { usePiece } from './use-piece';
import { ru } from '../i18n/ru';

const HIDE_DELAY_MS = 2000;

/** What read() reads of signals, re-rendering the component when it changes (read must only read signals). */
function useView<T>(read: () => T): T {
  const view = useMemo(() => computed(read), []);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const shown = view.value;
  // subscribe calls at once: a change between the first render and this effect renders again too.
  useEffect(() => view.subscribe((now) => now !== shown && rerender(0)), [view]);
  return shown;
}

const useSignalEffect = (fn: () => void) => useEffect(() => effect(fn), []);

export function Player({ player }: { player: PlayerApi }) {
  const { store, requests } = player;
  const root = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const idle = useMemo(() => signal(false), []);
  const chrome = usePiece(player, 'controls', store.startSettled);

  useEffect(() => {
    player.attach(video.current!, root.current!);
    return () => player.destroy();
  }, [player]);

  // Controls auto-hide after 2000 ms without activity while playing; the delay is infinite while the
  // source preloads, i.e. until it plays for the first time (SPEC §9).
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const wake = () => {
    idle.value = false;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => (idle.value = !store.controlsHeld.peek()), HIDE_DELAY_MS);
  };
  useEffect(() => player.bus.on('ui:hide-controls', () => (idle.value = !store.controlsHeld.peek())), [player]);
  useSignalEffect(() => {
    if (store.paused.value || store.controlsHeld.value || !store.started.value) {
      idle.value = false;
      clearTimeout(timer.current);
    } else wake();
  });

  const { error, started, busy, hidden, stretched, poster, mutedAutoplay, Ads } = useView(() => {
    const error = store.error.value;
    const started = store.started.value;
    return {
      error,
      started,
      busy:
        !error && (store.loading.value || store.waiting.value || (store.playRequested.value && store.paused.value) || (store.adState.value === 'load' && !started)),
      hidden: idle.value && !store.paused.value && started,
      stretched: store.stretched.value,
      // With autoplay the first frame comes first (controller/start-settled.ts).
      poster: store.startSettled.value && store.poster.value,
      mutedAutoplay: store.mutedAutoplay.value,
      Ads: player.ads.value?.Overlay,
    };
  });

  return (
    <div
      ref={root}
      class="pl"
      tabIndex={-1}
      aria-label={ru.playerLabel}
      data-idle={hidden ? '' : undefined}
      data-started={started ? '' : undefined}
      data-stretched={stretched ? '' : undefined}
      onPointerMove={wake}
      onPointerDown={wake}
      onKeyDown={wake}
    >
      <video
        ref={video}
        class="pl-video"
        playsInline
        crossOrigin="anonymous"
        preload="metadata"
        poster={poster || undefined}
        onClick={() => requests.togglePlay('user')}
      />
      {!error && chrome && <chrome.Chrome player={player} />}
      {busy && <div class="pl-spinner" role="status" aria-label={ru.loadingLabel} />}
      {!started && !error && !busy && (
        <button type="button" class="pl-big-play" aria-label={ru.playLabel} onClick={() => requests.play('user')}>
          <PlayIcon />
        </button>
      )}
      {mutedAutoplay && (
        <button type="button" class="pl-unmute" onClick={() => requests.toggleMute()}>
          {ru.unmuteLabel}
        </button>
      )}
      {Ads && !error && <Ads />}
      {error && <ErrorScreen error={error} onReset={requests.retry} />}
    </div>
  );
}
