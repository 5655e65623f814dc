import type { Store } from '../core/store';

/**
 * The chosen subtitle cues, drawn over the video in the viewer's style (size, colour, background: CSS
 * reads the data attributes, the default where one is absent); CSS lifts them while the controls show.
 */
export function Subtitles({ store }: { store: Store }) {
  const cues = store.cues.value;
  const style = store.subtitleStyle.value;
  if (!cues.length) return null;
  return (
    <div class="pl-subs" aria-live="off" data-size={style?.size} data-color={style?.color} data-background={style?.background}>
      {cues.map((text, i) => (
        <span class="pl-subs__cue" key={i}>
          {text}
        </span>
      ))}
    </div>
  );
}
