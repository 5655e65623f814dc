// scripts/player-config.mjs: the configuration a static deploy bakes into dist/player.html.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readEmbedConfig } from '../../../src/config/embed-config';
// @ts-expect-error: plain JS module with JSDoc types
import { CONFIG_NAMES, readPlayerConfig, withConfig } from '../../../scripts/player-config.mjs';
import { installDom } from '../dom';

const PAGE = '<body>\n    <div id="root" class="root"></div>\n  </body>';
const files = (map: Record<string, string>) => (p: string) => {
  if (!(p in map)) throw new Error(`ENOENT: ${p}`);
  return map[p];
};

test('nothing configured: the page is left as it is', () => {
  assert.equal(readPlayerConfig({}), {});
  assert.is(withConfig(PAGE, {}), PAGE);
});

test('from a JSON file, variables win; lists are joined, numbers kept', () => {
  const config = readPlayerConfig(
    { PLAYER_CONFIG: 'deploy.json', SENTRY_DSN: 'https://k@errors.example/3', ENV_AD_LIST_URL: '' },
    files({
      'deploy.json': JSON.stringify({
        env_base_url: 'https://api.example',
        env_ad_list_url: 'https://ads.example/list.json',
        sentry_dsn: 'https://old@errors.example/1',
        lang_order: ['ru', 'en'],
        env_request_timeout: 12000,
      }),
    }),
  );
  assert.equal(config, {
    env_base_url: 'https://api.example',
    env_ad_list_url: 'https://ads.example/list.json',
    sentry_dsn: 'https://k@errors.example/3',
    lang_order: 'ru,en',
    env_request_timeout: '12000',
  });
});

test('a bad file says what is wrong: missing, not JSON, not an object, an unknown name (a typo), a value of the wrong type', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{}, /ENOENT/],
    [{ 'c.json': '{' }, /c\.json/],
    [{ 'c.json': '[]' }, /not a JSON object/],
    [{ 'c.json': '{"env_base_ur": "x"}' }, /unknown setting "env_base_ur"/],
    [{ 'c.json': '{"fullscreen_mode": {"a": 1}}' }, /"fullscreen_mode" must be/],
  ];
  for (const [map, message] of cases) assert.throws(() => readPlayerConfig({ PLAYER_CONFIG: 'c.json' }, files(map)), message);
});

test('values the player would misread stop the build, from a file or a variable; good ones pass', () => {
  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ ENV_BASE_URL: 'api.example.com' }, /env_base_url "api\.example\.com" must be an http\(s\) URL or a path starting with \//],
    [{ ENV_BASE_URL: '//api.example.com' }, /env_base_url/],
    [{ ENV_AD_LIST_URL: 'ftp://ads.example/list.json' }, /env_ad_list_url/],
    [{ SENTRY_DSN: '/ingest' }, /sentry_dsn "\/ingest" must be an http\(s\) URL/],
    [{ FULLSCREEN_MODE: 'stretch' }, /fullscreen_mode "stretch" must be "stretched" or "native"/],
    [{ ENV_REQUEST_TIMEOUT: '15s' }, /env_request_timeout "15s" must be a whole number/],
    [{ ANALYTICS_FUNCTION: 'gtag()' }, /analytics_function/],
    [{ LANG_ORDER: 'ru;en' }, /lang_order/],
  ];
  for (const [env, message] of bad) assert.throws(() => readPlayerConfig(env), message);
  assert.throws(() => readPlayerConfig({ PLAYER_CONFIG: 'c.json' }, files({ 'c.json': '{"fullscreen_mode": "full"}' })), /fullscreen_mode "full"/);
  const good = {
    ENV_BASE_URL: 'https://api.example/v1',
    ENV_AD_LIST_URL: '/ad-list.json?pre=1',
    SENTRY_DSN: 'https://key@errors.example/3',
    FULLSCREEN_MODE: 'native',
    ENV_REQUEST_TIMEOUT: '9000',
    ANALYTICS_FUNCTION: 'dataLayerPush',
    LANG_ORDER: 'ru, en-US',
    PLAYER_ASSET_PATH: '../assets/',
  };
  assert.is(Object.keys(readPlayerConfig(good)).length, Object.keys(good).length);
});

test('every name is one the player reads, and the attributes it writes read back as the same configuration', () => {
  const special: Record<string, string> = { env_request_timeout: '9000', lang_order: 'ru,en', player_asset_path: 'https://cdn.example/player/' };
  const config = Object.fromEntries(CONFIG_NAMES.map((n: string) => [n, special[n] ?? `https://x.example/${n}?a=1&b="<q>"`]));
  const html = withConfig(PAGE, config);
  assert.not.match(html, /"<q>"/, 'attribute values are escaped');
  const win = installDom();
  win.document.body.innerHTML = html.replace(/<\/?body>/g, '');
  const root = win.document.getElementById('root') as unknown as HTMLElement;
  const read = readEmbedConfig({ datasets: [root.dataset], globals: {}, search: '', scriptUrl: 'https://player.example/player/main.js' });
  assert.is(read.envBaseUrl, config.env_base_url);
  assert.is(read.envAdListUrl, config.env_ad_list_url);
  assert.is(read.fullscreenMode, config.fullscreen_mode);
  assert.is(read.sentryDsn, config.sentry_dsn);
  assert.is(read.sentryProjectLabel, config.sentry_project_label);
  assert.is(read.analyticsFunction, config.analytics_function);
  assert.equal(read.langOrder, ['ru', 'en']);
  assert.is(read.assetBase, 'https://cdn.example/player/');
  assert.is(read.requestTimeoutMs, 9000);
});

test('a page without #root is refused rather than shipped unconfigured', () => {
  assert.throws(() => withConfig('<body></body>', { sentry_dsn: 'x' }), /#root/);
});

test.run();
