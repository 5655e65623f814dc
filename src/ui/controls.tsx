import { useComputed } from '@preact/signals';
import type { PlayerApi } from '../core/player-api';
import { formatTime } from './format-time';
import { PlayIcon } from '../core/icons';
import { ExitFullscreenIcon, FullscreenIcon, MutedIcon, PauseIcon, VolumeIcon } from '../core/media-icons';
import { AirplayIcon, Back10Icon, CastIcon, Forward10Icon, PipIcon, SettingsIcon, SubtitlesIcon } from './icons-ui';
import { SKIP_S } from './keyboard';
import { Progress } from './progress';
import type { UiState } from './ui-state';
import { NextButton } from './next-episode';
import { ShareButton } from './share-button';
import { ru } from '../i18n/ru';
import { ruUi } from '../i18n/ru-ui';


/** SPEC §2 desktop controls: progress with preview, play/pause, ±10 s, volume, time, and the right group. */
export function Controls({ player, ui }: { player: PlayerApi; ui: UiState }) {
  const { store, requests } = player;
  const volume = useComputed(() => (store.muted.value ? 0 : store.volume.value));
  const paused = store.paused.value;
  const muted = store.muted.value || store.volume.value === 0;

  return (
    <div class="pl-controls" onClick={(e) => e.stopPropagation()} {...hold(ui)}>
      <Progress player={player} />
      <div class="pl-bar">
        <PlayButton player={player} paused={paused} />
        <SkipButtons player={player} />
        <NextButton player={player} />
        <button
          type="button"
          class="pl-button"
          data-action="mute"
          aria-label={muted ? ru.unmuteLabel : ruUi.muteLabel}
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
          aria-label={ruUi.volumeLabel}
          onInput={(e) => requests.setVolume(Number((e.target as HTMLInputElement).value))}
        />
        <TimeText player={player} />
        <span class="pl-spacer" />
        {store.offers.value.airplay && store.airplay.value && (
          <button type="button" class="pl-button" data-action="airplay" aria-label={ruUi.airplay} onClick={() => requests.airplay()}>
            <AirplayIcon />
          </button>
        )}
        <MenuButtons player={player} ui={ui} />
        {store.offers.value.pip && (
          <button type="button" class="pl-button" data-action="pip" aria-label={ruUi.pip} aria-pressed={store.pip.value} onClick={() => requests.togglePip()}>
            <PipIcon />
          </button>
        )}
        <CastButton player={player} ui={ui} />
        <ShareButton player={player} />
        <FullscreenButton player={player} />
      </div>
    </div>
  );
}

/** Pointer over the controls keeps them shown (auto-hide never while the mouse is over them). */
const hold = (ui: UiState) => ({
  onPointerEnter: (e: PointerEvent) => {
    if (e.pointerType === 'mouse') ui.pointerOver.value = true;
  },
  onPointerLeave: () => (ui.pointerOver.value = false),
});

function cast(player: PlayerApi, ui: UiState): void {
  void player.requests.cast().then((ok) => ok || ui.notify(ruUi.castUnavailable));
}

export function PlayButton({ player, paused }: { player: PlayerApi; paused: boolean }) {
  return (
    <button
      type="button"
      class="pl-button"
      data-action="play"
      aria-label={paused ? ru.playLabel : ruUi.pauseLabel}
      onClick={() => player.requests.togglePlay('user')}
    >
      {paused ? <PlayIcon /> : <PauseIcon />}
    </button>
  );
}

export function SkipButtons({ player }: { player: PlayerApi }) {
  return (
    <>
      <button type="button" class="pl-button" data-action="back" aria-label={ruUi.back10} onClick={() => player.requests.seekBy(-SKIP_S)}>
        <Back10Icon />
      </button>
      <button type="button" class="pl-button" data-action="forward" aria-label={ruUi.forward10} onClick={() => player.requests.seekBy(SKIP_S)}>
        <Forward10Icon />
      </button>
    </>
  );
}

/** Current and total time; a duration that is unknown (0, or the -2 marker) reads --:--. */
export function TimeText({ player }: { player: PlayerApi }) {
  const { store } = player;
  const current = useComputed(() => formatTime(store.currentTime.value, store.duration.value >= 3600));
  const total = useComputed(() => (store.duration.value > 0 ? formatTime(store.duration.value) : '--:--'));
  return (
    <span class="pl-time">
      <span aria-label={ruUi.currentTime}>{current}</span> / <span aria-label={ruUi.duration}>{total}</span>
    </span>
  );
}

export function MenuButtons({ player, ui }: { player: PlayerApi; ui: UiState }) {
  const page = ui.menu.value.page;
  return (
    <>
      {player.store.textTracks.value.length > 0 && (
        <button
          type="button"
          class="pl-button"
          data-action="subtitles"
          aria-label={ruUi.subtitles}
          aria-haspopup="menu"
          aria-expanded={page === 'subs'}
          onClick={() => ui.dispatch({ type: 'subtitles' })}
        >
          <SubtitlesIcon />
        </button>
      )}
      <button
        type="button"
        class="pl-button"
        data-action="settings"
        aria-label={ruUi.settings}
        aria-haspopup="menu"
        aria-expanded={!!page && page !== 'subs'}
        onClick={() => ui.dispatch({ type: 'settings' })}
      >
        <SettingsIcon />
      </button>
    </>
  );
}

/** Only where the engine has the Remote Playback API (not Firefox, not WebKitGTK). */
export function CastButton({ player, ui }: { player: PlayerApi; ui: UiState }) {
  if (!player.store.offers.value.cast) return null;
  return (
    <button type="button" class="pl-button" data-action="cast" aria-label={ruUi.cast} onClick={() => cast(player, ui)}>
      <CastIcon />
    </button>
  );
}

/** Native fullscreen where the document allows it, the stretched mode in a frame, else none. */
export function FullscreenButton({ player }: { player: PlayerApi }) {
  const fs = player.store.fullscreen.value;
  if (player.store.offers.value.fullscreen === 'none' && !fs) return null;
  return (
    <button
      type="button"
      class="pl-button"
      data-action="fullscreen"
      aria-label={fs ? ruUi.exitFullscreenLabel : ruUi.fullscreenLabel}
      onClick={() => player.requests.toggleFullscreen()}
    >
      {fs ? <ExitFullscreenIcon /> : <FullscreenIcon />}
    </button>
  );
}
