// The viewer's memory as one record (docs/embedding.md "What the viewer's browser remembers"), shared
// by the player's store (storage/) and the partner SDK's store (embed/): its keys are SPEC §3's own, so
// the frame's localStorage keeps them as it always did, and a partner's page keeps the same record
// under one key of its own. Pure, imports nothing: the SDK bundle takes nothing else of the player.

/** SPEC §3 keys, exactly, and the player's own beside them. */
export const PROGRESS_KEY = 'episodesTimeProgress';
export const VARIANTS_KEY = 'episodeVariants';
export const AUDIO_KEY = 'favoriteAudioTracks';
export const VOLUME_KEY = 'player-volume';
export const MUTED_KEY = 'player-muted';
/** When each episode's progress was last written or forgotten (ms since epoch): the newest wins. */
export const WRITTEN_KEY = 'player-progress-at';
/** When each title's audio or variant was last chosen (ms since epoch): the caps keep the latest. */
export const CHOSEN_KEY = 'player-chosen-at';
/** Where each title last started (storage/start-memory.ts). */
export const STARTS_KEY = 'player-starts';
/** How the viewer likes subtitles drawn on this device: a SubtitleStyle (below). */
export const SUBTITLES_KEY = 'player-subtitles';

export const MEMORY_KEYS = [PROGRESS_KEY, VARIANTS_KEY, AUDIO_KEY, VOLUME_KEY, MUTED_KEY, WRITTEN_KEY, CHOSEN_KEY, STARTS_KEY, SUBTITLES_KEY] as const;

/** Key → value; every value is checked where it is read, as anything a page or an older build left. */
export type MemoryRecord = Partial<Record<(typeof MEMORY_KEYS)[number], unknown>>;

/** The partner's record, handed to the frame in its address: `#memory=<encodeURIComponent(JSON)>`. */
export const MEMORY_HASH = 'memory';
/** The frame's record for the partner's store: an `embed-player` envelope of this type, payload the record. */
export const MEMORY_MESSAGE = 'memory';
/** The partner page's own localStorage key for the record. */
export const PARTNER_KEY = 'embed-player-memory';

/** Caps of a record handed over or kept by a partner: titles (progress, audio, variants, starts), JSON characters. */
export const PARTNER_TITLES = 50;
export const PARTNER_STARTS = 5;
export const PARTNER_BYTES = 16 * 1024;
/** The longest subtitle style's JSON, with room to spare: {"size":"medium","color":"yellow","background":"shaded"}. */
const STYLE_CHARS = 80;

/** `v` when it is a plain object, else an empty one. */
export const mapOf = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The value `text` holds as JSON, or undefined when there is none or it is not JSON. */
export function parseJson(text: string | null | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The record in `text` (JSON), or undefined when it is not a JSON object. */
export function parseRecord(text: string | null | undefined): MemoryRecord | undefined {
  const v = parseJson(text);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as MemoryRecord) : undefined;
}

/** The partitioned cookie's record: short names for what fits (storage/ writes it, reads it back). */
export const COOKIE_FIELDS = [
  ['p', PROGRESS_KEY],
  ['t', WRITTEN_KEY],
  ['e', VARIANTS_KEY],
  ['a', AUDIO_KEY],
  ['v', VOLUME_KEY],
  ['m', MUTED_KEY],
  ['c', CHOSEN_KEY],
  ['y', SUBTITLES_KEY],
] as const;

/** Only a map's own entries: an id such as 'toString' or '__proto__' is data, never Object.prototype's. */
const own = (map: object, id: string): boolean => Object.prototype.hasOwnProperty.call(map, id);

const when = (r: MemoryRecord, id: string, key: typeof WRITTEN_KEY | typeof CHOSEN_KEY = WRITTEN_KEY): number => {
  const t = mapOf(r[key])[id];
  return typeof t === 'number' && Number.isFinite(t) ? t : 0;
};

/**
 * `older` and `newer` as one: `newer`'s volume, mute, starts, subtitle style and map entries win;
 * each episode's progress comes from whichever record wrote it last (a forgotten episode, watched to
 * the end, counts as written then); on a tie, from `newer` when it has the episode.
 */
export function mergeRecords(older: MemoryRecord, newer: MemoryRecord): MemoryRecord {
  const merged: MemoryRecord = { ...older };
  for (const key of MEMORY_KEYS) if (newer[key] !== undefined) merged[key] = newer[key];
  for (const key of [VARIANTS_KEY, AUDIO_KEY, CHOSEN_KEY] as const) merged[key] = { ...mapOf(older[key]), ...mapOf(newer[key]) };
  const before = mapOf(older[PROGRESS_KEY]);
  const after = mapOf(newer[PROGRESS_KEY]);
  const progress: Record<string, unknown> = { ...after };
  const written: Record<string, unknown> = { ...mapOf(newer[WRITTEN_KEY]) };
  for (const id of Object.keys({ ...before, ...mapOf(older[WRITTEN_KEY]) })) {
    const t = when(older, id);
    const u = when(newer, id);
    if (t > u || (t === u && !own(after, id))) {
      if (own(before, id)) progress[id] = before[id];
      else delete progress[id];
      if (t) written[id] = t;
    }
  }
  merged[PROGRESS_KEY] = progress;
  merged[WRITTEN_KEY] = written;
  return merged;
}

