import type { Cause } from '../core/bus';
import type { Store } from '../core/store';
import { type MediaCapabilities, pickEngine } from '../providers/engine';
import type { Media } from '../providers/media-contract';
import { type StartCache, prefetchPlaylists } from '../providers/playlist-prefetch';
import { autoplay } from './autoplay';

interface Source {
  url: string;
  startAt: number;
  prefetched?: StartCache;
}

/**
 * The content's media once the UI attached it: sources go to it (or wait for it), and autoplay or a
 * play asked for earlier starts once the source is set and no ad holds the content.
 */
export function createPlayback(store: Store, caps: MediaCapabilities, autoPlay: boolean, adHolds: () => boolean) {
  let media: Media | undefined;
  let pending: Source | undefined;
  let loaded: Source | undefined;
  let sourceReady = false;
  let autoplayPending = autoPlay;

  function setSource(url: string, startAt: number, prefetched?: StartCache): void {
    store.sourceUrl.value = url;
    // Playlists are fetched the moment the address is known, while hls.js itself still downloads.
    prefetched ??= pickEngine(url, caps) === 'hls' ? prefetchPlaylists(url) : undefined;
    if (!media) {
      pending = { url, startAt, prefetched };
      return;
    }
    loaded = { url, startAt, prefetched };
    sourceReady = false;
    void media.load(url, startAt, prefetched).then(() => {
      sourceReady = true;
      startIfAsked('user');
    });
  }

  function startIfAsked(cause: Cause): void {
    if (!media || !sourceReady || adHolds() || store.error.peek()) return;
    if (autoplayPending) {
      autoplayPending = false;
      void autoplay(media, store);
    } else if (store.playRequested.value) {
      // After an ad the viewer's click is long gone: an engine may refuse the film's sound (WebKit).
      if (cause === 'ad') void autoplay(media, store, cause);
      else void media.play(cause);
    }
  }

  return {
    /** The media, when the UI has attached it. */
    media: () => media,
    /** The media for a viewer's request; before the UI attached it, SPEC §8 'media not ready' is logged. */
    ready: (): Media | undefined => media ?? void console.warn('[player] media not ready'),
    attach(m: Media): void {
      media = m;
      if (pending) {
        const p = pending;
        pending = undefined;
        setSource(p.url, p.startAt, p.prefetched);
      }
    },
    setSource,
    /** The source last handed to the media, with its prefetch (what the engine asked it for). */
    loaded: () => loaded,
    startIfAsked,
    /** Autoplay (auto_play) has yet to start the content. */
    autoplayPending: () => autoplayPending,
    /** A viewer who switches source while watching (or at the end of an episode) keeps watching. */
    keepPlaying(): void {
      if (!store.paused.value || store.ended.value) store.playRequested.value = true;
    },
  };
}
