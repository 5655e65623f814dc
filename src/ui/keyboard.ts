// Keyboard shortcuts (docs/embedding.md "What the viewer gets"): space/k play-pause, arrows seek 10 s and volume 5 %,
// m mute, f fullscreen, c subtitles, 0-9 jump to 0-90 %.

/** SPEC §9 skip step: 10 s either way (buttons, keys, double taps, media session). */
export const SKIP_S = 10;
const VOLUME_STEP = 0.05;

export type KeyAction =
  | { type: 'toggle-play' }
  | { type: 'seek-by'; seconds: number }
  | { type: 'volume-by'; delta: number }
  | { type: 'mute' }
  | { type: 'fullscreen' }
  | { type: 'subtitles' }
  | { type: 'jump'; fraction: number };

export function keyAction(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }): KeyAction | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  switch (key) {
    case ' ':
    case 'k':
    case 'л':
      return { type: 'toggle-play' };
    case 'ArrowLeft':
      return { type: 'seek-by', seconds: -SKIP_S };
    case 'ArrowRight':
      return { type: 'seek-by', seconds: SKIP_S };
    case 'ArrowUp':
      return { type: 'volume-by', delta: VOLUME_STEP };
    case 'ArrowDown':
      return { type: 'volume-by', delta: -VOLUME_STEP };
    case 'm':
    case 'ь':
      return { type: 'mute' };
    case 'f':
    case 'а':
      return { type: 'fullscreen' };
    case 'c':
    case 'с':
      return { type: 'subtitles' };
  }
  if (/^[0-9]$/.test(key)) return { type: 'jump', fraction: Number(key) / 10 };
  return undefined;
}

/** What `keptByTarget` reads of a key event's target. */
export interface KeyTarget {
  localName?: string;
  type?: string;
  isContentEditable?: boolean;
}

/**
 * Whether the focused element keeps `key` for itself: a field being typed in (the share popup's link,
 * for one) keeps every key, a slider its arrows, a button space and Enter. By tag, not `instanceof`, as
 * the partner SDK does (embed/sdk.ts: WebKit may build a wrapper in another realm). The player's own
 * inputs are made by its script, so their wrappers are its realm's; the tag keeps this testable alone.
 */
export function keptByTarget(t: KeyTarget, key: string): boolean {
  if (t.isContentEditable === true || t.localName === 'textarea') return true;
  if (t.localName === 'input') return t.type !== 'range' || key.startsWith('Arrow');
  return t.localName === 'button' && (key === ' ' || key === 'Enter');
}
