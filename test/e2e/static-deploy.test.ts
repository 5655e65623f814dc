// The static deploy of docs/deploying.md, end to end: `PLAYER_CONFIG=… npm run build`, dist/ copied
// below the root of Debian's nginx running the conf the build wrote (deploy/nginx.conf with only its root
// and port changed), the catalogue API on a second origin (a reference server of its own) and the
// partner's page on a third (the shared reference server). The player must play there, its API calls
// passing CORS preflights, under the policy the build generated, with no violation.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { startServer } from '../../server/index.mjs';
// @ts-expect-error: plain JS module with JSDoc types
import { isHashedName } from '../../server/player.mjs';
// @ts-expect-error: plain JS module with JSDoc types
import { ensureNginx } from '../../scripts/find-nginx.mjs';
// @ts-expect-error: plain JS module with JSDoc types
import { playerPolicy, policiesIn, renderNginxConf } from '../../scripts/nginx-conf.mjs';
import { type Opened, open, poll, srv } from './harness';
// @ts-expect-error: plain JS modules
import { freePort } from '../../scripts/free-port.mjs';

const PARTNER = '/e2e/static-partner';
const repo = new URL('../..', import.meta.url).pathname;

interface LoggedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
}
interface ApiServer {
  url: string;
  requests: LoggedRequest[];
  clearRequests(): void;
  close(): Promise<void>;
}

let work = '';
let api: ApiServer | undefined;
let nginx: ChildProcess | undefined;
let nginxExit: Promise<number | null> | undefined;
/** The static host's origin, e.g. http://127.0.0.1:41234 */
let site = '';
/** The conf nginx runs, as the build wrote it. */
let builtConf = '';


// nginx's main file as Debian's /etc/nginx/nginx.conf frames a conf.d file, but in a temp folder:
// its own pid, logs and temp paths, in the foreground, one process (no privilege drop when root).
const mainConf = (dir: string) => `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/tmp-body;
  proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fastcgi;
  uwsgi_temp_path ${dir}/tmp-uwsgi;
  scgi_temp_path ${dir}/tmp-scgi;
  sendfile on;
  ${existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : ''}
  default_type application/octet-stream;
  gzip on;
  include ${dir}/player.conf;
}
`;

async function startNginx(dir: string, root: string): Promise<void> {
  const binary = ensureNginx({ log: console.log });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    await writeFile(join(dir, 'player.conf'), renderNginxConf(builtConf, { root, port }));
    await writeFile(join(dir, 'nginx.conf'), mainConf(dir));
    const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const origin = `http://127.0.0.1:${port}`;
    let gone = false;
    void exited.then(() => (gone = true));
    try {
      await poll('nginx to answer', async () => {
        if (gone) throw new Error(`nginx exited: ${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`);
        return fetch(`${origin}/player/`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
      }, { timeout: 10000 });
    } catch (err) {
      child.kill();
      if (attempt < 3 && gone) continue; // the port was taken in between
      throw err;
    }
    nginx = child;
    nginxExit = exited;
    site = origin;
    return;
  }
}

const run = promisify(execFile);

test.before(async () => {
  work = await mkdtemp(join(tmpdir(), 'static-deploy-'));
  api = (await startServer({ port: 0, host: '127.0.0.1' })) as ApiServer;
  // The deploy's two commands: build with the configuration, copy dist/ (and the conf beside it).
  const config = join(work, 'player.json');
  await writeFile(config, JSON.stringify({ env_base_url: api.url, sentry_project_label: 'static-deploy' }));
  const dist = join(work, 'build', 'dist');
  await run('npm', ['run', '--silent', 'build'], { cwd: repo, env: { ...process.env, PLAYER_CONFIG: config, DIST_DIR: dist }, timeout: 120000 });
  const root = join(work, 'www');
  await mkdir(root, { recursive: true });
  await cp(dist, join(root, 'player'), { recursive: true });
  // The same files at the host's root too: nothing in dist/ names its folder.
  await cp(dist, root, { recursive: true });
  builtConf = await readFile(`${dist}.nginx.conf`, 'utf8');
  await startNginx(work, root);

  // The partner: a page of a third origin framing the player from the static host.
  (srv() as unknown as { router: { add(def: unknown): void } }).router.add({
    method: 'GET',
    path: PARTNER,
    handler({ res, url }: { res: import('node:http').ServerResponse; url: { query: URLSearchParams } }) {
      // at: the folder dist/ was copied to; the rest: the player's query.
      const folder = /^\/(?:[\w-]+\/)*$/.test(url.query.get('at') ?? '') ? url.query.get('at') : '/player/';
      const params = new URLSearchParams(url.query);
      params.delete('at');
      const query = `?${params}`.replace(/[^\w=&?]/g, '');
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Security-Policy', `default-src 'self'; script-src 'none'; frame-src ${site}`);
      res.end(
        '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title></head><body>' +
          `<iframe name="player" src="${site}${folder}${query}" allow="autoplay; fullscreen" width="640" height="360"></iframe>` +
          '</body></html>',
      );
    },
  });
});

