// Media session: title, episode, poster artwork; play, pause, ±10 s and seekto; the
// position state follows the media. Browsers without it are left alone.
import { effect } from '@preact/signals-core';
import type { PlayerApi } from '../core/player-api';
import { SKIP_S } from './keyboard';
import { ruUi } from '../i18n/ru-ui';

/**
 * Seconds buffered ahead before the poster becomes the artwork (or the film is buffered to its end):
 * setting it has the browser fetch it (Chromium twice, the second from its cache when it may keep it),
 * and right after the first frame that fetch shared a slow link with the fragments due next
 * (docs/performance.md "The artwork after the start").
 */
const ARTWORK_AHEAD_S = 10;

export function bindMediaSession(player: PlayerApi, nav: Navigator = navigator): () => void {
  const session = nav.mediaSession;
  if (!session || typeof MediaMetadata === 'undefined') return () => {};
  const { store, requests } = player;
  const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
    ['play', () => requests.play('user')],
    ['pause', () => requests.pause('user')],
    ['seekbackward', (d) => requests.seekBy(-(d.seekOffset || SKIP_S))],
    ['seekforward', (d) => requests.seekBy(d.seekOffset || SKIP_S)],
    ['seekto', (d) => d.seekTime !== undefined && requests.seek(d.seekTime)],
  ];
  // The ad runner turns seeking off while an ad plays (SPEC §2 ad media session); it comes back after.
  const stopHandlers = effect(() => {
    if (store.adState.value === 'ready') return;
    for (const [action, fn] of handlers) {
      try {
        session.setActionHandler(action, fn);
      } catch {
        // An action this browser does not know.
      }
    }
  });
  // What this piece last set: set again only when it changed or an ad's replaced it, since each set
  // has the browser fetch the artwork again (tens of kB each time, on the start's link).
  let ours: MediaMetadata | undefined;
  let shown = '';
  let artworkShown = '';
  const stopMeta = effect(() => {
    const content = store.content.value;
    const episode = store.episode.value;
    // An ad on shows its own (ads/ad-media-session.ts); this piece can load while one plays (with
    // autoplay it waits for the first frame, a pre-roll's included): the content's comes after it.
    if (!content || store.adState.value === 'ready') return;
    const poster = store.poster.value;
    if (poster && poster !== artworkShown) {
      const end = store.bufferedEnd.value;
      if (end - store.currentTime.value >= ARTWORK_AHEAD_S || (end > 0 && end >= store.duration.value - 0.5)) artworkShown = poster;
    }
    const series = content.hasMultipleEpisodes && episode?.season;
    const init: MediaMetadataInit = {
      title: series && episode.title ? episode.title : content.title,
      artist: series ? ruUi.seasonEpisode(episode.season!.order, episode.order) : '',
      album: content.title,
      artwork: poster && poster === artworkShown ? [{ src: new URL(poster, location.href).href }] : [],
    };
    const key = JSON.stringify(init);
    if (session.metadata === ours && key === shown) return;
    session.metadata = ours = new MediaMetadata(init);
    shown = key;
  });
  const stopState = effect(() => {
    const duration = store.duration.value;
    const position = store.currentTime.value;
    const playbackRate = store.playbackRate.value;
    session.playbackState = store.paused.value ? 'paused' : 'playing';
    if (!(duration > 0) || !session.setPositionState) return;
    try {
      session.setPositionState({ duration, position: Math.min(position, duration), playbackRate });
    } catch {
      // Out-of-range values during a source switch; the next update corrects it.
    }
  });
  return () => {
    stopHandlers();
    stopMeta();
    stopState();
    for (const [action] of handlers) {
      try {
        session.setActionHandler(action, null);
      } catch {
        // As above.
      }
    }
  };
}
