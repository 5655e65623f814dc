import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQuery } from '../../../src/config/query';

test('every query parameter of SPEC §2', () => {
  const q = parseQuery(
    '?movie_id=2&disable_checking_available&episode_id=204&season=2&episode=3&auto_play=1&user_id=u-7' +
      '&voice_author=%D0%94%D1%83%D0%B1%D0%BB%D1%8F%D0%B6&t=125&episode_time=30.5&enabled_share&episode_variant_id=2032' +
      '&lang_order=ru&lang_order=en',
  );
  assert.equal(q, {
    movieId: 2,
    disableCheckingAvailable: true,
    episodeId: 204,
    season: 2,
    episode: 3,
    autoPlay: true,
    userId: 'u-7',
    voiceAuthor: 'Дубляж',
    timeCode: 125,
    episodeTime: 30,
    enabledShare: true,
    episodeVariantId: 2032,
    langOrder: ['ru', 'en'],
  });
});

test('defaults when nothing is given', () => {
  assert.equal(parseQuery(''), {
    movieId: undefined,
    disableCheckingAvailable: false,
    episodeId: undefined,
    season: undefined,
    episode: undefined,
    autoPlay: false,
    userId: undefined,
    voiceAuthor: undefined,
    timeCode: undefined,
    episodeTime: undefined,
    enabledShare: false,
    episodeVariantId: undefined,
    langOrder: [],
  });
});

test('episode defaults to 1 when only season is given', () => {
  assert.is(parseQuery('?season=2').episode, 1);
  assert.is(parseQuery('?season=2&episode=').episode, 1);
  assert.is(parseQuery('?episode=3').episode, 3);
  assert.is(parseQuery('?episode=3').season, undefined);
});

test('malformed values give no value', () => {
  const q = parseQuery('?movie_id=abc&episode_id=1.5&season=-1&t=1:30&episode_time=ten&episode_variant_id=%zz');
  assert.is(q.movieId, undefined);
  assert.is(q.episodeId, undefined);
  assert.is(q.season, undefined);
  assert.is(q.timeCode, undefined);
  assert.is(q.episodeTime, undefined);
  assert.is(q.episodeVariantId, undefined);
  assert.is(parseQuery('?movie_id=').movieId, undefined);
  assert.is(parseQuery('?movie_id=1&movie_id=2').movieId, 1);
  assert.is(parseQuery('movie_id=5').movieId, 5, 'without the leading ?');
});

test('lang_order repeated or comma separated, blanks dropped', () => {
  assert.equal(parseQuery('?lang_order=ru,en&lang_order=&lang_order=de').langOrder, ['ru', 'en', 'de']);
});

test('auto_play and flags', () => {
  assert.ok(parseQuery('?auto_play').autoPlay);
  assert.not.ok(parseQuery('?auto_play=0').autoPlay);
  assert.not.ok(parseQuery('?auto_play=false').autoPlay);
  assert.ok(parseQuery('?disable_checking_available=0').disableCheckingAvailable, 'presence is what counts (SPEC §2)');
});

test.run();
