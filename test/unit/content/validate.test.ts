import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readAvailability, readContent, readEpisodes, readSeasons } from '../../../src/content/validate';
import { quiet } from '../fakes';

const NASTY: unknown[] = [undefined, null, 0, 1, NaN, '', 'ru', '[]', [], {}, [null], [1, 'x'], { length: 3 }, true];

test('content: a well-formed answer is kept field for field', () => {
  const c = readContent(
    {
      id: 1,
      title: 'Фильм',
      posterUrl: '/p.jpg',
      contentType: { slug: 'film' },
      kinopoiskId: 42,
      year: 2024,
      countries: [{ slug: 'ru' }, { slug: 'kz' }],
      languages: [{ code: 'ru' }],
      rating: { kinopoisk: { value: 7.5 }, imdb: { value: 7.1, url: 'https://imdb/x' } },
      hasMultipleEpisodes: false,
      extra: 'ignored',
    },
    1,
  );
  assert.equal(c, {
    id: 1,
    title: 'Фильм',
    posterUrl: '/p.jpg',
    contentType: { slug: 'film' },
    kinopoiskId: 42,
    year: 2024,
    countries: [{ slug: 'ru' }, { slug: 'kz' }],
    languages: [{ code: 'ru' }],
    rating: { kinopoisk: { value: 7.5 }, imdb: { value: 7.1, url: 'https://imdb/x' } },
    hasMultipleEpisodes: false,
  });
});

test('content: wrong types are dropped field by field (countries "ru" no longer breaks analytics)', () => {
  const c = readContent(
    { id: '1', title: 5, posterUrl: {}, contentType: 'film', kinopoiskId: {}, year: '2024', countries: 'ru', languages: [{ code: 1 }, 'en', { code: 'en' }], rating: 'good', hasMultipleEpisodes: 'yes' },
    7,
  );
  assert.is(c.id, 7, 'the movie_id asked for');
  assert.is(c.title, '');
  assert.is(c.posterUrl, null);
  assert.is(c.contentType, null);
  assert.is(c.kinopoiskId, null);
  assert.is(c.year, null);
  assert.equal(c.countries, []);
  assert.equal(c.languages, [{ code: 'en' }]);
  assert.equal(c.rating, { kinopoisk: { value: null }, imdb: { value: null, url: null } });
  assert.is(c.hasMultipleEpisodes, false);
});

test('content: an answer that is not an object is a failed load', () => {
  for (const raw of [undefined, null, 'ru', 1, [], [{}], true]) assert.throws(() => readContent(raw, 1), String(raw));
  for (const raw of [{}, { countries: null, rating: null }]) assert.is(readContent(raw, 3).id, 3);
});

test('seasons: only entries with numeric id and order', () => {
  assert.equal(readSeasons([{ id: 1, order: 2, title: 'Второй' }, { id: '2', order: 1 }, null, { id: 3 }, { id: 4, order: 1, title: 9 }]), [
    { id: 1, order: 2, title: 'Второй' },
    { id: 4, order: 1, title: undefined },
  ]);
  for (const raw of NASTY) assert.equal(readSeasons(raw).length, 0, String(raw));
});

test('episodes: playable ones are kept (id, order, source), the rest defaulted; junk dropped', () => {
  const list = readEpisodes(
    [
      { id: 1, order: 1, m3u8MasterFilePath: '/a.m3u8', title: 'A', season: { id: 10, order: 1 }, isCompleted: true, episodeVariants: [{ id: 5, title: 'Ориг.', filepath: '/v.m3u8' }] },
      { id: 2, order: 2, m3u8MasterFilePath: '  ', title: 'no source' },
      { id: 3, order: 'x', m3u8MasterFilePath: '/c.m3u8' },
      { id: 4, order: 3, m3u8MasterFilePath: '/d.m3u8', season: 'one', title: null, episodeVariants: [{ id: 6, filepath: '' }, { id: '7', filepath: '/x' }, null, { id: 8, filepath: '/e.m3u8' }] },
      null,
      'episode',
    ],
    9,
  );
  assert.equal(list.map((e) => e.id), [1, 4]);
  assert.equal(list[0].episodeVariants, [{ id: 5, title: 'Ориг.', filepath: '/v.m3u8' }]);
  assert.is(list[0].isCompleted, true);
  assert.is(list[1].season, null, 'a season that is not an object');
  assert.is(list[1].title, '');
  assert.is(list[1].contentId, 9);
  assert.equal(list[1].episodeVariants, [{ id: 8, title: '', filepath: '/e.m3u8' }], 'a variant without an address never plays the API base');
  for (const raw of NASTY) assert.equal(readEpisodes(raw, 1).length, 0, String(raw));
});

test('availability: absent means available (SPEC §4); booleans and their spellings; anything else is not available', async () => {
  const cases: Array<[unknown, boolean]> = [
    [undefined, true],
    [null, true],
    [{}, true],
    [{ available: null }, true],
    [{ available: true }, true],
    [{ available: false }, false],
    [{ available: 'false' }, false],
    [{ available: ' TRUE ' }, true],
    [{ available: 1 }, true],
    [{ available: 0 }, false],
    [true, true],
    [false, false],
  ];
  for (const [raw, want] of cases) assert.is(readAvailability(raw), want, JSON.stringify(raw));
  await quiet(() => {
    for (const raw of ['ru', [], [true], 2, { available: 'yes' }, { available: {} }, { available: [] }, { available: 2 }])
      assert.is(readAvailability(raw), false, `fails closed: ${JSON.stringify(raw)}`);
  });
});

test.run();
