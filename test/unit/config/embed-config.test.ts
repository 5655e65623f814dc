import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readEmbedConfig } from '../../../src/config/embed-config';

const script = 'https://player.example/player/main-ABC.js';

test('defaults: same-origin API, assets next to the entry script', () => {
  const c = readEmbedConfig({ datasets: [], globals: {}, search: '?movie_id=1', scriptUrl: script });
  assert.is(c.envBaseUrl, '');
  assert.is(c.assetBase, 'https://player.example/player/');
  assert.is(c.movieId, 1);
  assert.is(c.envAdListUrl, undefined);
  assert.equal(c.langOrder, []);
  assert.is(c.requestTimeoutMs, 15000);
});

test('data attributes win over globals; both spellings of a name work', () => {
  const c = readEmbedConfig({
    datasets: [{ envBaseUrl: 'https://api.one/' }, { env_ad_list_url: 'https://ads.two/list.json' }],
    globals: { env_base_url: 'https://api.global', ENV_AD_LIST_URL: 'https://ads.global', sentry_project_label: 'web' },
    search: '',
    scriptUrl: script,
  });
  assert.is(c.envBaseUrl, 'https://api.one', 'trailing slash dropped');
  assert.is(c.envAdListUrl, 'https://ads.two/list.json');
  assert.is(c.sentryProjectLabel, 'web');
});

test('globals, upper-case too', () => {
  const c = readEmbedConfig({
    datasets: [undefined],
    globals: { FULLSCREEN_MODE: 'stretched', env_base_url: '  ' },
    search: '',
    scriptUrl: script,
  });
  assert.is(c.fullscreenMode, 'stretched');
  assert.is(c.envBaseUrl, '', 'blank values count as absent');
});

test('movie id: the global page value first, else the query', () => {
  assert.is(readEmbedConfig({ datasets: [], globals: { movie_id: 7 }, search: '?movie_id=1', scriptUrl: script }).movieId, 7);
  assert.is(readEmbedConfig({ datasets: [], globals: { movie_id: 'x' }, search: '?movie_id=1', scriptUrl: script }).movieId, 1);
  assert.is(readEmbedConfig({ datasets: [], globals: {}, search: '?movie_id=1x', scriptUrl: script }).movieId, undefined);
});

test('lang_order: query first, else the global (array or list)', () => {
  const g = { lang_order: ['en', 'ru'] };
  assert.equal(readEmbedConfig({ datasets: [], globals: g, search: '?lang_order=de', scriptUrl: script }).langOrder, ['de']);
  assert.equal(readEmbedConfig({ datasets: [], globals: g, search: '', scriptUrl: script }).langOrder, ['en', 'ru']);
  assert.equal(readEmbedConfig({ datasets: [], globals: { lang_order: 'en, ru' }, search: '', scriptUrl: script }).langOrder, ['en', 'ru']);
  assert.equal(readEmbedConfig({ datasets: [], globals: { lang_order: 42 }, search: '', scriptUrl: script }).langOrder, ['42']);
});

test('asset path override, relative or absolute, always with a trailing slash', () => {
  const rel = readEmbedConfig({ datasets: [{ player_asset_path: '/cdn/v2' }], globals: {}, search: '', scriptUrl: script });
  assert.is(rel.assetBase, 'https://player.example/cdn/v2/');
  const abs = readEmbedConfig({ datasets: [], globals: { player_asset_path: 'https://cdn.example/p/' }, search: '', scriptUrl: script });
  assert.is(abs.assetBase, 'https://cdn.example/p/');
});

test('request timeout from config; junk falls back to the default', () => {
  assert.is(readEmbedConfig({ datasets: [], globals: { env_request_timeout: '2500' }, search: '', scriptUrl: script }).requestTimeoutMs, 2500);
  assert.is(readEmbedConfig({ datasets: [], globals: { env_request_timeout: '0' }, search: '', scriptUrl: script }).requestTimeoutMs, 15000);
  assert.is(readEmbedConfig({ datasets: [], globals: { env_request_timeout: 'soon' }, search: '', scriptUrl: script }).requestTimeoutMs, 15000);
});


test('embed_origins: a comma-separated list from a data attribute or a global; none by default', () => {
  const read = (datasets: Array<DOMStringMap>, globals: Record<string, unknown> = {}) =>
    readEmbedConfig({ datasets, globals, search: '', scriptUrl: script }).embedOrigins;
  assert.equal(read([]), []);
  assert.equal(read([{ embedOrigins: 'https://a.example, https://b.example' }]), ['https://a.example', 'https://b.example']);
  assert.equal(read([], { EMBED_ORIGINS: 'https://c.example' }), ['https://c.example']);
});

test.run();