/**
 * The record within `titles` episodes' progress (the newest written kept), `titles` titles' audio
 * and variant choices (the latest chosen), `starts` starts, and `bytes` JSON characters (the oldest
 * progress dropped first, then the starts, then the oldest choices). Only MEMORY_KEYS are kept, and a
 * subtitle style only when it is short enough to be one; a record nothing of which fits keeps only a
 * valid volume and mute, and the subtitle style.
 */
export function capRecord(record: MemoryRecord, titles = PARTNER_TITLES, starts = PARTNER_STARTS, bytes = PARTNER_BYTES): MemoryRecord {
  const progress = mapOf(record[PROGRESS_KEY]);
  const ids = [...new Set([...Object.keys(progress), ...Object.keys(mapOf(record[WRITTEN_KEY]))])].sort((x, y) => when(record, y) - when(record, x));
  const capped: MemoryRecord = {};
  for (const key of MEMORY_KEYS) if (record[key] !== undefined) capped[key] = record[key];
  const keep = (n: number) => {
    const kept = ids.slice(0, n);
    capped[PROGRESS_KEY] = Object.fromEntries(kept.filter((id) => own(progress, id)).map((id) => [id, progress[id]]));
    capped[WRITTEN_KEY] = Object.fromEntries(kept.filter((id) => when(record, id)).map((id) => [id, when(record, id)]));
  };
  const chosen = [...new Set([...Object.keys(mapOf(record[AUDIO_KEY])), ...Object.keys(mapOf(record[VARIANTS_KEY]))])].sort(
    (x, y) => when(record, y, CHOSEN_KEY) - when(record, x, CHOSEN_KEY),
  );
  const keepChoices = (n: number) => {
    const kept = chosen.slice(0, n);
    for (const key of [AUDIO_KEY, VARIANTS_KEY] as const) {
      const map = mapOf(record[key]);
      capped[key] = Object.fromEntries(kept.filter((id) => own(map, id)).map((id) => [id, map[id]]));
    }
    capped[CHOSEN_KEY] = Object.fromEntries(kept.filter((id) => when(record, id, CHOSEN_KEY)).map((id) => [id, when(record, id, CHOSEN_KEY)]));
  };
  let n = Math.min(ids.length, titles);
  let choices = Math.min(chosen.length, titles);
  keep(n);
  keepChoices(choices);
  capped[STARTS_KEY] = Array.isArray(record[STARTS_KEY]) ? (record[STARTS_KEY] as unknown[]).slice(0, starts) : [];
  // A style is three short words: anything longer is not one, and would only crowd the rest out.
  if (JSON.stringify(capped[SUBTITLES_KEY] ?? '').length > STYLE_CHARS) delete capped[SUBTITLES_KEY];
  const size = () => JSON.stringify(capped).length;
  while (size() > bytes) {
    if (n > 0) keep(--n);
    else if ((capped[STARTS_KEY] as unknown[]).length) capped[STARTS_KEY] = (capped[STARTS_KEY] as unknown[]).slice(0, -1);
    else if (choices > 0) keepChoices(--choices);
    else {
      const kept: MemoryRecord = typeof capped[VOLUME_KEY] === 'number' ? { [VOLUME_KEY]: capped[VOLUME_KEY], [MUTED_KEY]: capped[MUTED_KEY] === true } : {};
      if (capped[SUBTITLES_KEY] !== undefined) kept[SUBTITLES_KEY] = capped[SUBTITLES_KEY];
      return kept;
    }
  }
  return capped;
}

/** The subtitle style's choices, field by field; the viewer picks one of each in the subtitles menu. */
export const SUBTITLE_CHOICES = {
  size: ['small', 'medium', 'large'],
  color: ['white', 'yellow'],
  background: ['none', 'shaded', 'solid'],
} as const;

export type SubtitleStyle = { -readonly [F in keyof typeof SUBTITLE_CHOICES]: (typeof SUBTITLE_CHOICES)[F][number] };

/** What shows until the viewer chooses: the size, colour and shade subtitles always had. */
export const DEFAULT_SUBTITLE_STYLE: SubtitleStyle = { size: 'medium', color: 'white', background: 'shaded' };

/** The style `value` holds (a remembered one): each field one of its choices, anything else the default. */
export function readSubtitleStyle(value: unknown): SubtitleStyle {
  const map = mapOf(value);
  const style: Record<string, unknown> = { ...DEFAULT_SUBTITLE_STYLE };
  for (const [field, choices] of Object.entries(SUBTITLE_CHOICES)) if (own(map, field) && (choices as readonly unknown[]).includes(map[field])) style[field] = map[field];
  return style as SubtitleStyle;
}
