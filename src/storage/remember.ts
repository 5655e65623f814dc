// The viewer's memory, written (storage/memory.ts reads it): the change goes into the page's record at
// once, then to the frame's backend, and to the partner when it keeps the record too. Apart from
// memory.ts on purpose: only lazy pieces write, and esbuild splits shared code by file, so the
// writers stay out of the critical path.
import {
  AUDIO_KEY,
  CHOSEN_KEY,
  COOKIE_FIELDS,
  MEMORY_KEYS,
  type MemoryRecord,
  PROGRESS_KEY,
  VARIANTS_KEY,
  WRITTEN_KEY,
  capRecord,
  mapOf,
} from '../core/memory-protocol';
import { readCookie } from './cookies';
import { MEMORY_COOKIE, type Memory, openMemory } from './memory';
import { writeCookie } from './write-cookie';

type Key = (typeof MEMORY_KEYS)[number];

/** The frame's localStorage keeps this many episodes' progress (the newest written), starts and JSON characters. */
const LOCAL_TITLES = 500;
const LOCAL_STARTS = 10;
const LOCAL_BYTES = 512 * 1024;
/** The partitioned cookie keeps what fits a cookie well: the last titles, no starts, this many bytes as sent. */
const COOKIE_TITLES = 5;
export const COOKIE_BYTES = 1500;
/** A year, as device_fp's (SPEC §9). */
const COOKIE_MAX_AGE = 31_536_000;

let share: ((record: MemoryRecord) => void) | undefined;
let noted = false;

/** `send` hears the whole record after every change (features/partner-memory.ts posts it to the partner). */
export function shareRecord(send: ((record: MemoryRecord) => void) | undefined): void {
  share = send;
}

function pageOnly(memory: Memory, err?: unknown): void {
  memory.backend = 'page';
  if (!noted) console.info("[player] this frame's storage is blocked: the viewer's volume, audio and progress last only as long as this page", err ?? '');
  noted = true;
}

function writeLocal(memory: Memory, keys: Key[], storage?: Storage): void {
  const capped = capRecord(memory.record, LOCAL_TITLES, LOCAL_STARTS, LOCAL_BYTES);
  try {
    storage ??= localStorage;
    for (const key of keys) {
      const value = capped[key];
      if (value === undefined) storage.removeItem(key);
      else storage.setItem(key, JSON.stringify(value));
    }
  } catch (err) {
    // A full quota: this write is lost, the next may fit; the page keeps the record meanwhile.
    console.warn('[player] local storage refused the write', err);
  }
}

/** The cookie's value for `record`: what fits, under short names. */
export function cookieValue(record: MemoryRecord): string {
  for (let titles = COOKIE_TITLES; ; titles--) {
    const capped = capRecord(record, titles, 0, COOKIE_BYTES);
    const short: Record<string, unknown> = {};
    for (const [name, key] of COOKIE_FIELDS) if (capped[key] !== undefined) short[name] = capped[key];
    const value = JSON.stringify(short);
    // As sent: percent-encoded (storage/write-cookie.ts), where a Cyrillic letter takes six bytes.
    if (titles <= 0 || encodeURIComponent(value).length <= COOKIE_BYTES) return value;
  }
}

function writeMemoryCookie(memory: Memory): void {
  const value = cookieValue(memory.record);
  // On the page's own path: the assets and media beside it are asked for without it (docs/embedding.md).
  writeCookie(MEMORY_COOKIE, value, { maxAge: COOKIE_MAX_AGE, path: document.location.pathname });
  if (readCookie(MEMORY_COOKIE) !== value) pageOnly(memory);
}

function persist(memory: Memory, keys: Key[]): void {
  if (memory.backend === 'local') writeLocal(memory, keys);
  else if (memory.backend === 'cookie') writeMemoryCookie(memory);
  else pageOnly(memory);
  // Beside the backend, not instead: the next page sees the granted storage only if it asks again
  // (on a click), and reads its own backend until then.
  if (memory.granted) writeLocal(memory, keys, memory.granted);
  if (memory.partner && share) {
    try {
      share(memory.record);
    } catch (err) {
      console.warn('[player] the record did not reach the partner', err);
    }
  }
}

/** Remembers `value` under `key` (undefined forgets it). */
export function remember(key: Exclude<Key, typeof PROGRESS_KEY | typeof WRITTEN_KEY>, value: unknown): void {
  const memory = openMemory();
  memory.record[key] = value;
  persist(memory, [key]);
}

/** Remembers `value` for the title `id` in a map (favoriteAudioTracks, episodeVariants), stamped now: the caps keep the latest chosen. */
export function rememberEntry(key: typeof AUDIO_KEY | typeof VARIANTS_KEY, id: number | string, value: unknown, now = Date.now()): void {
  const memory = openMemory();
  memory.record[key] = { ...mapOf(memory.record[key]), [id]: value };
  memory.record[CHOSEN_KEY] = { ...mapOf(memory.record[CHOSEN_KEY]), [id]: now };
  persist(memory, [key, CHOSEN_KEY]);
}

/** Remembers an episode's progress map entry (content/progress.ts withProgress builds `progress`), stamped now. */
export function rememberProgress(episodeId: number, progress: Record<string, unknown>, now = Date.now()): void {
  const memory = openMemory();
  memory.record[PROGRESS_KEY] = progress;
  memory.record[WRITTEN_KEY] = { ...mapOf(memory.record[WRITTEN_KEY]), [episodeId]: now };
  persist(memory, [PROGRESS_KEY, WRITTEN_KEY]);
}

/**
 * The page's record copied into `storage`, a storage the browser has just given access to, which then
 * keeps every later change beside the frame's own backend; false (logged) when it refuses the record.
 */
export function moveRecordTo(storage: Storage): boolean {
  const memory = openMemory();
  try {
    storage.setItem(WRITTEN_KEY, JSON.stringify(mapOf(memory.record[WRITTEN_KEY])));
  } catch (err) {
    console.warn('[player] the granted storage refused the record', err);
    return false;
  }
  memory.granted = storage;
  writeLocal(memory, [...MEMORY_KEYS], storage);
  return true;
}

