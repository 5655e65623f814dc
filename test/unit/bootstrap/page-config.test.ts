// What the bootstrap starts the catalogue calls with, and when it leaves them to the entry; and the
// page's config as the bootstrap and the entry both read it (one reading: the same addresses).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { earlyCatalogue, readPageConfig } from '../../../src/bootstrap/page-config';
import { readEmbedConfig } from '../../../src/config/embed-config';
import { writeCookie } from '../../../src/storage/write-cookie';
import { installDom } from '../dom';
import { jwt } from '../api/jwt';

const PAGE = 'https://player.example/player/?movie_id=7&lang_order=en,ru';
const g = globalThis as Record<string, unknown>;
const config = (search: string, dataset: Record<string, string> = {}) =>
  readEmbedConfig({ datasets: [dataset], globals: {}, search, scriptUrl: 'https://cdn.example/p/boot.js' });

test.before.each(() => {
  const window = installDom(PAGE);
  Object.defineProperty(g, 'location', { value: window.location, configurable: true, writable: true });
});
test.after.each(() => {
  document.cookie = 'authToken=; path=/; max-age=0';
});
test.after(() => {
  delete g.location;
});

test('no token or an unexpired one: the calls start, against the page origin unless a base is configured', () => {
  assert.equal(earlyCatalogue(config('?movie_id=7')), { apiBase: 'https://player.example', movieId: 7 });
  writeCookie('authToken', jwt({ exp: Math.floor(Date.now() / 1000) + 60 }));
  assert.equal(earlyCatalogue(config('?movie_id=7', { env_base_url: 'https://api.example' })), { apiBase: 'https://api.example', movieId: 7 });
});

test('an expired or unreadable token leaves the calls to the client (it refreshes under its lock)', () => {
  for (const token of [jwt({ exp: Math.floor(Date.now() / 1000) - 1 }), 'not-a-token', 'a.%%%.b']) {
    writeCookie('authToken', token);
    assert.is(earlyCatalogue(config('?movie_id=7')), undefined, token);
  }
});

test('no movie id, or one that is not a positive integer: nothing to start', () => {
  for (const search of ['', '?movie_id=', '?movie_id=abc', '?movie_id=-3']) assert.is(earlyCatalogue(config(search)), undefined, search);
});

test("the page config: the mount element's data attributes and the query, the asset base from the script; a cross-origin frame is no error", () => {
  const mount = document.createElement('div');
  mount.dataset.env_ad_list_url = 'https://ads.example/list.json';
  const read = readPageConfig(mount as unknown as HTMLElement, 'https://cdn.example/player/boot-X.js');
  assert.is(read.movieId, 7);
  assert.equal(read.langOrder, ['en', 'ru']);
  assert.is(read.envAdListUrl, 'https://ads.example/list.json');
  assert.is(read.assetBase, 'https://cdn.example/player/');
  assert.equal(readPageConfig(null, 'https://cdn.example/player/main-Y.js'), { ...read, envAdListUrl: undefined });
  // Embedded by another origin, reading frameElement throws (a SecurityError in browsers).
  Object.defineProperty(window, 'frameElement', {
    configurable: true,
    get() {
      throw new Error('SecurityError');
    },
  });
  assert.is(readPageConfig(mount as unknown as HTMLElement, 'https://cdn.example/player/boot-X.js').envAdListUrl, 'https://ads.example/list.json');
});

test.run();
