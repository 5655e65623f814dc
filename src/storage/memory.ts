// The viewer's memory (SPEC §3 "saved on the device"), read: one record (core/memory-protocol.ts) from
// the first backend of this frame that works, merged with the partner's record when the partner keeps
// one (docs/embedding.md "What the viewer's browser remembers"). Read once a page, synchronously, so
// the bootstrap's start decision waits for nothing; storage/remember.ts writes it back.
// Every access is guarded: a frame whose storage the browser blocks throws on the mere property read,
// a sandboxed one on document.cookie, and a page left anything in the keys (each value is checked
// where it is read). SPEC §8: storage failures are only logged.
import { COOKIE_FIELDS, MEMORY_HASH, MEMORY_KEYS, type MemoryRecord, mapOf, mergeRecords, parseJson, parseRecord } from '../core/memory-protocol';
import { readCookie } from './cookies';

export { AUDIO_KEY, MUTED_KEY, PROGRESS_KEY, VARIANTS_KEY, VOLUME_KEY } from '../core/memory-protocol';

/** Where this frame keeps the record: its localStorage, a partitioned cookie, or only this page's life. */
export type Backend = 'local' | 'cookie' | 'page';

export interface Memory {
  record: MemoryRecord;
  backend: Backend;
  /** The partner keeps the record too (SDK `memory: 'partner'`): every change goes to it as well. */
  partner: boolean;
  /** Storage the browser granted on a click (features/storage-access.ts): written too. */
  granted?: Storage;
}

/** The partitioned cookie's name (storage/remember.ts writes it, on the page's own path only). */
export const MEMORY_COOKIE = 'player-memory';

/**
 * The page's one memory, on the global object: the bootstrap and the entry share this module's
 * instance, but a lazy piece bundles its own copy (build.mjs), and every copy must read and write the
 * same record.
 */
const SLOT = '__playerMemory';
const page = globalThis as { [SLOT]?: Memory };

function readLocal(): MemoryRecord | undefined {
  try {
    const record: MemoryRecord = {};
    for (const key of MEMORY_KEYS) {
      const value = parseJson(localStorage.getItem(key));
      if (value !== undefined) record[key] = value;
    }
    return record;
  } catch (err) {
    console.warn('[player] local storage unavailable', err);
    return undefined;
  }
}

function readCookieRecord(): MemoryRecord {
  const stored = mapOf(parseJson(readCookie(MEMORY_COOKIE)));
  const record: MemoryRecord = {};
  for (const [short, key] of COOKIE_FIELDS) if (stored[short] !== undefined) record[key] = stored[short];
  return record;
}

/**
 * The partner's record, handed in the address's hash, which is then taken off the address: it goes no
 * further (a share link, an error report).
 */
function partnerRecord(): MemoryRecord | undefined {
  try {
    const handed = new URLSearchParams(location.hash.slice(1)).get(MEMORY_HASH);
    if (handed === null) return;
    history.replaceState(history.state, '', location.pathname + location.search);
    const record = parseRecord(handed);
    if (!record) console.warn('[player] a malformed memory record: ignored');
    return record ?? {};
  } catch {
    // No address to read (not a browser page): no partner.
  }
}

/** The memory of this page, opened on the first call. */
export function openMemory(): Memory {
  if (page[SLOT]) return page[SLOT];
  const local = readLocal();
  const own = local ?? readCookieRecord();
  const partner = partnerRecord();
  return (page[SLOT] = { record: partner ? mergeRecords(own, partner) : own, backend: local ? 'local' : 'cookie', partner: !!partner });
}

/** The value remembered under `key` (undefined when none). */
export const recall = (key: (typeof MEMORY_KEYS)[number]): unknown => openMemory().record[key];

/** A remembered id → value map (favoriteAudioTracks, episodeVariants, episodesTimeProgress). */
export const recallMap = (key: (typeof MEMORY_KEYS)[number]): Record<string, unknown> => mapOf(recall(key));
