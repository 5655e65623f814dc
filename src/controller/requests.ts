import type { Cause } from '../core/bus';
import type { Episode } from '../core/entities';
import type { LaterRequestName, LaterRequests, Requests } from '../core/requests';
import type { Store } from '../core/store';
import type { createPlayback } from './playback';

export interface RequestDeps {
  store: Store;
  playback: ReturnType<typeof createPlayback>;
  adHolds(): boolean;
  /** Loads an episode's source (content session); startAt as in SPEC §3. */
  loadEpisode(episode: Episode, startAt?: number): void;
  /** Marks a variant switch (bus content:variant-changed) before its source loads. */
  variantChanged(episode: Episode, variantId: number): boolean;
  retry(): void;
  /** The lazy piece `requests` once it is here (later-requests.ts)… */
  later(): LaterRequests | undefined;
  /** …and its load (once; a failed load is tried again at the next request). */
  loadLater(): Promise<LaterRequests>;
}

// The requests no one makes before the interface is up: answered by the lazy piece `requests`.
const LATER = 'seek seekBy setPlaybackRate setQuality setAudioTrack setAudioGain setTextTrack setVolume toggleFullscreen togglePip cast airplay'.split(
  ' ',
) as LaterRequestName[];

/** The requests of the player contract, turned into media calls (DESIGN "Requests, not writes"). */
export function createRequests(d: RequestDeps): Requests {
  const { store, playback } = d;
  const { media } = playback;
  // SPEC §4: moving between episodes and variants only while the content is available.
  const canSwitch = () => store.isAvailable.value && !store.error.value;
  // Synchronous once the piece is here: fullscreen, picture-in-picture and cast need the click's
  // user activation. Before that (a request in the first moments), it runs when the piece arrives.
  const forward =
    (name: LaterRequestName) =>
    (...args: unknown[]): unknown => {
      const call = (r: LaterRequests) => (r[name] as (...a: unknown[]) => unknown)(...args);
      const later = d.later();
      return later ? call(later) : d.loadLater().then(call, (err) => console.warn('[player] piece requests failed to load', err));
    };

  const requests: Requests = {
    ...(Object.fromEntries(LATER.map((name) => [name, forward(name)])) as Pick<Requests, LaterRequestName>),
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
    toggleMute: () => playback.ready()?.toggleMute(),
    retry: d.retry,
  };
  return requests;
}
