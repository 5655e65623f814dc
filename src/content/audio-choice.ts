import type { MediaTrack } from '../core/tracks';

export interface AudioPreferences {
  /** SPEC §3 favoriteAudioTracks: the label the viewer chose for this content. */
  saved?: string;
  /** The voice_author query parameter. */
  voiceAuthor?: string;
  /** lang_order: preferred languages, most wanted first. */
  langOrder: readonly string[];
}

// 'ru' and 'rus', 'en' and 'eng' name the same language: playlists and partners mix ISO 639-1 and -2.
export const sameLanguage = (a: string, b: string) => {
  const x = a.trim().toLowerCase();
  const y = b.trim().toLowerCase();
  return x !== '' && (x === y || (x.length >= 2 && y.length >= 2 && x.slice(0, 2) === y.slice(0, 2)));
};

const isAc3 = (t: MediaTrack) => /(^|[^a-z0-9])ac-?3([^a-z0-9]|$)/i.test(t.label) || /^ac-?3$/i.test(t.codec ?? '');

/** SPEC §4 streaming case: tracks labelled AC3 are dropped, preferred-language tracks come first. */
export function orderAudioTracks(tracks: readonly MediaTrack[], langOrder: readonly string[]): MediaTrack[] {
  const rank = (t: MediaTrack) => {
    const i = langOrder.findIndex((l) => sameLanguage(l, t.language));
    return i < 0 ? langOrder.length : i;
  };
  return tracks
    .filter((t) => !isAc3(t))
    .map((t, i) => ({ t, i, r: rank(t) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.t);
}

/**
 * What the viewer may choose among (the menu, the SDK): the tracks by the rule above, plus the one
 * playing (`playing`, an id) if the rule dropped it; all of them when it drops every one.
 */
export function audioChoiceTracks(tracks: readonly MediaTrack[], playing: number, langOrder: readonly string[]): MediaTrack[] {
  const kept = orderAudioTracks(tracks, langOrder);
  const current = tracks.find((t) => t.id === playing);
  if (current && kept.length && !kept.includes(current)) kept.push(current);
  return kept.length ? kept : [...tracks];
}

/**
 * SPEC §4 streaming case: the saved label, else the track matching the voice author, else the first
 * in preferred-language order (the stream's DEFAULT flag plays no part: SPEC names it only for
 * descriptor sources).
 */
export function chooseAudioTrack(tracks: readonly MediaTrack[], prefs: AudioPreferences): MediaTrack | undefined {
  const list = orderAudioTracks(tracks, prefs.langOrder);
  const voice = prefs.voiceAuthor?.trim().toLowerCase();
  return (
    (prefs.saved !== undefined ? list.find((t) => t.label === prefs.saved) : undefined) ??
    (voice ? list.find((t) => t.label.toLowerCase().includes(voice)) : undefined) ??
    list[0]
  );
}
