import type { Cause } from '../core/bus';
import type { Episode } from '../core/entities';
import type { Requests } from '../core/player-api';
import type { Store } from '../core/store';
import type { createFullscreen } from './fullscreen';
import type { createPlayback } from './playback';
import type { createSeekThrottle } from './seek-throttle';

export interface RequestDeps {
  store: Store;
  playback: ReturnType<typeof createPlayback>;
  seeks: ReturnType<typeof createSeekThrottle>;
  fullscreen: ReturnType<typeof createFullscreen>;
  adHolds(): boolean;
  /** Loads an episode's source (content session); startAt as in SPEC §3. */
  loadEpisode(episode: Episode, startAt?: number): void;
  /** Switches to another source of the same episode, keeping the time (descriptor audio). */
  setSource(url: string, startAt: number): void;
  /** Marks a variant switch (bus content:variant-changed) before its source loads. */
  variantChanged(episode: Episode, variantId: number): boolean;
  retry(): void;
}

/** The requests of the player contract, turned into media calls (DESIGN "Requests, not writes"). */
export function createRequests(d: RequestDeps): Requests {
  const { store, playback, seeks } = d;
  const { media, ready } = playback;
  // SPEC §4: moving between episodes and variants only while the content is available.
  const canSwitch = () => store.isAvailable.value && !store.error.value;

  const requests: Requests = {
    play(cause: Cause = 'user') {
      if (store.error.value) return;
      store.playRequested.value = true;
      const m = media();
      if (!m || !store.sourceUrl.value || d.adHolds()) return;
      void m.play(cause).then((ok) => {
        if (!ok) store.playRequested.value = false;
      });
    },
    pause(cause: Cause = 'user') {
      store.playRequested.value = false;
      media()?.pause(cause);
    },
    togglePlay(cause: Cause = 'user') {
      // The element's state, not the store's: a second press right after a play() would read 'paused'.
      const m = media();
      if (!store.started.value || (m ? m.isPaused() : store.paused.value)) requests.play(cause);
      else requests.pause(cause);
    },
    seek: (time) => seeks.request(time),
    seekBy: (delta) => seeks.by(delta, store.currentTime.value),
    setPlaybackRate(rate) {
      if (Number.isFinite(rate) && rate > 0) ready()?.setPlaybackRate(rate);
    },
    setQuality: (level) => ready()?.setQuality(level),
    setAudioTrack(id) {
      const sources = store.descriptor.value?.sources ?? [];
      if (sources.length < 2) return ready()?.setAudioTrack(id);
      const source = sources[id];
      if (!source || source.link === store.sourceUrl.value) return;
      // Keeps the current time and resumes once the new source can play (SPEC §4).
      if (!store.paused.value) store.playRequested.value = true;
      d.setSource(source.link, store.currentTime.value);
    },
    setAudioGain(gain) {
      if (Number.isFinite(gain) && gain > 0) ready()?.setAudioGain(gain);
    },
    setTextTrack: (id) => ready()?.setTextTrack(id),
    selectEpisode(episode, startAt) {
      if (!canSwitch()) return false;
      store.activeVariantId.value = null;
      playback.keepPlaying();
      d.loadEpisode(episode, startAt);
      return true;
    },
    selectVariant(variantId, startAt) {
      const episode = store.episode.value;
      if (!episode || !canSwitch() || !d.variantChanged(episode, variantId)) return false;
      playback.keepPlaying();
      d.loadEpisode(episode, startAt);
      return true;
    },
    playNext() {
      const next = store.nextEpisode.peek();
      if (!next || !requests.selectEpisode(next)) return false;
      requests.play('user');
      return true;
    },
    setVolume(volume) {
      // SPEC §5: a value that is not a number is ignored with a warning.
      if (!Number.isFinite(volume)) return void console.warn('[player] volume is not a number', volume);
      ready()?.setVolume(volume);
      if (volume > 0 && store.muted.value) media()?.setMuted(false);
    },
    toggleMute: () => ready()?.toggleMute(),
    toggleFullscreen: () => d.fullscreen.toggle(),
    togglePip: () => ready()?.togglePip(),
    cast: () => media()?.cast() ?? Promise.resolve(false),
    airplay: () => ready()?.airplay(),
    retry: d.retry,
  };
  return requests;
}
