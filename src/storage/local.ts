// Local storage, every access guarded: a sandboxed frame or disabled storage throws on the mere
// property read, and a full quota throws on write. SPEC §8: storage failures are only logged.

/** SPEC §3 keys, exactly. */
export const PROGRESS_KEY = 'episodesTimeProgress';
export const VARIANTS_KEY = 'episodeVariants';
export const AUDIO_KEY = 'favoriteAudioTracks';
export const VOLUME_KEY = 'player-volume';
export const MUTED_KEY = 'player-muted';

let warned = false;
const warn = (err: unknown) => {
  if (!warned) console.warn('[player] local storage unavailable', err);
  warned = true;
};

/** The parsed JSON value under key, or undefined when absent, unreadable or not JSON. */
export function readStored(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? undefined : JSON.parse(raw);
  } catch (err) {
    warn(err);
    return undefined;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (err) {
    warn(err);
  }
}

/** A stored id → value map (SPEC §3 favoriteAudioTracks, episodeVariants, episodesTimeProgress). */
export function readMap(key: string): Record<string, unknown> {
  const v = readStored(key);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
