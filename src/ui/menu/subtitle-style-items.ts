// The subtitles page's style choices: size, colour and background, one group each, after the tracks.
import { DEFAULT_SUBTITLE_STYLE, SUBTITLE_CHOICES, type SubtitleStyle, readSubtitleStyle } from '../../core/memory-protocol';
import type { PlayerApi } from '../../core/player-api';
import { ruUi } from '../../i18n/ru-ui';

type Store = PlayerApi['store'];
type Field = keyof SubtitleStyle;
/** menu-items.ts MenuGroup's shape (that module imports this one). */
type StyleGroup = { label: string; items: Array<{ value: string; label: string; checked: boolean }> };

const FIELDS = Object.keys(SUBTITLE_CHOICES) as Field[];

/** One group per field, its choices' values `field:choice` (data-menu-item), the current one checked. */
export function subtitleStyleGroups(store: Store): StyleGroup[] {
  const style = store.subtitleStyle.value ?? DEFAULT_SUBTITLE_STYLE;
  return FIELDS.map((field) => {
    const labels: Record<string, string> = ruUi.subsStyle[field];
    return {
      label: labels.title,
      items: SUBTITLE_CHOICES[field].map((choice) => ({ value: `${field}:${choice}`, label: labels[choice], checked: style[field] === choice })),
    };
  });
}

/** Sets the style field a `field:choice` value names; false when `value` names none (a track id). */
export function pickSubtitleStyle(store: Store, value: string): boolean {
  const [field, choice, ...rest] = value.split(':');
  if (rest.length || !FIELDS.includes(field as Field) || !(SUBTITLE_CHOICES[field as Field] as readonly string[]).includes(choice)) return false;
  store.subtitleStyle.value = readSubtitleStyle({ ...(store.subtitleStyle.peek() ?? DEFAULT_SUBTITLE_STYLE), [field]: choice });
  return true;
}
