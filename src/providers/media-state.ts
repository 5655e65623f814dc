import { batch } from '@preact/signals-core';
import type { Store } from '../core/store';
import type { MediaTrack } from '../core/tracks';

/** The end of the buffered range the playhead is in (or the last one): how far the media is in. */
export function bufferedAhead(video: HTMLVideoElement): number {
  const b = video.buffered;
  for (let i = 0; i < b.length; i++) {
    if (b.start(i) <= video.currentTime + 0.5 && b.end(i) >= video.currentTime) return b.end(i);
  }
  return b.length ? b.end(b.length - 1) : 0;
}

/** A new source: what the store knew of the old stream goes; the descriptor's own subtitle files stay offered. */
export function resetStream(store: Store, startAt: number, externalTracks: MediaTrack[]): void {
  batch(() => {
    store.started.value = false;
    store.ended.value = false;
    store.currentTime.value = startAt;
    store.duration.value = 0;
    store.bufferedEnd.value = 0;
    store.qualities.value = [];
    store.quality.value = -1;
    store.level.value = -1;
    store.audioTracks.value = [];
    store.audioTrack.value = -1;
    store.textTracks.value = externalTracks;
    store.textTrack.value = -1;
    store.cues.value = [];
    store.thumbnailsUrl.value = '';
  });
}
