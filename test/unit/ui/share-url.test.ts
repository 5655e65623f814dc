import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shareAddress, socialLinks } from '../../../src/ui/share-url';
import { ep } from '../content/fixtures';

const s2e3 = ep(206, 2, 3);
const film = ep(101, null, 1);

test('season-N/episode-N path segments take the episode season and order', () => {
  assert.is(
    shareAddress('https://site.ru/series/dark/season-1/episode-2', s2e3),
    'https://site.ru/series/dark/season-2/episode-3',
  );
  assert.is(shareAddress('https://site.ru/season-10/episode-12/', s2e3), 'https://site.ru/season-2/episode-3/');
});

test('only whole season-N/episode-N segments are rewritten; nothing is added to a path without them', () => {
  assert.is(shareAddress('https://site.ru/watch/show', s2e3), 'https://site.ru/watch/show');
  assert.is(
    shareAddress('https://site.ru/preseason-1/episode-x/my-episode-4', s2e3),
    'https://site.ru/preseason-1/episode-x/my-episode-4',
  );
});

test('the query is kept byte for byte', () => {
  assert.is(
    shareAddress('https://site.ru/season-1/episode-1?movie_id=2&utm=a+b&flag', s2e3),
    'https://site.ru/season-2/episode-3?movie_id=2&utm=a+b&flag',
  );
});

test('with the time code option: t in rounded seconds, an older t replaced, the rest kept', () => {
  assert.is(shareAddress('https://site.ru/season-1/episode-1', s2e3, 12.4), 'https://site.ru/season-2/episode-3?t=12');
  assert.is(shareAddress('https://site.ru/season-1/episode-1', s2e3, 12.5), 'https://site.ru/season-2/episode-3?t=13');
  assert.is(
    shareAddress('https://site.ru/p/?movie_id=2&t=5&x=1', s2e3, 3725.6),
    'https://site.ru/p/?movie_id=2&x=1&t=3726',
  );
  assert.is(shareAddress('https://site.ru/p/?movie_id=2#frag', s2e3, 0), 'https://site.ru/p/?movie_id=2&t=0#frag');
});

test('without the option a t already in the query stays, none is added', () => {
  assert.is(shareAddress('https://site.ru/p/?t=5', s2e3), 'https://site.ru/p/?t=5');
  assert.is(shareAddress('https://site.ru/p/?a=1', s2e3, undefined), 'https://site.ru/p/?a=1');
  assert.is(shareAddress('https://site.ru/p/?a=1', s2e3, Number.NaN), 'https://site.ru/p/?a=1');
});

test('no season order: nothing is added or changed, with or without the time code', () => {
  const href = 'https://site.ru/film/season-1/episode-9?movie_id=1';
  assert.is(shareAddress(href, film), href);
  assert.is(shareAddress(href, film, 42), href);
  assert.is(shareAddress(href, null, 42), href);
  assert.is(shareAddress(href, undefined), href);
});

test('an unparsable address is returned as it is', () => {
  assert.is(shareAddress('not a url', s2e3, 5), 'not a url');
});

test('five networks, every parameter encoded', () => {
  const link = 'https://site.ru/season-2/episode-3?movie_id=2&t=12';
  const links = socialLinks(link, 'Сериал, 2 сезон & 3 серия');
  assert.equal(links.map((l) => l.id), ['telegram', 'whatsapp', 'vk', 'ok', 'mymail']);
  for (const l of links) {
    const u = new URL(l.href);
    assert.is(u.protocol, 'https:');
    const carried = u.searchParams.get('url') ?? u.searchParams.get('text');
    assert.ok(carried?.includes(link), `${l.id} carries the whole link`);
  }
  assert.is(new URL(links[0].href).searchParams.get('text'), 'Сериал, 2 сезон & 3 серия');
  assert.is(new URL(links[2].href).searchParams.get('title'), 'Сериал, 2 сезон & 3 серия');
  assert.is(new URL(links[1].href).searchParams.get('text'), `Сериал, 2 сезон & 3 серия ${link}`);
  assert.not.match(links[2].href, /&t=12/, 'the inner query does not leak into the share query');
});

test.run();
