import { AdErrors } from './ad-error';
import type { AdPlayback, PlaybackEvent } from './playback';

/** A pause the engine makes within this much of the ad after a play it let start is its autoplay policy (WebKit). */
const REFUSAL_WINDOW_S = 1;

/**
 * The ad's own <video> (the runner's one element, reused ad after ad), and the only code touching
 * it (the content <video> stays with providers/media.ts). Media events become PlaybackEvents.
 */
export function createAdMedia(video: HTMLVideoElement, url: string, volume: number, emit: (e: PlaybackEvent) => void): AdPlayback {
  video.className = 'pl-ad__video';
  // The engine's own picture-in-picture toggle (Firefox) would sit over the ad and take its clicks.
  video.disablePictureInPicture = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.volume = volume;
  video.muted = volume === 0;
  /** Where the ad was when the runner last asked it to play (-1: never, or it asked to pause since). */
  let playAskedAt = -1;
  let sourceSet = false;
  const listeners: Record<string, () => void> = {
    canplaythrough: () => emit({ type: 'canplaythrough' }),
    playing: () => emit({ type: 'playing' }),
    pause: () => {
      // WebKit starts a video with sound without a gesture, then pauses it once it finds the sound:
      // the ad goes on muted, as where play() is refused outright.
      // Measured in the ad's time, not the clock's: a busy machine finds the sound later.
      if (playAskedAt >= 0 && !video.muted && !video.ended && video.currentTime - playAskedAt < REFUSAL_WINDOW_S) {
        playAskedAt = -1;
        video.muted = true;
        void tryPlay().then((ok) => emit(ok && !video.paused ? { type: 'volume', volume: 0 } : { type: 'pause', ended: false }));
        return;
      }
      emit({ type: 'pause', ended: video.ended });
    },
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

  /** With sound first; refused, muted (SPEC §2 offers the ad's volume button to unmute). */
  async function play(): Promise<boolean> {
    playAskedAt = video.currentTime;
    // Asked before the source is set: start() plays.
    if (!sourceSet) return true;
    if (await tryPlay()) return true;
    if (video.muted) return false;
    video.muted = true;
    if (await tryPlay()) {
      emit({ type: 'volume', volume: 0 });
      return true;
    }
    video.muted = volume === 0;
    return false;
  }

  return {
    el: video,
    async takePip() {
      video.disablePictureInPicture = false;
      await video.requestPictureInPicture?.().catch((err) => console.warn('[player] ad pip refused', err));
    },
    start() {
      video.src = url;
      sourceSet = true;
      if (playAskedAt >= 0) void play();
    },
    play,
    pause() {
      playAskedAt = -1;
      video.pause();
    },
    setVolume(v) {
      volume = v;
      video.volume = v;
      video.muted = v === 0;
    },
    skip() {
      playAskedAt = -1;
      video.pause();
    },
    destroy() {
      playAskedAt = -1;
      for (const [name, fn] of Object.entries(listeners)) video.removeEventListener(name, fn);
      video.pause();
      video.removeAttribute('src');
      video.load();
      video.remove();
    },
  };
}
