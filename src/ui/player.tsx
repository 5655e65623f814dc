/** @jsxImportSource preact */
// Critical path: written against Preact itself, not React, so that preact/compat (1.8 kB brotli)
// loads only with the lazy pieces (README "What loads when"). Keep it to hooks and plain JSX.
import { useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { PlayerApi } from '../core/player-api';
import { ErrorScreen } from './error-screen';
import { PlayIcon } from '../core/icons';
import { usePiece } from './use-piece';
import { ru } from '../i18n/ru';

const HIDE_DELAY_MS = 2000;

export function Player({ player }: { player: PlayerApi }) {
  const { store, requests } = player;
  const root = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const idle = useSignal(false);
  const chrome = usePiece(player, 'controls');

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

  const error = store.error.value;
  const started = store.started.value;
  const busy =
    !error && (store.loading.value || store.waiting.value || (store.playRequested.value && store.paused.value) || (store.adState.value === 'load' && !started));
  const Ads = player.ads.value?.Overlay;

  return (
    <div
      ref={root}
      class="pl"
      tabIndex={-1}
      aria-label={ru.playerLabel}
      data-idle={idle.value && !store.paused.value && started ? '' : undefined}
      data-started={started ? '' : undefined}
      data-stretched={store.stretched.value ? '' : undefined}
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
        poster={store.poster.value || undefined}
        onClick={() => requests.togglePlay('user')}
      />
      {!error && chrome && <chrome.Chrome player={player} />}
      {busy && <div class="pl-spinner" role="status" aria-label={ru.loadingLabel} />}
      {!started && !error && !busy && (
        <button type="button" class="pl-big-play" aria-label={ru.playLabel} onClick={() => requests.play('user')}>
          <PlayIcon />
        </button>
      )}
      {store.mutedAutoplay.value && (
        <button type="button" class="pl-unmute" onClick={() => requests.toggleMute()}>
          {ru.unmuteLabel}
        </button>
      )}
      {Ads && !error && <Ads />}
      {error && <ErrorScreen error={error} onReset={requests.retry} />}
    </div>
  );
}
