// Lazy piece "requests": the viewer's requests that never come before the interface does (seeking,
// volume, tracks, fullscreen, picture-in-picture, cast), off the critical path. The entry loads it at
// start and forwards those requests to it (requests.ts), synchronously once it is here.
import type { LaterRequestDeps, LaterRequests } from '../core/requests';
import { createFullscreen } from './fullscreen';
import { createSeekThrottle } from './seek-throttle';

export function createLaterRequests(d: LaterRequestDeps): LaterRequests {
  const { store, media, ready } = d;
  const seeks = createSeekThrottle((to) => ready()?.seek(to));
  const fullscreen = createFullscreen(store, d.bus, d.fullscreenMode);
  return {
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
    setVolume(volume) {
      // SPEC §5: a value that is not a number is ignored with a warning.
      if (!Number.isFinite(volume)) return void console.warn('[player] volume is not a number', volume);
      ready()?.setVolume(volume);
      if (volume > 0 && store.muted.value) media()?.setMuted(false);
    },
    toggleFullscreen: () => fullscreen.toggle(d.container()),
    togglePip: () => ready()?.togglePip(),
    cast: () => media()?.cast() ?? Promise.resolve(false),
    airplay: () => ready()?.airplay(),
    cancelSeeks: seeks.cancel,
    dispose() {
      seeks.dispose();
      fullscreen.dispose();
    },
  };
}
