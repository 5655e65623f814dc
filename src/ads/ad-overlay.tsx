import type { Signal } from '@preact/signals';
// Preact's signal bindings: the overlay reads signals as it renders and re-renders when they change.
// The runner's modules use the core alone; the overlay is the ads piece's one Preact component tree.
import '@preact/signals';
import type { AdLoaderState } from '../core/store';
import { PlayIcon } from '../core/icons';
import { MutedIcon, PauseIcon, VolumeIcon } from '../core/media-icons';
import type { AdRunner } from './runner';
import { offsetSeconds } from './vast-time';
import { shouldPlay } from './visibility';
import { ru } from '../i18n/ru';
import { ruUi } from '../i18n/ru-ui';
import { ruAds } from '../i18n/ru-ads';

const SkipIcon = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M6 18l8.5-6L6 6v12zM16 6v12h2V6h-2z" />
  </svg>
);

const clock = (s: number) => {
  const t = Math.max(0, Math.ceil(s));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
};

/**
 * SPEC §2 ad overlay: fills the player while an ad is ready and plays, with play/pause, volume
 * (button toggling 0 and 1, slider 0..1 step 0.05), the skip button with its countdown, and a
 * full-size click-through link. The ad's own media element is mounted into `.pl-ad__slot`.
 */
export function AdOverlay({ runner, adState, slotRef }: { runner: AdRunner; adState: Signal<AdLoaderState>; slotRef: (el: HTMLDivElement | null) => void }) {

  const state = adState.value;
  const s = runner.session.value;
  const status = s?.status.value;
  // SPEC §2: while an ad is ready and plays; a pre-roll nobody asked to play yet stays out of sight.
  const on = runner.begun.value && (state === 'ready' || (state === 'load' && runner.shown.value));
  const time = s?.time.value ?? 0;
  const duration = s?.duration.value ?? 0;
  const playing = shouldPlay(runner.playState.value) && (status === 'started' || status === 'playing');
  const volume = runner.volume.value;
  const canSkip = runner.canSkip.value;
  const skipLeft = s?.skipOffset ? Math.ceil(offsetSeconds(s.skipOffset, duration) - time) : NaN;

  return (
    <div class="pl-ad" hidden={!on} role="region" aria-label={ruAds.overlayLabel}>
      <div ref={slotRef} class="pl-ad__slot" />
      {s?.clickThrough && !s.vpaid && (
        <a
          class="pl-ad__click"
          href={s.clickThrough}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={ruAds.clickThroughLabel}
          onClick={() => runner.clickThrough()}
        />
      )}
      {on && (!s || status === 'created') && <div class="pl-spinner" role="status" aria-label={ru.loadingLabel} />}
      {s && status !== 'created' && (
        <div class="pl-ad__bar">
          <button
            type="button"
            class="pl-button pl-ad__play"
            aria-label={playing ? ruUi.pauseLabel : ru.playLabel}
            onClick={() => runner.togglePlay(!playing)}
          >
            {playing ? <PauseIcon /> : <PlayIcon />}
          </button>
          <button
            type="button"
            class="pl-button pl-ad__mute"
            aria-label={volume === 0 ? ru.unmuteLabel : ruUi.muteLabel}
            onClick={() => runner.toggleVolume()}
          >
            {volume === 0 ? <MutedIcon /> : <VolumeIcon />}
          </button>
          <input
            class="pl-volume pl-ad__volume safety-volume"
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={volume}
            aria-label={ruUi.volumeLabel}
            onInput={(e) => runner.setVolume(e.currentTarget.value)}
          />
          {s.pod.size > 1 && <span class="pl-ad__pod">{ruAds.podPosition(s.pod.index, s.pod.size)}</span>}
          <span class="pl-time pl-ad__left">{clock(duration - time)}</span>
          <span class="pl-spacer" />
          {s.skipOffset && (
            <button type="button" class="pl-ad__skip" disabled={!canSkip} onClick={() => runner.skip()}>
              {ruAds.skip}
              {canSkip ? <SkipIcon /> : Number.isFinite(skipLeft) ? ` ${Math.max(1, skipLeft)}` : ''}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
