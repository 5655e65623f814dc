// Lazy widget "extras": picture-in-picture, cast (Remote Playback API) and AirPlay on the <video>
// (part of the media provider, the only code that touches it). Missing APIs are logged, never
// thrown (SPEC §8).
import type { Extras } from '../core/player-api';
import type { Store } from '../core/store';

type Video = HTMLVideoElement & {
  remote?: { prompt(): Promise<void> };
  webkitShowPlaybackTargetPicker?(): void;
};

export function bindExtras(video: Video, store: Store): Extras {
  const on: Record<string, (e: Event) => void> = {
    enterpictureinpicture: () => (store.pip.value = true),
    leavepictureinpicture: () => (store.pip.value = false),
    webkitplaybacktargetavailabilitychanged: (e) =>
      (store.airplay.value = (e as Event & { availability?: string }).availability === 'available'),
  };
  for (const [name, fn] of Object.entries(on)) video.addEventListener(name, fn);
  return {
    togglePip(): void {
      const fail = () => console.warn('[player] no pip support');
      if (!document.pictureInPictureEnabled || !video.requestPictureInPicture) return fail();
      (document.pictureInPictureElement ? document.exitPictureInPicture() : video.requestPictureInPicture()).catch(fail);
    },
    /**
     * Takes picture-in-picture back from the ad that borrowed it. Without a user gesture this only
     * works while another element still holds the window, so it runs before the ad's goes away.
     */
    async takePip(): Promise<void> {
      if (document.pictureInPictureElement && document.pictureInPictureElement !== video)
        await video.requestPictureInPicture().catch((err) => console.warn('[player] no pip support', err));
    },
    /** false: the browser offers no cast (SPEC §8 'Cast not available.'). */
    async cast(): Promise<boolean> {
      try {
        if (!video.remote) throw new Error('no RemotePlayback');
        await video.remote.prompt();
        return true;
      } catch (err) {
        console.warn('[player] Cast not available.', err);
        return false;
      }
    },
    airplay(): void {
      video.webkitShowPlaybackTargetPicker?.();
    },
    dispose(): void {
      for (const [name, fn] of Object.entries(on)) video.removeEventListener(name, fn);
    },
  };
}
