import { useComputed, useSignal } from '@preact/signals';
import type { PlayerApi } from '../controller/player';
import { ru } from '../i18n/ru';
import { formatTime } from './format-time';
import { ExitFullscreenIcon, FullscreenIcon, MutedIcon, PauseIcon, PlayIcon, VolumeIcon } from './icons';
import { NextButton } from './next-episode';
import { ShareButton } from './share-button';

/** The controls needed to watch: play/pause, progress with seeking, time, volume, fullscreen. */
export function Controls({ player }: { player: PlayerApi }) {
  const { store, requests } = player;
  const scrub = useSignal<number | null>(null);
  const shown = useComputed(() => scrub.value ?? store.currentTime.value);
  const time = useComputed(() => {
    const d = store.duration.value;
    return `${formatTime(shown.value, d >= 3600)} / ${formatTime(d)}`;
  });
  const playedPct = useComputed(() => pct(shown.value, store.duration.value));
  const bufferedPct = useComputed(() => pct(store.bufferedEnd.value, store.duration.value));
  const volume = useComputed(() => (store.muted.value ? 0 : store.volume.value));
  const paused = store.paused.value;
  const muted = store.muted.value || store.volume.value === 0;
  const fs = store.fullscreen.value;

  return (
    <div class="pl-controls" onClick={(e) => e.stopPropagation()}>
      <div class="pl-progress" style={{ '--played': playedPct, '--buffered': bufferedPct } as never}>
        <input
          class="pl-progress__input"
          type="range"
          min={0}
          max={store.duration.value || 0}
          step={0.1}
          value={shown}
          aria-label={ru.seekLabel}
          aria-valuetext={time}
          onInput={(e) => (scrub.value = Number((e.target as HTMLInputElement).value))}
          onChange={(e) => {
            requests.seek(Number((e.target as HTMLInputElement).value));
            scrub.value = null;
          }}
        />
      </div>
      <div class="pl-bar">
        <button
          type="button"
          class="pl-button"
          data-action="play"
          aria-label={paused ? ru.playLabel : ru.pauseLabel}
          onClick={() => requests.togglePlay('user')}
        >
          {paused ? <PlayIcon /> : <PauseIcon />}
        </button>
        <NextButton player={player} />
        <button
          type="button"
          class="pl-button"
          data-action="mute"
          aria-label={muted ? ru.unmuteLabel : ru.muteLabel}
          onClick={() => requests.toggleMute()}
        >
          {muted ? <MutedIcon /> : <VolumeIcon />}
        </button>
        <input
          class="pl-volume"
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={volume}
          aria-label={ru.volumeLabel}
          onInput={(e) => requests.setVolume(Number((e.target as HTMLInputElement).value))}
        />
        <span class="pl-time" aria-hidden="true">
          {time}
        </span>
        <span class="pl-spacer" />
        <ShareButton player={player} />
        <button
          type="button"
          class="pl-button"
          data-action="fullscreen"
          aria-label={fs ? ru.exitFullscreenLabel : ru.fullscreenLabel}
          onClick={() => requests.toggleFullscreen()}
        >
          {fs ? <ExitFullscreenIcon /> : <FullscreenIcon />}
        </button>
      </div>
    </div>
  );
}

const pct = (part: number, whole: number) => (whole > 0 ? `${Math.min(100, (part / whole) * 100)}%` : '0%');
