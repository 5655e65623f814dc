// The bootstrap is inline in dist/player.html and the policy admits it by its SHA-256 (build.mjs
// inlineBootstrap, docs/deploying.md "Content policy"). The hash in the header, in the page's meta copy, in the
// build's manifest and in the nginx conf the build wrote is the hash of the script's bytes; a copy of
// the page with one byte of the script changed is refused by the browser: a violation report reaches
// /csp-report, and the requests the bootstrap makes are not made.
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { startServer } from '../../server/index.mjs';
// @ts-expect-error: plain JS module with JSDoc types
import { policiesIn } from '../../scripts/nginx-conf.mjs';
import { type RefServer, open, poll, srv, waitForTime } from './harness';

const repo = new URL('../..', import.meta.url).pathname;
const dist = process.env.DIST_DIR ?? join(repo, 'dist');

const INLINE = /<script type="module" async>([\s\S]*?)<\/script>/;
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const scriptSrc = (policy: string) => policy.split('; ').find((d) => d.startsWith('script-src '));
const META = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/;

test('header, meta, manifest and nginx conf carry the sha256 of the inline bootstrap’s bytes, and nothing else inline', async () => {
  const html = await readFile(join(dist, 'player.html'), 'utf8');
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.equal(scripts.filter((s) => !/\bsrc=/.test(s)), ['<script type="module" async>'], 'one inline script');
  const hash = sha256(html.match(INLINE)![1]);
  const expected = `script-src 'self' ${hash}`;

  const manifest = JSON.parse(await readFile(join(dist, 'player.csp.json'), 'utf8')) as { scriptHashes: string[]; metaPolicy: string };
  assert.equal(manifest.scriptHashes, [hash], 'the manifest');
  const meta = html.match(META)![1].replace(/&amp;/g, '&');
  assert.is(meta, manifest.metaPolicy);
  assert.is(scriptSrc(meta), expected, 'the meta copy');
  assert.not.match(meta, /report-uri|frame-ancestors|unsafe|strict-dynamic/);
  assert.ok(html.indexOf('http-equiv="Content-Security-Policy"') < html.indexOf('<script'), 'the meta policy comes before every script');

  const header = (await fetch(`${srv().url}/player/?movie_id=1`)).headers.get('content-security-policy')!;
  assert.is(scriptSrc(header), expected, 'the reference server’s header');
  const conf = await readFile(`${dist}.nginx.conf`, 'utf8');
  assert.is(scriptSrc(policiesIn(conf).player), expected, 'dist.nginx.conf');
});

let work = '';
let copy: RefServer | undefined;

test.before(async () => {
  // A server of its own over a copy of dist/ with two more pages: the built page with only its inline
  // bootstrap (no entry, stylesheet or preloads, so every request is the bootstrap's) and the same
  // page with one byte of the bootstrap changed. Its policy: the build's hash, as for the real page.
  work = await mkdtemp(join(tmpdir(), 'csp-hash-'));
  await cp(dist, join(work, 'dist'), { recursive: true });
  const html = await readFile(join(dist, 'player.html'), 'utf8');
  const alone = html.replace(/\n\s*<(?:link rel="(?:stylesheet|modulepreload)"|script type="module" src=)[^\n]*/g, '');
  assert.ok(alone.includes('<script type="module" async>') && !alone.includes(' src='), 'the page with only its bootstrap');
  await writeFile(join(work, 'dist', 'alone.html'), alone);
  // One byte, in a string the bootstrap never shows: nothing but the hash tells the two apart.
  const oneByte = (page: string) => page.replace('[player] token refresh failed', '[player] Token refresh failed');
  const tampered = oneByte(alone);
  assert.is(tampered.length, alone.length);
  assert.is.not(tampered, alone);
  await writeFile(join(work, 'dist', 'tampered.html'), tampered);
  await writeFile(join(work, 'dist', 'tampered-whole.html'), oneByte(html));
  copy = (await startServer({ port: 0, host: '127.0.0.1', distDir: join(work, 'dist') })) as RefServer;
});

test.after(async () => {
  await copy?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const bootstrapRequests = (s: RefServer) => s.requests.filter((r) => r.path.startsWith('/catalog-api/') || r.path.startsWith('/media/') || /\/hls-\w+\.js$/.test(r.path));

test('the bootstrap as built runs under the policy: it asks for the episodes and then the master (a first visit without ads: hls.js comes after the first fragments), no violation', async () => {
  copy!.clearRequests();
  copy!.cspReports.length = 0;
  const p = await open('?movie_id=1', { origin: copy!.url, path: '/player/alone.html' });
  try {
    await poll('the episodes call', () => copy!.requests.find((r) => r.path === '/catalog-api/episodes'));
    await poll('the master', () => copy!.requests.find((r) => r.path === '/media/hls/master.m3u8'));
    await p.page.waitForLoadState('networkidle');
    assert.equal(copy!.cspReports, []);
    assert.equal(p.csp, []);
  } finally {
    await p.close();
  }
});

test('one byte changed in the inline bootstrap: the browser refuses it, reports it, and none of its requests is made', async () => {
  copy!.clearRequests();
  copy!.cspReports.length = 0;
  const p = await open('?movie_id=1', { origin: copy!.url, path: '/player/tampered.html' });
  try {
    const report = await poll('a violation report at /csp-report', () =>
      (copy!.cspReports as Array<{ 'csp-report'?: Record<string, string> }>).find((r) => r['csp-report']?.['blocked-uri'] === 'inline'),
    );
    assert.match(report['csp-report']!['effective-directive'] ?? report['csp-report']!['violated-directive'], /^script-src/);
    assert.match(report['csp-report']!['document-uri'], '/player/tampered.html');
    // The page's event comes by its own way (a task, then Playwright's binding), the report by the
    // network: either may come first.
    await poll(() => `the page to see it: ${p.csp}`, () => p.csp.some((v) => v.startsWith('script-src') && v.endsWith(' inline')));
    // Everything the page would do is done by then (a refused script never runs; the control above
    // made its requests before its load event).
    await p.page.waitForLoadState('networkidle');
    assert.equal(bootstrapRequests(copy!).map((r) => r.path), [], 'no request of the bootstrap');
  } finally {
    await p.close();
  }
});

test('the whole page with its bootstrap refused still plays: the entry runs the bootstrap from its file, and asks for each address once', async () => {
  copy!.clearRequests();
  const p = await open('?movie_id=1&auto_play=1', { origin: copy!.url, path: '/player/tampered-whole.html' });
  try {
    await waitForTime(p.page, 1);
    assert.ok(p.csp.some((v) => v.startsWith('script-src') && v.endsWith(' inline')), `the inline script was refused: ${p.csp}`);
    const paths = copy!.requests.map((r) => r.path);
    assert.equal(paths.filter((path) => /\/boot-\w+\.js$/.test(path)).length, 1, 'the bootstrap as a file, once');
    for (const path of ['/catalog-api/episodes', '/media/hls/master.m3u8']) assert.is(paths.filter((p) => p === path).length, 1, `${path} once`);
    assert.equal(p.errors.filter((e) => !/inline bootstrap did not run|Content Security Policy/.test(e)), [], 'no other error');
  } finally {
    await p.close();
  }
});

test.run();
