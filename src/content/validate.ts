// The catalogue's answers, checked once where they come in (SPEC §3 entities): a field of the wrong
// type is dropped or defaulted here, so nothing further in (UI, analytics, features) meets one.
import type { Content, Episode, EpisodeVariant, Season } from '../core/entities';

type Bag = Record<string, unknown>;
const bag = (v: unknown): Bag | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Bag) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Objects of a list that carry a string `key`, reduced to it. */
const slugs = <K extends string>(v: unknown, key: K) =>
  list(v).flatMap((x) => {
    const value = str(bag(x)?.[key]);
    return value === undefined ? [] : [{ [key]: value } as Record<K, string>];
  });

/** The content answer; not an object at all is a failed load (the generic screen). */
export function readContent(raw: unknown, id: number): Content {
  const c = bag(raw);
  if (!c) throw new TypeError('content answer is not an object');
  const rating = bag(c.rating);
  const imdb = bag(rating?.imdb);
  const type = str(bag(c.contentType)?.slug);
  const kinopoiskId = c.kinopoiskId;
  return {
    id: num(c.id) ?? id,
    title: str(c.title) ?? '',
    posterUrl: str(c.posterUrl) ?? null,
    contentType: type === undefined ? null : { slug: type },
    kinopoiskId: typeof kinopoiskId === 'string' || num(kinopoiskId) !== undefined ? (kinopoiskId as string | number) : null,
    year: num(c.year) ?? null,
    countries: slugs(c.countries, 'slug'),
    languages: slugs(c.languages, 'code'),
    rating: {
      kinopoisk: { value: num(bag(rating?.kinopoisk)?.value) ?? null },
      imdb: { value: num(imdb?.value) ?? null, url: str(imdb?.url) ?? null },
    },
    hasMultipleEpisodes: c.hasMultipleEpisodes === true,
  };
}

export function readSeasons(raw: unknown): Season[] {
  return list(raw).flatMap((x) => {
    const s = bag(x);
    const id = num(s?.id);
    const order = num(s?.order);
    return id === undefined || order === undefined ? [] : [{ id, order, title: str(s?.title) }];
  });
}

function readVariant(raw: unknown): EpisodeVariant[] {
  const v = bag(raw);
  const id = num(v?.id);
  const filepath = str(v?.filepath)?.trim();
  return id === undefined || !filepath ? [] : [{ id, title: str(v?.title) ?? '', filepath }];
}

/** Episodes the player can play: an id, an order and a source address; the rest is defaulted. */
export function readEpisodes(raw: unknown, contentId: number): Episode[] {
  return list(raw).flatMap((x) => {
    const e = bag(x);
    const id = num(e?.id);
    const order = num(e?.order);
    const source = str(e?.m3u8MasterFilePath)?.trim();
    if (!e || id === undefined || order === undefined || !source) return [];
    const season = bag(e.season);
    const seasonId = num(season?.id);
    const seasonOrder = num(season?.order);
    return [
      {
        id,
        contentId: num(e.contentId) ?? contentId,
        title: str(e.title) ?? '',
        description: str(e.description) ?? null,
        duration: num(e.duration) ?? null,
        posterPath: str(e.posterPath) ?? null,
        order,
        isCompleted: e.isCompleted === true,
        season: seasonId === undefined || seasonOrder === undefined ? null : { id: seasonId, order: seasonOrder },
        m3u8MasterFilePath: source,
        episodeVariants: list(e.episodeVariants).flatMap(readVariant),
        markers: e.markers,
      },
    ];
  });
}

/**
 * SPEC §4: an absent availability answer (no body, no `available` field) means available. A boolean
 * is read as it is, and so are its common spellings ('true'/'false', 1/0) that some backends send.
 * Anything else is read as not available: a broken answer must not lift a rights holder's block.
 */
export function readAvailability(raw: unknown): boolean {
  if (raw === undefined || raw === null) return true;
  const value = bag(raw) ? (raw as Bag).available : raw;
  if (value === undefined || value === null) return bag(raw) !== undefined;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'true' || text === 'false') return text === 'true';
  console.warn('[player] availability answer not understood, read as not available', raw);
  return false;
}
