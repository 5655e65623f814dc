// Lazy widget "extras": picture-in-picture, cast (Remote Playback API) and AirPlay on the <video>,
// and the way to the subtitle-file and audio-gain pieces (part of the media provider, the only code
// that touches it), off the critical path. Missing APIs are logged, never thrown (SPEC §8).
import type { CueBinding, Extras } from '../core/extras-contract';
import type { PieceLoader, PieceModules } from '../core/player-api';
import type { Store } from '../core/store';
import type { PresentationVideo } from './capabilities';

type Video = PresentationVideo & {
  remote?: { prompt(): Promise<void> };
  webkitShowPlaybackTargetPicker?(): void;
};

type AudioGain = NonNullable<ReturnType<PieceModules['audio-gain']['createAudioGain']>>;

export function bindExtras(video: Video, store: Store, load: PieceLoader): Extras {
  let cues: Promise<CueBinding> | undefined;
  let gainNode: Promise<AudioGain | undefined> | undefined;
  const on: Record<string, (e: Event) => void> = {
    enterpictureinpicture: () => (store.pip.value = true),
    leavepictureinpicture: () => {
      store.pip.value = false;
      video.disablePictureInPicture = true;
    },
    webkitpresentationmodechanged: () => (store.pip.value = video.webkitPresentationMode === 'picture-in-picture'),
    webkitplaybacktargetavailabilitychanged: (e) =>
      (store.airplay.value = (e as Event & { availability?: string }).availability === 'available'),
  };
  for (const [name, fn] of Object.entries(on)) video.addEventListener(name, fn);
  return {
    showSubtitles(id) {
      // The subtitle reader loads with the first subtitle choice (subtitles start off).
      (cues ??= load('cues').then((m) => m.bindCues(video, store)))
        .then((c) => c.showExternal(id, store.descriptor.value?.subtitles ?? []))
        .catch((err) => console.warn('[player] subtitles module failed to load', err));
    },
    resetSubtitles: () => void cues?.then((c) => c.reset()),
    setGain(gain) {
      // The piece says 'audio gain api not available' where Web Audio is missing (the menu hides gain there).
      (gainNode ??= load('audio-gain').then((m) => m.createAudioGain(video)))
        .then((node) => {
          node?.set(gain);
          if (node) store.gain.value = gain;
        })
        .catch((err) => {
          gainNode = undefined;
          console.warn('[player] audio module failed to load', err);
        });
    },
    togglePip(): void {
      const fail = () => console.warn('[player] no pip support');
      if (!document.pictureInPictureEnabled && video.webkitSupportsPresentationMode?.('picture-in-picture')) {
        return video.webkitSetPresentationMode?.(video.webkitPresentationMode === 'picture-in-picture' ? 'inline' : 'picture-in-picture');
      }
      if (!document.pictureInPictureEnabled || !video.requestPictureInPicture) return fail();
      if (document.pictureInPictureElement) return void document.exitPictureInPicture().catch(fail);
      // Off (ui/player.ts) so that the engine's own toggle over the picture takes no clicks; our button asks.
      video.disablePictureInPicture = false;
      video.requestPictureInPicture().catch((err) => {
        video.disablePictureInPicture = true;
        fail();
        console.warn(err);
      });
    },
    /**
     * Takes picture-in-picture back from the ad that borrowed it. Without a user gesture this only
     * works while another element still holds the window, so it runs before the ad's goes away.
     */
    async takePip(): Promise<void> {
      if (!document.pictureInPictureElement || document.pictureInPictureElement === video) return;
      video.disablePictureInPicture = false;
      await video.requestPictureInPicture().catch((err) => {
        video.disablePictureInPicture = true;
        console.warn('[player] no pip support', err);
      });
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
      void cues?.then((c) => c.dispose());
      for (const [name, fn] of Object.entries(on)) video.removeEventListener(name, fn);
    },
  };
}
