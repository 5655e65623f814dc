import { effect } from '@preact/signals-core';
import { audioChoiceTracks, sameLanguage } from '../content/audio-choice';
import { fail } from '../core/embed-protocol';
import type { PlayerParts } from '../core/player-api';
import { RATES } from '../core/tracks';

/** What remote.ts lends: its confirmation wait (rejecting on a fatal error, a deadline, dispose) and its event stream. */
export interface RemoteTools {
  until<T>(done: () => T | undefined | false): Promise<T>;
  emit(name: string, data: unknown): void;
}

interface Choice {
  /** The engine's id (requests.setAudioTrack / setTextTrack take it). */
  id: number;
  label: string;
  language: string;
  active: boolean;
}

/** An SDK argument of ours is a short string; a page may post anything. */
const text = (v: unknown, what: string) => {
  if (typeof v !== 'string' || !v || v.length > 64) throw fail('bad-arguments', `${what} is a string`);
  return v;
};
const publicTrack = ({ label, language, active }: Choice) => ({ label, language, active });

/**
 * The partner SDK's tracks (docs/embedding.md "Tracks"): quality, audio, subtitles, speed, the
 * series. Each command is a request (the viewer's own, so audio-memory.ts remembers an audio choice
 * as it does the menu's), confirmed by what the engine then reports in the store; each change, the
 * menu's or the SDK's, is an event.
 */
export function attachRemoteTracks({ store, requests, config }: PlayerParts, { until, emit }: RemoteTools) {
  // The stream's renditions and tracks are in the store by the time the media knows its duration.
  const loaded = () => store.duration.value > 0;
  const ready = () => until(loaded);

  const levels = () => [...store.qualities.value].sort((a, b) => b.height - a.height || b.bitrate - a.bitrate);
  const quality = () => ({ height: store.qualities.value.find((l) => l.id === store.level.value)?.height ?? null, auto: store.quality.value < 0 });
  /** SPEC §4: with a descriptor of several sources the sources are the audio choice. */
  const audio = (): Choice[] => {
    const sources = store.descriptor.value?.sources ?? [];
    if (sources.length > 1) return sources.map((s, id) => ({ id, label: s.label, language: '', active: s.link === store.sourceUrl.value }));
    const playing = store.audioTrack.value;
    return audioChoiceTracks(store.audioTracks.value, playing, config.langOrder).map((t) => ({ id: t.id, label: t.label, language: t.language, active: t.id === playing }));
  };
  const subtitles = (): Choice[] =>
    store.textTracks.value.map((t) => ({ id: t.id, label: t.label, language: t.language, active: t.id === store.textTrack.value }));
  const subtitleState = () => {
    const on = subtitles().find((t) => t.active);
    return { language: on ? on.language : 'off', label: on ? on.label : null };
  };
  const audioState = () => {
    const on = audio().find((t) => t.active);
    return on && { label: on.label, language: on.language };
  };

  const run: Record<string, (params: unknown) => unknown> = {
    getQualities: () => ({ ...quality(), levels: levels().map(({ height, width, bitrate }) => ({ height, width, bitrate })) }),
    async setQuality(want) {
      if (want !== 'auto' && !(Number.isSafeInteger(want) && (want as number) > 0)) throw fail('bad-arguments', "quality is 'auto' or a height");
      await ready();
      const level = want === 'auto' ? -1 : levels().find((l) => l.height === want)?.id;
      if (level === undefined) throw fail('quality-not-found', `no ${want}p quality in this stream`);
      requests.setQuality(level);
      // A fixed level is confirmed when it plays (hls.js's LEVEL_SWITCHED), auto when the engine chooses.
      await until(() => (level < 0 ? store.quality.value < 0 : store.level.value === level && store.quality.value === level));
    },
    getAudioTracks: () => audio().map(publicTrack),
    async setAudioTrack(label) {
      const want = text(label, 'label');
      await ready();
      const track = audio().find((t) => t.label === want);
      if (!track) throw fail('audio-track-not-found', `no audio track '${want}'`);
      // A descriptor's source is confirmed once the new one has loaded: its address comes a moment
      // before the old one's duration goes, which is no confirmation.
      let reloaded = track.active || (store.descriptor.peek()?.sources.length ?? 0) < 2;
      requests.setAudioTrack(track.id);
      await until(() => {
        if (!loaded()) reloaded = true;
        return reloaded && loaded() && audioState()?.label === want;
      });
    },
    getSubtitles: () => subtitles().map(publicTrack),
    async setSubtitles(language) {
      const want = text(language, 'language');
      await ready();
      const id = want === 'off' ? -1 : subtitles().find((t) => sameLanguage(t.language, want))?.id;
      if (id === undefined) throw fail('subtitles-not-found', `no '${want}' subtitles for this episode`);
      requests.setTextTrack(id);
      await until(() => store.textTrack.value === id);
    },
    getPlaybackRate: () => store.playbackRate.peek(),
    async setPlaybackRate(rate) {
      if (!RATES.includes(rate as number)) throw fail('bad-arguments', `rate is one of ${RATES.join(', ')}`);
      // Not before: loading a source resets the element's rate.
      await ready();
      requests.setPlaybackRate(rate as number);
      await until(() => store.playbackRate.value === rate);
    },
    getSeasons: () => until(() => !store.loading.value && store.seasons.value),
    getEpisodes: () => until(() => !store.loading.value && store.episodes.value),
  };

  /** Emits `name` whenever `read()` gives another value than it last did (the first one only sets it). */
  const changes = (name: string, read: () => unknown) => {
    let last: string | undefined;
    return effect(() => {
      const value = read();
      const json = value === undefined ? undefined : JSON.stringify(value);
      if (json === undefined || json === last) return;
      if (last !== undefined) emit(name, value);
      last = json;
    });
  };
  // While a source loads, its tracks are not known yet: no change to report.
  const offs = [
    changes('qualityChanged', () => {
      const q = quality();
      // A fixed choice is reported once it plays, not when it is asked for.
      return loaded() && q.height !== null && (q.auto || store.level.value === store.quality.value) ? q : undefined;
    }),
    changes('audioTrackChanged', () => (loaded() ? audioState() : undefined)),
    changes('subtitlesChanged', () => (loaded() ? subtitleState() : undefined)),
    changes('playbackRateChanged', () => ({ playbackRate: store.playbackRate.value })),
  ];
  return { run, dispose: () => offs.forEach((off) => off()) };
}
