// scripts/nginx-conf.mjs and deploy/nginx.conf: the static host's policy is the reference server's plus
// the deploy's origins, and the committed conf is the generated one.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: plain JS module with JSDoc types
import { NGINX_TEMPLATE, playerPolicy, policiesIn, renderNginxConf, vpaidPolicy, withSources } from '../../../scripts/nginx-conf.mjs';
// @ts-expect-error: plain JS module with JSDoc types
import { readPlayerConfig } from '../../../scripts/player-config.mjs';
// @ts-expect-error: plain JS module with JSDoc types
import { VPAID_CSP, isHashedName, playerPolicy as referencePolicy } from '../../../server/player.mjs';

/** What the reference server sends on its player page. */
const PLAYER_CSP: string = referencePolicy();
/** A source list admits an origin by naming it or its scheme. */
const admits = (sources: string[] | undefined, origin: string) => !!sources && (sources.includes(origin) || sources.includes(new URL(origin).protocol));

const template: string = readFileSync(NGINX_TEMPLATE, 'utf8');
const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

test('deploy/nginx.conf carries the policies generated for deploy/player.json (else: node scripts/nginx-conf.mjs --write)', () => {
  const example = readPlayerConfig({ PLAYER_CONFIG: new URL('../../../deploy/player.json', import.meta.url).pathname });
  assert.equal(policiesIn(template), { player: playerPolicy(example), vpaid: vpaidPolicy() });
  assert.is(renderNginxConf(template, { config: example }), template);
});

test('the player policy is the reference server’s, every source kept, plus the API origin; report-uri dropped', () => {
  const reference = directives(PLAYER_CSP);
  const deployed = directives(playerPolicy({ env_base_url: 'https://api.example.com/v2/' }));
  for (const [name, sources] of reference) {
    if (name === 'report-uri') continue;
    for (const s of sources) assert.ok(deployed.get(name)?.includes(s), `${name} keeps ${s}`);
  }
  assert.not.ok(deployed.has('report-uri'), 'a static host has no report endpoint');
  for (const name of ['connect-src', 'img-src', 'media-src']) assert.ok(admits(deployed.get(name), 'https://api.example.com'), `${name} admits the API`);
  assert.not.ok(admits(deployed.get('script-src') ?? deployed.get('default-src'), 'https://api.example.com'), 'no scripts from the API');
  const dev = directives(playerPolicy({ env_base_url: 'http://127.0.0.1:8080' }));
  for (const name of ['connect-src', 'img-src', 'media-src']) assert.ok(dev.get(name)?.includes('http://127.0.0.1:8080'), `${name} admits an http API by its origin`);
});

test('vpaid keeps the reference policy but its report-uri', () => {
  const reference = directives(VPAID_CSP);
  reference.delete('report-uri');
  assert.equal(directives(vpaidPolicy()), reference);
});

test('what each setting adds: the error ingest and the ad list to connect-src, an asset host to scripts, styles, media and frames; paths add nothing', () => {
  assert.is(playerPolicy({ env_base_url: '/api', env_ad_list_url: '/ad-list.json', player_asset_path: './' }), withSources(PLAYER_CSP, {}));
  const all = directives(
    playerPolicy({
      env_base_url: 'https://api.example.com',
      sentry_dsn: 'https://key@errors.example.com/3',
      env_ad_list_url: 'https://ads.example.com/list.json',
      player_asset_path: 'https://cdn.example.com/player/',
    }),
  );
  for (const origin of ['https://api.example.com', 'https://errors.example.com', 'https://ads.example.com']) assert.ok(admits(all.get('connect-src'), origin), origin);
  for (const name of ['script-src', 'style-src', 'media-src', 'frame-src']) assert.ok(all.get(name)?.includes('https://cdn.example.com'), name);
  const dev = directives(playerPolicy({ sentry_dsn: 'http://key@127.0.0.1:9000/3', env_ad_list_url: 'http://127.0.0.1:9001/list.json' }));
  for (const origin of ['http://127.0.0.1:9000', 'http://127.0.0.1:9001']) assert.ok(dev.get('connect-src')?.includes(origin), origin);
});

test('withSources: adds once, keeps order, creates a missing directive from default-src', () => {
  assert.is(
    withSources("default-src 'self'; img-src 'self' data:; report-uri /r", { 'img-src': ['https://a', 'data:', 'https://a'], 'connect-src': ['https://b', undefined], 'font-src': [] }),
    "default-src 'self'; img-src 'self' data: https://a; connect-src 'self' https://b",
  );
});

test('renderNginxConf changes only the root and the port it is given', () => {
  const conf: string = renderNginxConf(template, { root: '/tmp/site', port: 8123 });
  const changed = conf.split('\n').filter((line, i) => line !== template.split('\n')[i]);
  assert.equal(changed.map((l) => l.trim()), ['listen 8123;', 'root /tmp/site;']);
  assert.throws(() => renderNginxConf('server {}', { port: 1 }), /listen/);
  assert.throws(() => renderNginxConf('server {}', { config: {} }), /player policy/);
});

test('the conf’s hashed-name location matches exactly the names the reference server caches forever', () => {
  const pattern = template.match(/location ~ "(-\[A-Z0-9\][^"]*)"/)?.[1];
  assert.ok(pattern, 'the hashed-name location');
  const re = new RegExp(pattern);
  const names = ['main-XXKULYPN.js', 'main-CA2SC2GH.css', 'main-CA2SC2GH.css.map', 'hls-D7UERQHX.js.br', 'chunk-26WYXSGT.js', 'player.html', 'vpaid.html', 'embed.mjs', 'embed.js', 'placeholder.mp4', 'main-abcdefgh.js', 'x-ABC.js'];
  for (const name of names) assert.is(re.test(`/player/${name}`), isHashedName(name), name);
});

test.run();