test.after(async () => {
  nginx?.kill();
  await nginxExit;
  await api?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('the build configured the page and wrote the conf: the API origin in the policy, as the reference policy plus it, the bootstrap by its hash', async () => {
  const html = await (await fetch(`${site}/player/`)).text();
  assert.match(html, `data-env-base-url="${api!.url}"`);
  assert.match(html, 'data-sentry-project-label="static-deploy"');
  const policy = policiesIn(builtConf).player;
  // The inline bootstrap's hash, as the build wrote it: the same in the page's meta copy.
  const hash = `'sha256-${createHash('sha256').update(html.match(/<script type="module" async>([\s\S]*?)<\/script>/)![1]).digest('base64')}'`;
  assert.is(policy, playerPolicy({ env_base_url: api!.url, sentry_project_label: 'static-deploy' }, [hash]));
  assert.match(html, `<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  assert.match(policy, new RegExp(`(^|; )connect-src [^;]*${api!.url.replace(/[.]/g, '\\.')}`));
});

test('nginx serves dist/ as README says: the page fresh for 5 minutes, the SDK revalidated, hashed files immutable, every file CORS *, the policy on the page', async () => {
  const redirect = await fetch(`${site}/player?movie_id=1`, { redirect: 'manual' });
  assert.is(redirect.status, 301);
  assert.is(redirect.headers.get('location'), '/player/?movie_id=1');

  const page = await fetch(`${site}/player/?movie_id=1`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(page.status, 200);
  assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.is(page.headers.get('cache-control'), 'public, max-age=300');
  assert.is(page.headers.get('content-security-policy'), policiesIn(builtConf).player);
  assert.is(page.headers.get('content-encoding'), 'gzip', 'the build’s .gz copy');

  const vpaid = await fetch(`${site}/player/vpaid.html`);
  assert.is(vpaid.headers.get('content-security-policy'), policiesIn(builtConf).vpaid);

  const files = (await readdir(join(work, 'www', 'player'))).filter((f) => !/\.(br|gz)$/.test(f));
  assert.ok(files.some((f) => isHashedName(f)) && files.includes('placeholder.mp4'), `dist/: ${files}`);
  for (const f of files) {
    const r = await fetch(`${site}/player/${f}`, { headers: { Origin: 'https://partner.example' } });
    assert.is(r.status, 200, f);
    assert.is(r.headers.get('access-control-allow-origin'), '*', f);
    const isPage = f.endsWith('.html') && f !== 'vpaid.html';
    assert.is(r.headers.get('cache-control'), isHashedName(f) ? 'public, max-age=31536000, immutable' : isPage ? 'public, max-age=300' : 'no-cache', f);
    if (/\.m?js$/.test(f)) assert.is(r.headers.get('content-type'), 'text/javascript; charset=utf-8', f);
    await r.arrayBuffer();
  }
});

/** Opens the partner page (third origin) framing `${folder}${query}` of the static host. */
async function embedded(query: string, folder = '/player/'): Promise<Opened & { frame: import('playwright-core').Frame }> {
  api!.clearRequests();
  srv().clearRequests();
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  // A signed-in viewer: the catalogue calls carry Authorization, so their preflights must allow it.
  const token = `${b64({ alg: 'HS256' })}.${b64({ sub: 'viewer-1', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
  const p = await open(`${query}&at=${folder}`, { path: PARTNER, cookies: { authToken: token } });
  const frame = await poll('the player frame', () => p.page.frame({ name: 'player' }));
  await frame.waitForURL((u) => u.origin === site, { timeout: 15000 });
  return { ...p, frame };
}

function assertCrossOriginCalls(p: Opened, contentId: number): void {
  const origins = new Set([new URL(site).origin, new URL(srv().url).origin, new URL(api!.url).origin]);
  assert.is(origins.size, 3, 'three origins: static host, API, partner');
  const calls = api!.requests.filter((r) => r.path.startsWith('/catalog-api/'));
  const preflights = calls.filter((r) => r.method === 'OPTIONS');
  const gets = calls.filter((r) => r.method === 'GET');
  assert.ok(gets.some((r) => r.path === `/catalog-api/contents/${contentId}`), `the content call reached the API: ${gets.map((r) => r.path)}`);
  for (const r of [...preflights, ...gets]) assert.is(r.headers.origin, site, `${r.method} ${r.path} from the static host's page`);
  const asked = preflights.map((r) => r.headers['access-control-request-headers'] ?? '').join(',');
  assert.match(asked, 'x-session-context', 'preflighted for X-Session-Context');
  assert.match(asked, 'authorization', 'preflighted for Authorization');
  assert.ok(gets.every((r) => /^Bearer /.test(r.headers.authorization ?? '')), 'every catalogue call went out with the token');
  assert.ok(srv().requests.every((r) => r.path === PARTNER || r.path === '/favicon.ico'), `nothing from the partner’s host but its page: ${srv().requests.map((r) => r.path)}`);
  assert.equal(p.errors, [], 'no console errors in the page or the frame');
  assert.equal(p.csp, [], 'no CSP violation');
}

test('film 1 plays in a frame of a third origin, its API on a second, through CORS preflights', async () => {
  const p = await embedded('?movie_id=1');
  try {
    await p.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await p.frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1.5, null, { timeout: 20000 });
    assert.is(await p.frame.textContent('.pl-title__name'), 'Тестовый фильм');
    assert.is(await p.frame.locator('.pl-error').count(), 0, 'no error screen');
    assertCrossOriginCalls(p, 1);
    assert.ok(api!.requests.some((r) => r.path.startsWith('/media/')), 'the media came from the API host');
    // The policy is in force and its violations are seen: the same API under a name it does not admit.
    const elsewhere = `http://localhost:${new URL(api!.url).port}/catalog-api/contents/1`;
    assert.match(await p.frame.evaluate((url) => fetch(url).then(() => 'fetched', (e) => String(e)), elsewhere), /TypeError/);
    await poll('the violation', () => p.csp.find((v) => v.startsWith('connect-src') && v.includes('localhost')));
  } finally {
    await p.close();
  }
});

test('series 2 plays season 2 episode 2 from the static host', async () => {
  const p = await embedded('?movie_id=2&season=2&episode=2');
  try {
    await p.frame.waitForFunction(() => document.querySelector('.pl-title__episode')?.textContent?.startsWith('2 сезон, 2 серия'), null, { timeout: 20000 });
    await p.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await p.frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1.5, null, { timeout: 20000 });
    assert.is(await p.frame.locator('.pl-error').count(), 0, 'no error screen');
    assertCrossOriginCalls(p, 2);
    assert.ok(api!.requests.some((r) => r.path === '/catalog-api/episodes'), 'the episodes came from the API');
  } finally {
    await p.close();
  }
});

test('served from the host’s root instead of /player/, the same dist/ plays', async () => {
  const p = await embedded('?movie_id=1', '/');
  try {
    assert.is(new URL(p.frame.url()).pathname, '/');
    await p.frame.locator('.pl-big-play').click({ timeout: 15000 });
    await p.frame.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1.5, null, { timeout: 20000 });
    const scripts = await p.frame.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name)).filter((u) => /\.js$/.test(u.pathname)).map((u) => u.pathname));
    assert.ok(scripts.length > 1 && scripts.every((path) => !path.startsWith('/player/')), `scripts from the root: ${scripts}`);
    assertCrossOriginCalls(p, 1);
  } finally {
    await p.close();
  }
});

test.run();
