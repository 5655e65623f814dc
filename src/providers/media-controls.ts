import type { HlsHandle } from '../core/player-api';
import type { Store } from '../core/store';
import { EXTERNAL_TRACK_BASE } from '../core/tracks';
import type { lazyExtras } from './lazy-extras';

/**
 * The media calls behind the requests that keep none of bindMedia's state (media.ts): the element's
 * volume, mute and speed, the engine's track choices, and what the lazy extras piece does.
 */
export function mediaControls(
  video: HTMLVideoElement,
  store: Store,
  engine: () => HlsHandle | undefined,
  extra: ReturnType<typeof lazyExtras>['extra'],
) {
  return {
    setVolume: (volume: number) => void (video.volume = Math.max(0, Math.min(1, volume))),
    // From the element's own state: the store hears of a change a task later, and a click can come
    // first (input outranks media events), which would then mute what is already muted.
    isPaused: () => video.paused,
    toggleMute() {
      if (video.muted || video.volume === 0) {
        if (video.volume === 0) video.volume = 0.25;
        video.muted = false;
      } else video.muted = true;
    },
    setMuted: (muted: boolean) => void (video.muted = muted),
    setPlaybackRate: (rate: number) => void (video.playbackRate = rate),
    setQuality(level: number) {
      engine()?.setQuality(level);
      // ABR's choice is only confirmed by the next switch; a manual one is what was asked for.
      store.quality.value = level;
    },
    setAudioTrack(id: number) {
      engine()?.setAudioTrack(id);
    },
    setTextTrack(id: number) {
      const isExternal = id >= EXTERNAL_TRACK_BASE;
      engine()?.setTextTrack(isExternal ? -1 : id);
      if (isExternal || !engine()) store.textTrack.value = id;
      void extra((x) => x.showSubtitles(isExternal ? id : -1));
    },
    setAudioGain: (gain: number) => void extra((x) => x.setGain(gain)),
    togglePip: () => void extra((x) => x.togglePip()),
    takePip: async () => void (await extra((x) => x.takePip())),
    cast: async () => !!(await extra((x) => x.cast())),
    airplay: () => void extra((x) => x.airplay()),
  };
}
