// Lazy widget "cues": reads the active subtitle cues into the store so the UI can render them above
// the controls. Native rendering is hidden (mode 'hidden' still delivers cues and cuechange).
import type { CueBinding } from '../core/extras-contract';
import type { Store } from '../core/store';
import { EXTERNAL_TRACK_BASE } from '../core/tracks';


const isText = (t: TextTrack) => t.kind === 'subtitles' || t.kind === 'captions';
const plain = (text: string) => text.replace(/<[^>]*>/g, '');

export function bindCues(video: HTMLVideoElement, store: Store): CueBinding {
  const watched = new WeakSet<TextTrack>();
  let elements: HTMLTrackElement[] = [];

  const read = () => {
    const texts: string[] = [];
    for (const track of Array.from(video.textTracks)) {
      if (!isText(track)) continue;
      if (track.mode === 'showing') track.mode = 'hidden';
      if (track.mode !== 'hidden') continue;
      for (const cue of Array.from(track.activeCues ?? [])) texts.push(plain((cue as VTTCue).text));
    }
    store.cues.value = texts;
  };
  const scan = () => {
    for (const track of Array.from(video.textTracks)) {
      if (!watched.has(track)) {
        watched.add(track);
        track.addEventListener('cuechange', read);
      }
    }
    read();
  };
  video.textTracks.addEventListener('addtrack', scan);
  video.textTracks.addEventListener('change', read);
  scan();

  return {
    /** Shows one of the descriptor's files (an id from externalTracks) or none (-1). */
    showExternal(id, subs) {
      if (!elements.length && id >= EXTERNAL_TRACK_BASE) {
        elements = subs.map((s) => {
          const el = document.createElement('track');
          el.kind = 'subtitles';
          el.label = s.label;
          el.srclang = s.language;
          el.src = s.src;
          video.appendChild(el);
          return el;
        });
      }
      elements.forEach((el, i) => (el.track.mode = EXTERNAL_TRACK_BASE + i === id ? 'hidden' : 'disabled'));
      read();
    },
    /** A new source: the old files go. */
    reset() {
      elements.forEach((el) => el.remove());
      elements = [];
      read();
    },
    dispose() {
      this.reset();
      video.textTracks.removeEventListener('addtrack', scan);
      video.textTracks.removeEventListener('change', read);
    },
  };
}
