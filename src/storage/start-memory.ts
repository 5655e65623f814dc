// Where each title last started on this device: what the engine asked for first, so a returning
// viewer's bootstrap can ask for the same at once, before the catalogue has answered. Kept in the
// viewer's memory (storage/memory.ts) under STARTS_KEY, written by features/start-memory.ts; the
// stored value is anything a page or an older build left there: every entry is checked as it is
// read. Apart from memory.ts: the inline bootstrap and the features piece use this module and the
// entry does not.
import { STARTS_KEY } from '../core/memory-protocol';
import { recall } from './memory';

export interface StartMemory {
  /** The title: the movie id of the query. */
  movie: number;
  episode: number;
  /** The episode variant played; null when the episode has none. */
  variant: number | null;
  /** The master playlist's address the episode played from. */
  master: string;
  /** Where it started (s): the segments are this position's. */
  at: number;
  /** The media playlists the engine asked for first (the variant's, the audio's), in order. */
  playlists: string[];
  /** The init segments and first fragments it asked for, in order. */
  segments: string[];
}

const MAX_TITLES = 10;
const MAX_PLAYLISTS = 3;
const MAX_SEGMENTS = 4;

const isId = (v: unknown): v is number => Number.isSafeInteger(v);
const isUrl = (v: unknown): v is string => typeof v === 'string' && v.length <= 2048 && /^https?:\/\/[^\s]+$/.test(v);
const urls = (v: unknown, max: number): boolean => Array.isArray(v) && v.length <= max && v.every(isUrl);

/** The entry as stored, or undefined when any field is not what this build writes. */
function readStart(v: unknown): StartMemory | undefined {
  const s = (v ?? {}) as Record<string, unknown>;
  const valid =
    isId(s.movie) &&
    isId(s.episode) &&
    (s.variant === null || isId(s.variant)) &&
    isUrl(s.master) &&
    typeof s.at === 'number' &&
    s.at >= 0 &&
    s.at < 1e7 &&
    urls(s.playlists, MAX_PLAYLISTS) &&
    urls(s.segments, MAX_SEGMENTS);
  return valid ? (s as unknown as StartMemory) : undefined;
}

/** Every valid entry, newest first. */
function readStarts(): StartMemory[] {
  const v = recall(STARTS_KEY);
  return Array.isArray(v) ? v.slice(0, MAX_TITLES).flatMap((s) => readStart(s) ?? []) : [];
}

/** Where `movie` last started on this device, if it did. */
export const recallStart = (movie: number): StartMemory | undefined => readStarts().find((s) => s.movie === movie);

/** The starts with `start` as its title's newest, first of at most MAX_TITLES; undefined when `start` is not one this build keeps. */
export function withStart(start: StartMemory): StartMemory[] | undefined {
  const entry = readStart({ ...start, playlists: start.playlists.slice(0, MAX_PLAYLISTS), segments: start.segments.slice(0, MAX_SEGMENTS) });
  return entry && [entry, ...readStarts().filter((s) => s.movie !== entry.movie)].slice(0, MAX_TITLES);
}
