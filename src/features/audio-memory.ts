import { effect } from '@preact/signals-core';
import { chooseAudioTrack } from '../content/audio-choice';
import type { Descriptor } from '../core/entities';
import type { MediaTrack } from '../core/tracks';
import type { PlayerParts } from '../core/player-api';
import { AUDIO_KEY, recallMap } from '../storage/memory';
import { rememberEntry } from '../storage/remember';

/**
 * SPEC §3/§4 favoriteAudioTracks. Streaming case: when a track list arrives, the chosen track
 * (saved, voice author, preferred language, default, first) is asked for. Any later switch is the
 * viewer's and is remembered for the content; the descriptor case (one source per audio, chosen by
 * the controller with the saved label) is remembered the same way when the source changes.
 */
export function attachAudioMemory({ store, requests, config }: PlayerParts): () => void {
  const contentId = () => store.content.peek()?.id ?? config.movieId;
  const save = (label: string) => {
    const id = contentId();
    if (id !== undefined && label) rememberEntry(AUDIO_KEY, id, label);
  };
  const savedLabel = () => {
    const id = contentId();
    const v = id === undefined ? undefined : recallMap(AUDIO_KEY)[id];
    return typeof v === 'string' ? v : undefined;
  };

  let tracksSeen: MediaTrack[] = [];
  let expected = -1;
  // Until the engine confirms our choice, its switches are its own (e.g. to the default first).
  let settled = false;
  const stopTracks = effect(() => {
    const tracks = store.audioTracks.value;
    const active = store.audioTrack.value;
    if (tracks !== tracksSeen) {
      tracksSeen = tracks;
      // With several descriptor sources the sources are the audio choice (requests.setAudioTrack
      // takes a source index then); the controller already picked one with the saved label.
      if (!tracks.length || (store.descriptor.peek()?.sources.length ?? 0) > 1) return;
      const pick = chooseAudioTrack(tracks, {
        saved: savedLabel(),
        voiceAuthor: config.query.voiceAuthor,
        langOrder: config.langOrder,
      });
      expected = pick ? pick.id : active;
      settled = expected === active;
      if (!settled) requests.setAudioTrack(expected);
      return;
    }
    if (active === expected) settled = true;
    if (!settled || active < 0 || active === expected) return;
    expected = active;
    const label = tracks.find((t) => t.id === active)?.label;
    if (label) save(label);
  });

  let descriptor: Descriptor | null = null;
  let sourceLabel: string | undefined;
  const stopSources = effect(() => {
    const d = store.descriptor.value;
    const url = store.sourceUrl.value;
    const source = d?.sources.find((s) => s.link === url);
    if (!source) return;
    if (d !== descriptor) {
      descriptor = d;
      sourceLabel = source.label;
    } else if (source.label !== sourceLabel) {
      sourceLabel = source.label;
      save(source.label);
    }
  });

  return () => {
    stopTracks();
    stopSources();
  };
}
