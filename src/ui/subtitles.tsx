import type { Store } from '../core/store';

/** The chosen subtitle cues, drawn over the video; CSS lifts them while the controls show. */
export function Subtitles({ store }: { store: Store }) {
  const cues = store.cues.value;
  if (!cues.length) return null;
  return (
    <div class="pl-subs" aria-live="off">
      {cues.map((text, i) => (
        <span class="pl-subs__cue" key={i}>
          {text}
        </span>
      ))}
    </div>
  );
}
