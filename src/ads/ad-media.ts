import { AdErrors } from './ad-error';
import type { AdPlayback, PlaybackEvent } from './playback';

/**
 * The ad's own <video>, and the only code touching it (the content <video> stays with
 * providers/media.ts). Media events become PlaybackEvents for the ad runner.
 */
export function createAdMedia(url: string, volume: number, emit: (e: PlaybackEvent) => void): AdPlayback {
  const video = document.createElement('video');
  video.className = 'pl-ad__video';
  video.playsInline = true;
  video.preload = 'auto';
  video.volume = volume;
  video.muted = volume === 0;
  const listeners: Record<string, () => void> = {
    canplaythrough: () => emit({ type: 'canplaythrough' }),
    playing: () => emit({ type: 'playing' }),
    pause: () => emit({ type: 'pause', ended: video.ended }),
    ended: () => emit({ type: 'ended' }),
    timeupdate: () => emit({ type: 'time', currentTime: video.currentTime, duration: Number.isFinite(video.duration) ? video.duration : 0 }),
    error: () => {
      const code = video.error?.code;
      emit({
        type: 'error',
        error: code === 3 ? AdErrors.cantPlay(video.error?.message || 'decode error') : AdErrors.mediaFile(url),
      });
    },
    webkitbeginfullscreen: () => emit({ type: 'native-fullscreen' }),
    enterpictureinpicture: () => emit({ type: 'pip', active: true }),
    leavepictureinpicture: () => emit({ type: 'pip', active: false }),
  };
  for (const [name, fn] of Object.entries(listeners)) video.addEventListener(name, fn);

  const tryPlay = async () => {
    try {
      await video.play();
      return true;
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'NotAllowedError' || name === 'AbortError') return false;
      emit({ type: 'error', error: AdErrors.cantPlay((err as Error)?.message || String(err)) });
      return true;
    }
  };

  return {
    el: video,
    async takePip() {
      await video.requestPictureInPicture?.().catch((err) => console.warn('[player] ad pip refused', err));
    },
    start() {
      video.src = url;
    },
    async play() {
      if (await tryPlay()) return true;
      // Autoplay with sound refused: an ad plays muted rather than not at all (DESIGN "autoplay").
      if (video.muted) return false;
      video.muted = true;
      if (await tryPlay()) {
        emit({ type: 'volume', volume: 0 });
        return true;
      }
      video.muted = volume === 0;
      return false;
    },
    pause() {
      video.pause();
    },
    setVolume(v) {
      volume = v;
      video.volume = v;
      video.muted = v === 0;
    },
    skip() {
      video.pause();
    },
    destroy() {
      for (const [name, fn] of Object.entries(listeners)) video.removeEventListener(name, fn);
      video.pause();
      video.removeAttribute('src');
      video.load();
      video.remove();
    },
  };
}
