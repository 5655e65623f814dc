// @ts-check
// Run: node server/test/server.test.mjs
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VAST, withAdListAttribute } from '../ads.mjs';
import { startServer } from '../index.mjs';
import { playerPolicy } from '../player.mjs';
import { REQUEST_LOG_LIMIT } from '../logs.mjs';

/** @typedef {Awaited<ReturnType<typeof startServer>>} Srv */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'player-server-test-'));
const PLAYER_HTML = '<!doctype html><html lang="ru"><head><script type="module" src="./main-ABCDEF12.js"></script></head><body></body></html>\n';
const MAIN_JS = `export const x = ${JSON.stringify('x'.repeat(2000))};\n`;
const SEGMENT = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

/**
 * @param {string} rel
 * @param {string | Buffer} content
 */
function put(rel, content) {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** @param {string} rel */
function putCompressed(rel) {
  const buf = fs.readFileSync(path.join(root, rel));
  put(`${rel}.br`, zlib.brotliCompressSync(buf));
  put(`${rel}.gz`, zlib.gzipSync(buf));
}

put('dist/player.html', PLAYER_HTML);
putCompressed('dist/player.html');
put('dist/main-ABCDEF12.js', MAIN_JS);
putCompressed('dist/main-ABCDEF12.js');
put('dist/worker.js', 'self.onmessage = () => {};\n');
put('package.json', '{"secret": true}\n');
put('server/media/hls/video/240p/seg-0.m4s', SEGMENT);
put('server/media/hls/master.m3u8', '#EXTM3U\n');
put('server/media/clip.mp4', Buffer.alloc(64, 1));
put('server/media/hls/subs/rus.vtt', 'WEBVTT\n');
put('server/media/posters/film-1.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
put('server/media/thumbs.json', '[]');
put('server/media/old/seg.ts', Buffer.alloc(188, 0x47));
put('server/media/audio.aac', Buffer.alloc(32, 0xff));

/** @type {Srv} */
let srv;

/**
 * A raw HTTP request (no URL normalisation, any Host header). Never rejects: a broken connection is
 * reported in `error` together with whatever arrived.
 * @param {string} method
 * @param {string} target raw request target
 * @param {{ headers?: Record<string, string>, body?: string | Buffer, server?: Srv }} [opts]
 * @returns {Promise<{ status: number, headers: http.IncomingHttpHeaders, body: Buffer, error: Error | null, text: () => string, json: () => any }>}
 */
function request(method, target, opts = {}) {
  const s = opts.server || srv;
  const { port } = new URL(s.url);
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let status = 0;
    /** @type {http.IncomingHttpHeaders} */
    let headers = {};
    let settled = false;
    /** @param {Error | null} error */
    const done = (error) => {
      if (settled) return;
      settled = true;
      const body = Buffer.concat(chunks);
      resolve({ status, headers, body, error, text: () => body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) });
    };
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers: opts.headers, agent: false }, (res) => {
      status = res.statusCode || 0;
      headers = res.headers;
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done(null));
      res.on('error', (e) => done(e));
      res.on('aborted', () => done(new Error('aborted')));
      res.on('close', () => {
        if (!res.complete) done(new Error('incomplete'));
      });
    });
    req.on('error', (e) => done(e));
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** @param {string} target @param {Record<string, string>} [headers] */
const get = (target, headers) => request('GET', target, { headers });

test.before(async () => {
  srv = await startServer({ port: 0, host: '127.0.0.1', root });
});

test.after(async () => {
  await srv.close();
  fs.rmSync(root, { recursive: true, force: true });
});

test.before.each(() => {
  srv.clearFaults();
  srv.clearRequests();
});

// ---------------------------------------------------------------- catalogue

test('content 1: fields, JSON headers, CORS, absolute media URLs', async () => {
  const r = await get('/catalog-api/contents/1');
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.is(r.headers['cache-control'], 'no-store');
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.is(r.headers['x-content-type-options'], 'nosniff');
  const c = r.json();
  assert.is(c.id, 1);
  assert.is(c.title, 'Тестовый фильм');
  assert.equal(c.contentType, { slug: 'film' });
  assert.is(c.kinopoiskId, 1001);
  assert.is(c.year, 2024);
  assert.equal(c.countries, [{ slug: 'ru' }]);
  assert.equal(c.languages, [{ code: 'ru' }, { code: 'en' }]);
  assert.equal(c.rating, { kinopoisk: { value: 7.8 }, imdb: { value: 7.5, url: 'https://www.imdb.com/title/tt0000001/' } });
  assert.is(c.hasMultipleEpisodes, false);
  assert.is(c.posterUrl, `${srv.url}/media/posters/film-1.jpg`);
});

test('media URLs use the Host the client asked for; an implausible Host falls back to the server address', async () => {
  const r = await get('/catalog-api/contents/1', { Host: 'cdn.example.test:8443' });
  assert.is(r.json().posterUrl, 'http://cdn.example.test:8443/media/posters/film-1.jpg');
  const bad = await get('/catalog-api/contents/1', { Host: 'evil.test/"><script>' });
  assert.is(bad.json().posterUrl, `${srv.url}/media/posters/film-1.jpg`);
});

test('series 2: seasons, episodes stored unsorted, variants, absolute paths', async () => {
  const c = (await get('/catalog-api/contents/2')).json();
  assert.is(c.contentType.slug, 'series');
  assert.is(c.hasMultipleEpisodes, true);
  const seasons = (await get('/catalog-api/contents/2/seasons')).json();
  assert.equal(seasons, [
    { id: 21, order: 1, title: '1 сезон' },
    { id: 22, order: 2, title: '2 сезон' },
  ]);
  const eps = (await get('/catalog-api/episodes?content-id=2')).json();
  assert.equal(eps.map((/** @type {any} */ e) => e.id), [205, 203, 204, 201, 206, 202]);
  const byId = Object.fromEntries(eps.map((/** @type {any} */ e) => [e.id, e]));
  assert.equal(byId[201].season, { id: 21, order: 1 });
  assert.is(byId[201].isCompleted, true);
  assert.is(byId[202].isCompleted, false);
  assert.is(byId[206].order, 3);
  assert.equal(byId[206].season, { id: 22, order: 2 });
  assert.is(byId[204].posterPath, `${srv.url}/media/posters/s2e1.jpg`);
  assert.is(byId[201].m3u8MasterFilePath, `${srv.url}/media/hls/master.m3u8`);
  assert.equal(byId[203].episodeVariants, [
    { id: 2031, title: 'Оригинальная версия', filepath: `${srv.url}/media/hls/master.m3u8` },
    { id: 2032, title: 'Режиссёрская версия', filepath: `${srv.url}/media/clip.mp4` },
  ]);
  assert.equal(byId[202].episodeVariants, []);
  const titles = new Set(eps.map((/** @type {any} */ e) => e.title));
  assert.is(titles.size, 6);
});

test('films: one episode each, no seasons, fixed masters and durations', async () => {
  assert.equal((await get('/catalog-api/contents/1/seasons')).json(), []);
  /** @type {Record<number, [number, string, number]>} */
  const expected = {
    1: [101, '/media/hls/master.m3u8', 60],
    3: [301, '/media/hls/master.m3u8', 60],
    4: [401, '/media/film-4/descriptor.json', 60],
    5: [501, '/media/long/master.m3u8', 1920],
    6: [601, '/media/film-6/descriptor.json', 60],
    7: [701, '/media/hls/master', 60],
    30: [3001, '/media/ladder/master.m3u8', 240],
    31: [3101, '/media/ladder-long/master.m3u8', 7200],
    32: [3201, '/media/ladder-small/master.m3u8', 96],
  };
  for (const [cid, [eid, master, duration]] of Object.entries(expected)) {
    const eps = (await get(`/catalog-api/episodes?content-id=${cid}`)).json();
    assert.is(eps.length, 1, `content ${cid}`);
    assert.is(eps[0].id, eid);
    assert.is(eps[0].contentId, Number(cid));
    assert.is(eps[0].season, null);
    assert.is(eps[0].order, 1);
    assert.is(eps[0].duration, duration);
    assert.is(eps[0].m3u8MasterFilePath, srv.url + master);
    const content = (await get(`/catalog-api/contents/${cid}`)).json();
    assert.is(content.contentType.slug, 'film');
  }
});

test('availability: false for 3 only; domain is required', async () => {
  for (const id of [1, 2, 4, 5, 6]) {
    assert.equal((await get(`/catalog-api/contents/${id}/available?domain=partner.example`)).json(), { available: true });
  }
  const r = await get('/catalog-api/contents/3/available?domain=partner.example');
  assert.is(r.status, 200);
  assert.equal(r.json(), { available: false });
  const missing = await get('/catalog-api/contents/1/available');
  assert.is(missing.status, 400);
  assert.is(missing.headers['content-type'], 'application/json; charset=utf-8');
  assert.ok(missing.json().error);
  assert.is((await get('/catalog-api/contents/1/available?domain=')).status, 400);
});

test('unknown ids answer 404 JSON', async () => {
  for (const target of [
    '/catalog-api/contents/999',
    '/catalog-api/contents/999/seasons',
    '/catalog-api/episodes?content-id=999',
    '/catalog-api/contents/999/available?domain=x.example',
  ]) {
    const r = await get(target);
    assert.is(r.status, 404, target);
    assert.equal(r.json(), { error: 'not found' }, target);
    assert.is(r.headers['access-control-allow-origin'], '*');
  }
});

test('malformed ids answer 400 JSON', async () => {
  for (const bad of ['abc', '1.5', '-1', '0x1', '0', '01', '1e3', '%201']) {
    for (const target of [`/catalog-api/contents/${bad}`, `/catalog-api/contents/${bad}/seasons`, `/catalog-api/episodes?content-id=${bad}`]) {
      const r = await get(target);
      assert.is(r.status, 400, target);
      assert.equal(r.json(), { error: 'bad id' }, target);
    }
  }
  assert.equal((await get('/catalog-api/episodes')).json(), { error: 'bad id' });
  assert.is((await get('/catalog-api/episodes?content-id=')).status, 400);
});

test('API preflight and wrong method', async () => {
  const r = await request('OPTIONS', '/catalog-api/contents/1', {
    headers: { Origin: 'https://partner.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,x-session-context' },
  });
  assert.is(r.status, 204);
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.is(r.headers['access-control-allow-headers'], 'Authorization, X-Session-Context, X-XSRF-TOKEN, Content-Type');
  assert.is(r.headers['access-control-allow-methods'], 'GET, POST, PUT, PATCH, DELETE, HEAD');
  const del = await request('DELETE', '/catalog-api/contents/1');
  assert.is(del.status, 405);
  assert.is(del.json().error, 'method not allowed');
});

test('time-progress: 204 and stored; bad JSON 400; unknown episode 404; over 1 MB 413', async () => {
  srv.timeProgress.length = 0;
  const ok = await request('POST', '/catalog-api/contents/2/episodes/203/time-progress', {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ time: 42 }),
  });
  assert.is(ok.status, 204);
  assert.is(ok.headers['access-control-allow-origin'], '*');
  assert.is(srv.timeProgress.length, 1);
  assert.is(srv.timeProgress[0].contentId, 2);
  assert.is(srv.timeProgress[0].episodeId, 203);
  assert.equal(srv.timeProgress[0].body, { time: 42 });
  assert.is((await request('POST', '/catalog-api/contents/2/episodes/203/time-progress', { body: '{nope' })).status, 400);
  assert.is((await request('POST', '/catalog-api/contents/2/episodes/101/time-progress', { body: '{}' })).status, 404);
  const big = await request('POST', '/catalog-api/contents/2/episodes/203/time-progress', { body: Buffer.alloc(1024 * 1024 + 10, 0x20) });
  assert.is(big.status, 413);
  assert.is(srv.timeProgress.length, 1);
});

// ---------------------------------------------------------------- media

test('master descriptor of film 4: one relative link, one absolute on the request origin', async () => {
  const r = await get('/media/film-4/descriptor.json', { Host: 'media.example.test:9000' });
  assert.is(r.status, 200);
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.equal(r.json(), {
    sources: [
      { label: 'Русский', link: '/media/desc/rus.m3u8', isDefault: true },
      { label: 'English', link: 'http://media.example.test:9000/media/desc/eng.m3u8', isDefault: false },
    ],
    subtitles: [
      { label: 'Русские', src: '/media/hls/subs/rus.vtt', language: 'ru' },
      { label: 'English', src: '/media/hls/subs/eng.vtt', language: 'en' },
    ],
  });
  const missing = await get('/media/film-6/descriptor.json');
  assert.is(missing.status, 404);
  assert.is(missing.headers['access-control-allow-origin'], '*');
});

test('film 7: the HLS master without an extension answers HEAD and GET with the HLS type', async () => {
  for (const method of ['HEAD', 'GET']) {
    const r = await fetch(`${srv.url}/media/hls/master`, { method });
    assert.is(r.status, 200, method);
    assert.is(r.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    assert.is(r.headers.get('access-control-allow-origin'), '*');
    if (method === 'GET') assert.match(await r.text(), /^#EXTM3U/);
  }
});

test('media MIME types and headers', async () => {
  /** @type {Record<string, string>} */
  const types = {
    '/media/hls/master.m3u8': 'application/vnd.apple.mpegurl',
    '/media/hls/video/240p/seg-0.m4s': 'video/iso.segment',
    '/media/clip.mp4': 'video/mp4',
    '/media/hls/subs/rus.vtt': 'text/vtt; charset=utf-8',
    '/media/posters/film-1.jpg': 'image/jpeg',
    '/media/thumbs.json': 'application/json',
    '/media/old/seg.ts': 'video/mp2t',
    '/media/audio.aac': 'audio/aac',
  };
  for (const [target, type] of Object.entries(types)) {
    const r = await get(target);
    assert.is(r.status, 200, target);
    assert.is(r.headers['content-type'], type, target);
    assert.is(r.headers['accept-ranges'], 'bytes');
    assert.is(r.headers['access-control-allow-origin'], '*');
    assert.is(r.headers['access-control-expose-headers'], 'Content-Length, Content-Range');
    assert.is(r.headers['cache-control'], 'public, max-age=3600');
    assert.is(r.headers['x-content-type-options'], 'nosniff');
  }
  const seg = await get('/media/hls/video/240p/seg-0.m4s');
  assert.ok(seg.body.equals(SEGMENT));
  assert.is(seg.headers['content-length'], '1000');
  assert.is((await get('/media/nope.m4s')).status, 404);
  assert.is((await get('/media/hls')).status, 404);
});

test('media ranges: 206, open-ended, suffix, 416, multi-range falls back to 200', async () => {
  const target = '/media/hls/video/240p/seg-0.m4s';
  const a = await get(target, { Range: 'bytes=0-99' });
  assert.is(a.status, 206);
  assert.is(a.headers['content-range'], 'bytes 0-99/1000');
  assert.is(a.headers['content-length'], '100');
  assert.ok(a.body.equals(SEGMENT.subarray(0, 100)));
  const open = await get(target, { Range: 'bytes=100-' });
  assert.is(open.status, 206);
  assert.is(open.headers['content-range'], 'bytes 100-999/1000');
  assert.ok(open.body.equals(SEGMENT.subarray(100)));
  const suffix = await get(target, { Range: 'bytes=-100' });
  assert.is(suffix.status, 206);
  assert.is(suffix.headers['content-range'], 'bytes 900-999/1000');
  assert.ok(suffix.body.equals(SEGMENT.subarray(900)));
  const clamp = await get(target, { Range: 'bytes=990-5000' });
  assert.is(clamp.headers['content-range'], 'bytes 990-999/1000');
  const bad = await get(target, { Range: 'bytes=1000-' });
  assert.is(bad.status, 416);
  assert.is(bad.headers['content-range'], 'bytes */1000');
  const multi = await get(target, { Range: 'bytes=0-1,5-6' });
  assert.is(multi.status, 200);
  assert.is(multi.body.length, 1000);
});

test('media HEAD: headers without body', async () => {
  const r = await request('HEAD', '/media/hls/video/240p/seg-0.m4s');
  assert.is(r.status, 200);
  assert.is(r.headers['content-length'], '1000');
  assert.is(r.headers['content-type'], 'video/iso.segment');
  assert.is(r.body.length, 0);
  const ranged = await request('HEAD', '/media/hls/video/240p/seg-0.m4s', { headers: { Range: 'bytes=10-19' } });
  assert.is(ranged.status, 206);
  assert.is(ranged.headers['content-length'], '10');
});

test('media preflight allows Range, and the session headers a descriptor is fetched with', async () => {
  const r = await request('OPTIONS', '/media/hls/master.m3u8', { headers: { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET' } });
  assert.is(r.status, 204);
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.match(String(r.headers['access-control-allow-headers']), /Range/);
  for (const target of ['/media/film-4/descriptor.json', '/media/film-6/descriptor.json']) {
    const d = await request('OPTIONS', target, {
      headers: { Origin: 'null', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-session-context,x-xsrf-token' },
    });
    assert.is(d.status, 204, target);
    assert.is(d.headers['access-control-allow-origin'], '*', target);
    assert.is(d.headers['access-control-allow-headers'], 'Range, X-Session-Context, X-XSRF-TOKEN', target);
  }
});

// ---------------------------------------------------------------- player

test('/player/ serves dist/player.html with CSP, fresh for 5 minutes; /player redirects keeping the query', async () => {
  const r = await get('/player/?movie_id=1');
  assert.is(r.status, 200);
  assert.is(r.text(), PLAYER_HTML);
  assert.is(r.headers['content-type'], 'text/html; charset=utf-8');
  assert.is(r.headers['cache-control'], 'public, max-age=300');
  assert.is(
    r.headers['content-security-policy'],
    "default-src 'self'; script-src 'self'; connect-src 'self' https:; media-src 'self' blob: data: https:; img-src 'self' data: https:; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; report-uri /csp-report",
  );
  assert.is(r.headers['access-control-allow-origin'], undefined);
  const redirect = await get('/player?movie_id=2&season=2');
  assert.is(redirect.status, 301);
  assert.is(redirect.headers.location, '/player/?movie_id=2&season=2');
  assert.is((await get('/player')).headers.location, '/player/');
});

test('the player policy admits ad servers on any https origin and the configured http ones; scripts stay self only', async () => {
  const s = await startServer({ port: 0, host: '127.0.0.1', root, adListUrl: 'http://localhost:9000/ad-list.json', adOrigins: ['http://127.0.0.1:9001/vast.xml'] });
  try {
    const policy = String((await request('GET', '/player/', { server: s })).headers['content-security-policy']);
    const directive = (/** @type {string} */ name) => policy.split('; ').find((d) => d.startsWith(`${name} `));
    for (const name of ['connect-src', 'media-src', 'img-src']) {
      assert.ok(directive(name)?.endsWith(' https: http://127.0.0.1:9001 http://localhost:9000'), `${name} in ${policy}`);
    }
    assert.is(directive('script-src'), "script-src 'self'");
    assert.not.match(policy, /unsafe/);
    s.setAdListUrl('/ad-list.json');
    s.setAdOrigins([]);
    const same = String((await request('GET', '/player/', { server: s })).headers['content-security-policy']);
    assert.not.match(same, /http:/, 'a same-origin ad list adds nothing');
  } finally {
    await s.close();
  }
  assert.is(playerPolicy({ reportUri: null }).includes('report-uri'), false, 'a static host without a report endpoint');
  assert.throws(() => playerPolicy({ adOrigins: ['ads.example'] }), /not an absolute address/);
  assert.throws(() => playerPolicy({ adOrigins: ['javascript:alert(1)'] }), /not an http\(s\) address/);
});

test('a page with an inline bootstrap: the header admits it by the hash the build wrote (dist/player.csp.json); the meta copy follows the header', async () => {
  // A dist/ as the build writes it: the page with its meta policy, the manifest (build.mjs CSP_MANIFEST).
  const dist = path.join(root, 'dist-inline');
  const hash = "'sha256-" + 'A'.repeat(43) + "='";
  const meta = playerPolicy({ reportUri: null, scriptHashes: [hash] });
  const page = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${meta}"></head><body><div id="root"></div><script type="module" async>boot()</script></body></html>\n`;
  put('dist-inline/player.html', page);
  putCompressed('dist-inline/player.html');
  put('dist-inline/player.csp.json', JSON.stringify({ scriptHashes: [hash], metaPolicy: meta }));
  const s = await startServer({ port: 0, host: '127.0.0.1', root, distDir: dist });
  try {
    const plain = await request('GET', '/player/?movie_id=1', { server: s, headers: { 'Accept-Encoding': 'br' } });
    const policy = String(plain.headers['content-security-policy']);
    assert.ok(policy.includes(`; script-src 'self' ${hash}; `), policy);
    assert.is(policy, `${meta}; report-uri /csp-report`);
    assert.is(plain.headers['content-encoding'], 'br', 'the build’s copy, as built: its meta is this server’s policy already');
    assert.is(zlib.brotliDecompressSync(plain.body).toString('utf8'), page);

    // An http ad server admitted by this server: the meta copy (enforced too) must admit it as well.
    s.setAdOrigins(['http://127.0.0.1:9001']);
    s.setAdListUrl('http://127.0.0.1:9001/ad-list.json');
    for (const target of ['/player/?movie_id=1', '/player/player.html']) {
      const r = await request('GET', target, { server: s, headers: { 'Accept-Encoding': 'gzip, br' } });
      const header = String(r.headers['content-security-policy']);
      assert.match(header, `script-src 'self' ${hash}; connect-src 'self' https: http://127.0.0.1:9001;`);
      assert.is(r.headers['content-encoding'], 'br', target);
      const html = zlib.brotliDecompressSync(r.body).toString('utf8');
      const served = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1];
      assert.is(served, header.replace('; report-uri /csp-report', ''), `${target}: the meta is the header without report-uri`);
      assert.match(html, 'data-env-ad-list-url="http://127.0.0.1:9001/ad-list.json"');
      assert.match(html, '<script type="module" async>boot()</script>');
      const again = await request('GET', target, { server: s, headers: { 'Accept-Encoding': 'gzip, br', 'If-None-Match': String(r.headers.etag) } });
      assert.is(again.status, 304, `${target}: revalidated by its ETag`);
    }
  } finally {
    await s.close();
  }
  assert.throws(() => playerPolicy({ scriptHashes: ["'unsafe-inline'"] }), /not a script hash/);
});

test('precompressed assets: br, then gzip, else identity; Vary always', async () => {
  const br = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.is(br.headers['content-encoding'], 'br');
  assert.is(br.headers.vary, 'Accept-Encoding');
  assert.is(br.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.is(zlib.brotliDecompressSync(br.body).toString(), MAIN_JS);
  const gz = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'gzip' });
  assert.is(gz.headers['content-encoding'], 'gzip');
  assert.is(zlib.gunzipSync(gz.body).toString(), MAIN_JS);
  const noBr = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' });
  assert.is(noBr.headers['content-encoding'], 'gzip');
  const id = await get('/player/main-ABCDEF12.js');
  assert.is(id.headers['content-encoding'], undefined);
  assert.is(id.headers.vary, 'Accept-Encoding');
  assert.is(id.text(), MAIN_JS);
  const star = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'identity' });
  assert.is(star.headers['content-encoding'], undefined);
  const html = await get('/player/', { 'Accept-Encoding': 'br' });
  assert.is(html.headers['content-encoding'], 'br');
  assert.is(zlib.brotliDecompressSync(html.body).toString(), PLAYER_HTML);
  // No precompressed sibling: identity even when br is accepted.
  const worker = await get('/player/worker.js', { 'Accept-Encoding': 'br' });
  assert.is(worker.headers['content-encoding'], undefined);
});

test('hashed names are immutable, others no-cache; query strings are ignored', async () => {
  const hashed = await get('/player/main-ABCDEF12.js?widget=hls');
  assert.is(hashed.status, 200);
  assert.is(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
  const plain = await get('/player/worker.js');
  assert.is(plain.headers['cache-control'], 'no-cache');
  assert.is(plain.headers['content-security-policy'], undefined);
  assert.is((await get('/player/missing-ABCDEF12.js')).status, 404);
});

test('built assets answer CORS with *, for a frame sandboxed without allow-same-origin (origin null)', async () => {
  const js = await get('/player/main-ABCDEF12.js?widget=hls', { Origin: 'null' });
  assert.is(js.status, 200);
  assert.is(js.headers['access-control-allow-origin'], '*');
  assert.is(js.headers['access-control-allow-credentials'], undefined);
  assert.is(js.headers.vary, 'Accept-Encoding', 'one cache entry for every origin');
  const revalidated = await get('/player/main-ABCDEF12.js', { Origin: 'null', 'If-None-Match': String(js.headers.etag) });
  assert.is(revalidated.status, 304);
  assert.is(revalidated.headers['access-control-allow-origin'], '*');
  const missing = await get('/player/missing-ABCDEF12.js', { Origin: 'null' });
  assert.is(missing.status, 404);
  assert.is(missing.headers['access-control-allow-origin'], '*');
  const preflight = await request('OPTIONS', '/player/worker.js', { headers: { Origin: 'null', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'range' } });
  assert.is(preflight.status, 204);
  assert.match(String(preflight.headers['access-control-allow-headers']), /Range/);
});

test('ETag + If-None-Match answers 304, per encoding', async () => {
  const first = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'br' });
  const etag = String(first.headers.etag);
  assert.ok(etag);
  const again = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
  assert.is(again.headers.etag, etag);
  const other = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
  assert.is(other.status, 200);
  const media = await get('/media/clip.mp4');
  assert.is((await get('/media/clip.mp4', { 'If-None-Match': String(media.headers.etag) })).status, 304);
});

test('directory traversal is refused', async () => {
  for (const target of [
    '/player/../package.json',
    '/player/%2e%2e/package.json',
    '/player/..%2fpackage.json',
    '/player/%2e%2e%2fpackage.json',
    '/player/%2fetc%2fpasswd',
    '/player/..%5cpackage.json',
    '/media/..%2f..%2fpackage.json',
    '/media/../../package.json',
    '/media/%2e%2e/%2e%2e/package.json',
    '/media/%2Fetc%2Fpasswd',
    '/media/hls/%00master.m3u8',
    '/media/%E0%A4%A',
  ]) {
    const r = await get(target);
    assert.is(r.status, 404, target);
    assert.not.match(r.text(), /secret/, target);
  }
});

test('a missing build answers 503 on /player/ but the API still works', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'player-server-empty-'));
  const other = await startServer({ port: 0, root: empty });
  try {
    const r = await request('GET', '/player/', { server: other });
    assert.is(r.status, 503);
    assert.match(r.text(), /npm run build/);
    assert.is((await request('GET', '/catalog-api/contents/1', { server: other })).status, 200);
  } finally {
    await other.close();
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- demo, CSP reports, misc

test('demo page, its assets and CSP', async () => {
  const r = await get('/');
  assert.is(r.status, 200);
  assert.is(r.headers['content-security-policy'], "default-src 'self'; frame-src 'self'; img-src 'self' data:");
  const html = r.text();
  assert.match(html, /<iframe id="player"[^>]*src="\/player\/\?movie_id=1"/);
  assert.match(html, /allow="autoplay; fullscreen; picture-in-picture; encrypted-media"/);
  assert.not.match(html, /<script>|<style|style="/);
  for (const id of [1, 2, 3, 4, 5, 6]) assert.match(html, new RegExp(`href="/player/\\?movie_id=${id}"`));
  assert.match(html, /movie_id=2&amp;season=2&amp;episode=3/);
  assert.is((await get('/demo/demo.js')).headers['content-type'], 'text/javascript; charset=utf-8');
  assert.is((await get('/demo/demo.css')).headers['content-type'], 'text/css; charset=utf-8');
  assert.is((await get('/demo/index.html')).status, 404);
});

test('bench page: bare hls.js on the master playlist, hls.js from the package, br, else gzip, else identity', async () => {
  const page = await get('/bench/hls.html');
  assert.is(page.status, 200);
  assert.is(page.headers['content-security-policy'], undefined);
  assert.match(page.text(), /import Hls from '\/bench\/hls\.mjs'/);
  assert.match(page.text(), /\/media\/hls\/master\.m3u8/);
  assert.match(page.text(), /new Hls\(\)/);
  const own = fs.readFileSync(new URL('../../node_modules/hls.js/dist/hls.min.mjs', import.meta.url));
  const br = await get('/bench/hls.mjs', { 'Accept-Encoding': 'gzip, br' });
  assert.is(br.headers['content-encoding'], 'br');
  assert.is(br.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.ok(zlib.brotliDecompressSync(br.body).equals(own));
  const gz = await get('/bench/hls.mjs', { 'Accept-Encoding': 'gzip' });
  assert.is(gz.headers['content-encoding'], 'gzip');
  assert.ok(zlib.gunzipSync(gz.body).equals(own));
  const plain = await get('/bench/hls.mjs', { 'Accept-Encoding': 'br;q=0' });
  assert.is(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.equals(own));
});

test('CSP reports are recorded', async () => {
  srv.cspReports.length = 0;
  const report = { 'csp-report': { 'document-uri': 'http://x/player/', 'violated-directive': 'script-src-elem' } };
  const r = await request('POST', '/csp-report', { headers: { 'Content-Type': 'application/csp-report' }, body: JSON.stringify(report) });
  assert.is(r.status, 204);
  const modern = [{ type: 'csp-violation', body: { effectiveDirective: 'img-src' } }];
  await request('POST', '/csp-report', { headers: { 'Content-Type': 'application/reports+json' }, body: JSON.stringify(modern) });
  assert.equal(srv.cspReports, [report, modern]);
  assert.is((await request('POST', '/csp-report', { headers: { 'Content-Type': 'text/plain' }, body: '{}' })).status, 415);
  const big = await request('POST', '/csp-report', { headers: { 'Content-Type': 'application/csp-report' }, body: Buffer.alloc(65 * 1024, 0x20) });
  assert.is(big.status, 413);
  assert.is(srv.cspReports.length, 2);
});

test('unknown paths answer 404 text with nosniff', async () => {
  const r = await get('/nothing-here');
  assert.is(r.status, 404);
  assert.match(String(r.headers['content-type']), /^text\/plain/);
  assert.is(r.headers['x-content-type-options'], 'nosniff');
});

test('request log records method, path, query, lowercased headers and time', async () => {
  const before = Date.now();
  await get('/catalog-api/episodes?content-id=2', { 'X-Session-Context': 'fp-1' });
  await request('HEAD', '/media/clip.mp4');
  assert.is(srv.requests.length, 2);
  const [a, b] = srv.requests;
  assert.is(a.method, 'GET');
  assert.is(a.path, '/catalog-api/episodes');
  assert.is(a.query, '?content-id=2');
  assert.is(a.headers['x-session-context'], 'fp-1');
  assert.ok(a.time >= before && a.time <= Date.now());
  assert.is(b.method, 'HEAD');
  assert.is(b.query, '');
  srv.clearRequests();
  assert.is(srv.requests.length, 0);
});

test(`the request log keeps the newest ${REQUEST_LOG_LIMIT} requests by default, newest last`, async () => {
  const extra = 7;
  // Pipelined on one connection: the server takes the requests in sending order, and quickly.
  const total = REQUEST_LOG_LIMIT + extra;
  const raw = Array.from({ length: total }, (_, i) => `GET /nothing-here?n=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n${i === total - 1 ? 'Connection: close\r\n' : ''}\r\n`);
  await new Promise((resolve, reject) => {
    const socket = net.connect(srv.port, '127.0.0.1', () => socket.end(raw.join('')));
    socket.on('error', reject);
    socket.resume();
    socket.on('close', resolve);
  });
  assert.is(srv.requests.length, REQUEST_LOG_LIMIT);
  const kept = srv.requests.map((r) => Number(r.query.slice('?n='.length)));
  assert.is(kept[0], extra, 'the oldest entries were dropped');
  assert.is(kept[kept.length - 1], REQUEST_LOG_LIMIT + extra - 1, 'the newest entry is last');
  assert.ok(kept.every((n, i) => n === extra + i), 'in order, none missing');
});

test('every log is capped: requestLogLimit and eventLogLimit keep the newest entries, newest last', async () => {
  const s = await startServer({ port: 0, host: '127.0.0.1', root, requestLogLimit: 5, eventLogLimit: 3 });
  try {
    for (let i = 0; i < 8; i++) await request('GET', `/ads/track?ad=a&ev=e${i}`, { server: s });
    for (let i = 0; i < 4; i++) {
      await request('POST', '/csp-report', { server: s, headers: { 'Content-Type': 'application/csp-report' }, body: JSON.stringify({ n: i }) });
    }
    assert.equal(
      s.requests.map((r) => r.query || r.path),
      ['?ad=a&ev=e7', '/csp-report', '/csp-report', '/csp-report', '/csp-report'],
    );
    assert.equal(
      s.adHits.map((h) => h.event),
      ['e5', 'e6', 'e7'],
    );
    assert.equal(s.cspReports, [{ n: 1 }, { n: 2 }, { n: 3 }]);
    // Cleared in place, the same arrays fill up again.
    s.clearRequests();
    s.adHits.length = 0;
    await request('GET', '/ads/track?ad=b&ev=again', { server: s });
    assert.equal(
      s.requests.map((r) => r.query),
      ['?ad=b&ev=again'],
    );
    assert.equal(
      s.adHits.map((h) => h.event),
      ['again'],
    );
  } finally {
    await s.close();
  }
  for (const bad of [-1, 1.5, NaN]) {
    await startServer({ port: 0, host: '127.0.0.1', root, requestLogLimit: bad }).then(
      () => assert.unreachable(`requestLogLimit ${bad} accepted`),
      (err) => assert.instance(err, TypeError),
    );
  }
});

// ---------------------------------------------------------------- faults

test('status fault with CORS headers of the route; clearFaults restores', async () => {
  srv.setFaults([{ match: '/catalog-api/contents/1', status: 500 }]);
  const r = await get('/catalog-api/contents/1/seasons');
  assert.is(r.status, 500);
  assert.equal(r.json(), { error: 'injected fault' });
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.is(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.is((await get('/catalog-api/contents/2')).status, 200);
  srv.clearFaults();
  assert.is((await get('/catalog-api/contents/1')).status, 200);
});

test('times: only the first N matching requests; RegExp on path + query; method filter', async () => {
  srv.setFaults([{ match: /episodes\?content-id=2$/, status: 503, times: 2 }]);
  assert.is((await get('/catalog-api/episodes?content-id=1')).status, 200);
  assert.is((await get('/catalog-api/episodes?content-id=2')).status, 503);
  assert.is((await get('/catalog-api/episodes?content-id=2')).status, 503);
  assert.is((await get('/catalog-api/episodes?content-id=2')).status, 200);
  srv.setFaults([{ match: '/catalog-api/', method: 'POST', status: 500 }, { match: '/catalog-api/', status: 418 }]);
  assert.is((await request('POST', '/catalog-api/contents/2/episodes/201/time-progress', { body: '{}' })).status, 500);
  assert.is((await get('/catalog-api/contents/2')).status, 418);
  // Preflights are left alone unless a fault names OPTIONS.
  assert.is((await request('OPTIONS', '/catalog-api/contents/2')).status, 204);
});

test('several faults: the first matching one applies', async () => {
  srv.setFaults([
    { match: '/media/hls/', status: 404, times: 1 },
    { match: '/media/', status: 500 },
  ]);
  assert.is((await get('/media/hls/master.m3u8')).status, 404);
  assert.is((await get('/media/hls/master.m3u8')).status, 500);
  assert.is((await get('/media/clip.mp4')).status, 500);
});

test('delay fault answers normally after at least the given time', async () => {
  srv.setFaults([{ match: '/catalog-api/contents/1', delay: 150 }]);
  const t0 = performance.now();
  const r = await get('/catalog-api/contents/1');
  assert.ok(performance.now() - t0 >= 145, 'delayed');
  assert.is(r.status, 200);
  assert.is(r.json().id, 1);
});

test('truncate fault: full Content-Length, half the body, then the connection dies', async () => {
  srv.setFaults([{ match: '/media/hls/video/', body: 'truncate' }]);
  const r = await get('/media/hls/video/240p/seg-0.m4s');
  assert.is(r.status, 200);
  assert.is(r.headers['content-length'], '1000');
  assert.ok(r.error, 'connection error');
  assert.is(r.body.length, 500);
  assert.ok(r.body.equals(SEGMENT.subarray(0, 500)));
  srv.setFaults([{ match: '/catalog-api/', body: 'truncate' }]);
  const api = await get('/catalog-api/contents/1');
  assert.ok(api.error);
  assert.ok(Number(api.headers['content-length']) > api.body.length);
});

test('garbage fault: 200 with random bytes instead of the body', async () => {
  srv.setFaults([{ match: '/catalog-api/contents/1', body: 'garbage' }]);
  const r = await get('/catalog-api/contents/1');
  assert.is(r.status, 200);
  assert.is(r.error, null);
  assert.is(Number(r.headers['content-length']), r.body.length);
  assert.throws(() => r.json());
  srv.setFaults([{ match: '/player/main', body: 'garbage' }]);
  const js = await get('/player/main-ABCDEF12.js', { 'Accept-Encoding': 'br' });
  assert.is(js.status, 200);
  assert.is(js.headers['content-encoding'], undefined);
  assert.not.ok(js.body.toString().includes('export const'));
  srv.setFaults([{ match: '/media/', body: 'garbage' }]);
  const ranged = await get('/media/hls/video/240p/seg-0.m4s', { Range: 'bytes=0-99' });
  assert.is(ranged.status, 200);
  assert.is(ranged.headers['content-range'], undefined);
});

test('stall fault: no answer until close, which releases the socket', async () => {
  const s = await startServer({ port: 0, root, faults: [{ match: '/catalog-api/contents/1', stall: true }] });
  let answered = false;
  const pending = request('GET', '/catalog-api/contents/1', { server: s }).then((r) => {
    answered = true;
    return r;
  });
  await new Promise((r) => setTimeout(r, 150));
  assert.is(answered, false);
  assert.is(s.requests.length, 1);
  assert.is((await request('GET', '/catalog-api/contents/2', { server: s })).status, 200);
  const t0 = performance.now();
  await s.close();
  const r = await pending;
  assert.ok(performance.now() - t0 < 1000, 'close is prompt');
  assert.ok(r.error, 'the stalled request fails when the server closes');
  assert.is(r.status, 0);
});

test('delayed request pending at close does not keep the server alive', async () => {
  const s = await startServer({ port: 0, root, faults: [{ match: '/', delay: 10_000 }] });
  const pending = request('GET', '/catalog-api/contents/1', { server: s });
  await new Promise((r) => setTimeout(r, 50));
  const t0 = performance.now();
  await s.close();
  assert.ok((await pending).error);
  assert.ok(performance.now() - t0 < 1000);
});

test('extra routes from options come first; router.add appends', async () => {
  const s = await startServer({
    port: 0,
    root,
    routes: [{ method: 'GET', path: '/media/clip.mp4', cors: 'media', handler: ({ res }) => { res.statusCode = 410; res.end('gone'); } }],
  });
  try {
    s.router.add({ method: 'GET', path: '/extra-list.json', cors: 'api', handler: ({ res }) => { res.setHeader('Content-Type', 'application/json'); res.end('{"prerollList":[]}'); } });
    const gone = await request('GET', '/media/clip.mp4', { server: s });
    assert.is(gone.status, 410);
    assert.is(gone.headers['access-control-allow-origin'], '*');
    const ads = await request('GET', '/extra-list.json', { server: s });
    assert.equal(ads.json(), { prerollList: [] });
    assert.is(ads.headers['access-control-allow-origin'], '*');
  } finally {
    await s.close();
  }
});

test('setFaults validates its input', () => {
  assert.throws(() => srv.setFaults(/** @type {any} */ ([{ status: 500 }])));
  assert.throws(() => srv.setFaults(/** @type {any} */ ([{ match: '/', body: 'explode' }])));
  assert.throws(() => srv.setFaults(/** @type {any} */ ('nope')));
});

// ---------------------------------------------------------------- ads

test('ad list: defaults, chosen fixtures, absolute VAST URLs on the asked Host, CORS; unknown names are 400', async () => {
  const def = await get('/ad-list.json', { Host: 'ads.example:9000' });
  assert.is(def.status, 200);
  assert.is(def.headers['access-control-allow-origin'], '*');
  assert.equal(def.json(), {
    prerollList: [{ vastUrl: 'http://ads.example:9000/ads/vast/skippable.xml' }],
    midrollList: [{ vastUrl: 'http://ads.example:9000/ads/vast/nonskippable.xml' }],
  });
  const chosen = (await get('/ad-list.json?pre=wrapper,empty&mid=')).json();
  assert.equal(chosen.prerollList.map((/** @type {{vastUrl: string}} */ i) => i.vastUrl.replace(srv.url, '')), ['/ads/vast/wrapper.xml', '/ads/vast/empty.xml']);
  assert.equal(chosen.midrollList, []);
  assert.is((await get('/ad-list.json?pre=nope')).status, 400);
  const apart = (await get('/ad-list.json?pre=empty&mid=&vast_origin=http%3A%2F%2Flocalhost%3A9000')).json();
  assert.equal(apart.prerollList, [{ vastUrl: 'http://localhost:9000/ads/vast/empty.xml' }]);
  for (const bad of ['javascript:alert(1)', 'http://localhost:9000/x', 'localhost:9000', ''])
    assert.is((await get(`/ad-list.json?vast_origin=${encodeURIComponent(bad)}`)).status, 400, bad);
});

test('VAST fixtures are served as XML; unknown ones are 404', async () => {
  // `stall` answers after STALL_MS on purpose (the wrapper-timeout case): its document is the same as any.
  for (const name of Object.keys(VAST).filter((n) => n !== 'stall')) {
    const r = await get(`/ads/vast/${name}.xml`);
    assert.is(r.status, 200, name);
    assert.match(String(r.headers['content-type']), /^application\/xml/);
    assert.match(r.text(), name === 'vast-one' ? /<VideoAdServingTemplate/ : /<VAST version=/);
    assert.ok(r.text().includes(`${srv.url}/ads/track?ad=`), `${name}: pixels on this server`);
  }
  assert.is((await get('/ads/vast/nope.xml')).status, 404);
  assert.is((await get('/ads/vast/../index.xml')).status, 404);
  const creative = await get('/ads/vpaid-creative.js');
  assert.is(creative.status, 200);
  assert.match(creative.text(), /getVPAIDAd/);
});

test('VAST documents answer credentialed CORS to the caller, null (a sandboxed frame) included', async () => {
  for (const origin of ['null', 'https://partner.example']) {
    const r = await get('/ads/vast/skippable.xml', { Origin: origin });
    assert.is(r.status, 200, origin);
    assert.is(r.headers['access-control-allow-origin'], origin);
    assert.is(r.headers['access-control-allow-credentials'], 'true');
    assert.is(r.headers.vary, 'Origin');
  }
  const sameOrigin = await get('/ads/vast/skippable.xml');
  assert.is(sameOrigin.headers['access-control-allow-origin'], undefined);
  assert.is(sameOrigin.headers.vary, 'Origin');
  const missing = await get('/ads/vast/nope.xml', { Origin: 'null' });
  assert.is(missing.status, 404);
  assert.is(missing.headers['access-control-allow-origin'], 'null');
});

test('the tracking endpoint records every hit in order', async () => {
  srv.adHits.length = 0;
  assert.is((await get('/ads/track?ad=skippable&ev=start')).status, 204);
  await get('/ads/track?ad=empty&ev=error&code=901');
  assert.equal(
    srv.adHits.map((h) => [h.ad, h.event, h.query]),
    [
      ['skippable', 'start', { ad: 'skippable', ev: 'start' }],
      ['empty', 'error', { ad: 'empty', ev: 'error', code: '901' }],
    ],
  );
});

test('the player page carries data-env-ad-list-url only when an ad list is configured', async () => {
  const adsRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'player-ads-test-'));
  fs.mkdirSync(path.join(adsRoot, 'dist'));
  fs.writeFileSync(path.join(adsRoot, 'dist', 'player.html'), '<!doctype html><body><div id="root" class="root"></div></body>\n');
  fs.writeFileSync(path.join(adsRoot, 'dist', 'vpaid.html'), '<!doctype html><body></body>\n');
  const s = await startServer({ port: 0, host: '127.0.0.1', root: adsRoot, adListUrl: '/ad-list.json?pre=a&mid="x"' });
  try {
    const page = await request('GET', '/player/?movie_id=1', { server: s });
    assert.is(page.status, 200);
    assert.match(String(page.headers['content-security-policy']), /^default-src 'self'/);
    assert.ok(page.text().includes('<div id="root" data-env-ad-list-url="/ad-list.json?pre=a&amp;mid=&quot;x&quot;" class="root">'));
    s.setAdListUrl(undefined);
    assert.not.ok((await request('GET', '/player/', { server: s })).text().includes('data-env-ad-list-url'));
    const frame = await request('GET', '/player/vpaid.html', { server: s });
    assert.match(String(frame.headers['content-security-policy']), /^default-src 'none'; script-src 'self' http: https:/);
  } finally {
    await s.close();
    fs.rmSync(adsRoot, { recursive: true, force: true });
  }
  assert.is(withAdListAttribute('<div id="root">', '<x>'), '<div id="root" data-env-ad-list-url="&lt;x&gt;">');
});

test('sentry ingest: parses an envelope (with and without item lengths) and records the event', async () => {
  srv.sentryEvents.length = 0;
  srv.sentryItems.length = 0;
  const event = { event_id: 'ab'.repeat(16), message: 'привет' };
  const payload = Buffer.from(JSON.stringify(event));
  const replay = Buffer.from([0, 10, 255, 10, 1]);
  const envelope = Buffer.concat([
    Buffer.from(`${JSON.stringify({ event_id: event.event_id })}\n`),
    Buffer.from(`${JSON.stringify({ type: 'event', length: payload.length })}\n`),
    payload,
    Buffer.from(`\n${JSON.stringify({ type: 'replay_recording', length: replay.length })}\n`),
    replay,
    Buffer.from(`\n${JSON.stringify({ type: 'client_report' })}\n{"discarded_events":[]}\n`),
  ]);
  const r = await request('POST', '/api/1/envelope/?sentry_key=publickey&sentry_version=7', {
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body: envelope,
  });
  assert.is(r.status, 200);
  assert.is(r.json().id, event.event_id);
  assert.is(r.headers['access-control-allow-origin'], '*');
  assert.is(srv.sentryEvents.length, 1);
  assert.equal(srv.sentryEvents[0].event, event);
  assert.is(srv.sentryEvents[0].project, '1');
  assert.is(srv.sentryEvents[0].key, 'publickey');
  assert.equal(
    srv.sentryItems.map((i) => [i.type, i.bytes]),
    [['event', payload.length], ['replay_recording', 5], ['client_report', 23]],
  );
});

test('sentry ingest: gzip bodies, auth header key; refuses a missing key and a malformed envelope', async () => {
  srv.sentryEvents.length = 0;
  const body = zlib.gzipSync(Buffer.from('{}\n{"type":"event"}\n{"event_id":"x"}\n'));
  const ok = await request('POST', '/api/7/envelope/', {
    headers: { 'Content-Encoding': 'gzip', 'X-Sentry-Auth': 'Sentry sentry_version=7, sentry_key=k1' },
    body,
  });
  assert.is(ok.status, 200);
  assert.is(srv.sentryEvents[0].key, 'k1');
  assert.is((await request('POST', '/api/1/envelope/', { body: '{}\n' })).status, 401);
  assert.is((await request('POST', '/api/1/envelope/?sentry_key=k', { body: 'not json' })).status, 400);
  assert.is((await request('POST', '/api/1/envelope/?sentry_key=k', { body: '{}\n{"type":"event","length":99}\n{}' })).status, 400);
});

test('refresh: a new signed token in the Authorization header, keeping the claims; revoked and bad bodies refused', async () => {
  srv.refreshes.length = 0;
  const old = `x.${Buffer.from(JSON.stringify({ sub: 'u1', exp: 1 })).toString('base64url')}.y`;
  const r = await request('POST', '/authenticator/authentication/refresh', {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken: 'r1', accessToken: old }),
  });
  assert.is(r.status, 200);
  assert.is(r.headers['access-control-expose-headers'], 'Authorization');
  const token = String(r.headers.authorization).replace(/^Bearer /, '');
  const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
  assert.is(payload.sub, 'u1');
  assert.ok(payload.exp > Date.now() / 1000 + 3000, 'fresh exp');
  assert.is(srv.refreshes.length, 1);
  assert.is(srv.refreshes[0].token, token);
  srv.revokedRefreshTokens.add('bad');
  const revoked = await request('POST', '/authenticator/authentication/refresh', { body: JSON.stringify({ refreshToken: 'bad', accessToken: old }) });
  assert.is(revoked.status, 401);
  assert.is(revoked.headers.authorization, undefined);
  assert.is((await request('POST', '/authenticator/authentication/refresh', { body: '{}' })).status, 400);
  assert.is((await request('POST', '/authenticator/authentication/refresh', { body: 'nope' })).status, 400);
  srv.revokedRefreshTokens.clear();
});

// ---------------------------------------------------------------- the generated ladder (.cache/media)

/**
 * A fake generated ladder: a master with one variant of `segments` 4 s segments, an audio and a
 * subtitle rendition, thumbnails.
 * @param {string} base e.g. '<root>/.cache/media/ladder'
 * @param {number} segments
 */
function putLadder(base, segments) {
  const file = (/** @type {string} */ rel, /** @type {string | Buffer} */ content) => {
    fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    fs.writeFileSync(path.join(base, rel), content);
  };
  const media = (/** @type {string} */ ext, map = true) =>
    '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n' +
    (map ? '#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI="init.mp4"\n' : '') +
    Array.from({ length: segments }, (_, i) => `#EXTINF:4.000000,\nseg_${String(i).padStart(3, '0')}.${ext}\n`).join('') +
    '#EXT-X-ENDLIST\n';
  file('.stamp', 'hash\n');
  file(
    'master.m3u8',
    '#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID="com.embed-player.thumbnails",URI="thumbs.vtt"\n' +
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Русский",URI="audio/rus/index.m3u8"\n' +
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Русские",URI="subs/rus/index.m3u8"\n' +
      '#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="aud",SUBTITLES="subs"\nvideo/240p/index.m3u8\n',
  );
  file('video/240p/index.m3u8', media('m4s'));
  file('video/240p/init.mp4', Buffer.alloc(16, 2));
  for (let i = 0; i < segments; i++) file(`video/240p/seg_${String(i).padStart(3, '0')}.m4s`, SEGMENT);
  file('audio/rus/index.m3u8', media('m4s'));
  file('subs/rus/index.m3u8', media('vtt', false));
  file('thumbs.vtt', `WEBVTT\n\n${Array.from({ length: segments }, (_, i) => `00:00:${String(i * 4).padStart(2, '0')}.000 --> 00:00:${String(i * 4 + 4).padStart(2, '0')}.000\nthumbs.jpg#xywh=${i * 160},0,160,90\n`).join('\n')}`);
}

putLadder(path.join(root, '.cache/media/ladder-small'), 3);

test('ladder not generated: its titles answer 503 saying what to run, logged once; the rest is served', async () => {
  const warnings = /** @type {string[]} */ ([]);
  const warn = console.warn;
  console.warn = (/** @type {unknown[]} */ ...args) => void warnings.push(args.join(' '));
  try {
    for (const target of ['/media/ladder/master.m3u8', '/media/ladder/video/240p/seg_000.m4s', '/media/ladder-long/master.m3u8', '/media/ladder-long/video/240p/index.m3u8']) {
      const r = await get(target);
      assert.is(r.status, 503, target);
      assert.match(r.text(), 'npm run media:ladder', target);
      assert.is(r.headers['access-control-allow-origin'], '*');
    }
  } finally {
    console.warn = warn;
  }
  assert.is(warnings.length, 1);
  assert.match(warnings[0], 'run npm run media:ladder');
  assert.is((await get('/media/hls/master.m3u8')).status, 200);
});

test('small ladder: served from .cache/media/ladder-small with the media headers and ranges; the cache files are not', async () => {
  const master = await get('/media/ladder-small/master.m3u8');
  assert.is(master.status, 200);
  assert.is(master.headers['content-type'], 'application/vnd.apple.mpegurl');
  assert.is(master.headers['cache-control'], 'public, max-age=3600');
  assert.is(master.headers['access-control-allow-origin'], '*');
  assert.match(master.text(), 'video/240p/index.m3u8');
  const seg = await get('/media/ladder-small/video/240p/seg_002.m4s', { Range: 'bytes=10-19' });
  assert.is(seg.status, 206);
  assert.is(seg.headers['content-type'], 'video/iso.segment');
  assert.ok(seg.body.equals(SEGMENT.subarray(10, 20)));
  assert.is((await get('/media/ladder-small/.stamp')).status, 404);
  assert.is((await get('/media/ladder-small/video/240p/seg_009.m4s')).status, 404);
  assert.is((await get('/media/ladder-small/../ladder-small/master.m3u8')).status, 404);
});

test('long title: the film looped to about 2 hours, one discontinuity per loop, links to the film’s own segments', async () => {
  const longRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'player-server-ladder-'));
  putLadder(path.join(longRoot, '.cache/media/ladder'), 3); // a 12 s film: 600 loops
  const s = await startServer({ port: 0, host: '127.0.0.1', root: longRoot });
  try {
    const at = (/** @type {string} */ target) => request('GET', target, { server: s });
    const film = await at('/media/ladder/master.m3u8');
    const master = await at('/media/ladder-long/master.m3u8');
    assert.is(master.status, 200);
    assert.is(master.text(), film.text(), 'the master is the film’s: its links are relative');

    const video = await at('/media/ladder-long/video/240p/index.m3u8');
    assert.is(video.status, 200);
    assert.is(video.headers['content-type'], 'application/vnd.apple.mpegurl');
    assert.is(video.headers['cache-control'], 'public, max-age=3600');
    const text = video.text();
    const count = (/** @type {RegExp} */ re) => (text.match(re) || []).length;
    assert.is(count(/^#EXTINF:4\.000000,$/gm), 1800);
    assert.is(count(/^#EXT-X-DISCONTINUITY$/gm), 599);
    assert.is(count(/^#EXT-X-MAP:URI="\.\.\/\.\.\/\.\.\/ladder\/video\/240p\/init\.mp4"$/gm), 600);
    assert.is(count(/^#EXT-X-ENDLIST$/gm), 1);
    assert.ok(text.startsWith('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n'));
    assert.ok(text.endsWith('../../../ladder/video/240p/seg_002.m4s\n#EXT-X-ENDLIST\n'));
    const segUrl = new URL('../../../ladder/video/240p/seg_001.m4s', `${s.url}/media/ladder-long/video/240p/index.m3u8`);
    assert.ok((await at(segUrl.pathname)).body.equals(SEGMENT));
    const again = await at('/media/ladder-long/video/240p/index.m3u8');
    assert.is(again.headers.etag, video.headers.etag, 'made once, then served as a file');

    const subs = (await at('/media/ladder-long/subs/rus/index.m3u8')).text();
    assert.ok(subs.includes('\n../../../ladder/subs/rus/seg_000.vtt\n'));
    assert.not.ok(subs.includes('EXT-X-MAP'));
    assert.is((await at('/media/ladder-long/audio/rus/index.m3u8')).status, 200);

    const thumbs = await at('/media/ladder-long/thumbs.vtt');
    assert.is(thumbs.headers['content-type'], 'text/vtt; charset=utf-8');
    const cues = thumbs.text().trim().split('\n\n').slice(1);
    assert.is(cues.length, 1800);
    assert.is(cues[3], '00:00:12.000 --> 00:00:16.000\n../ladder/thumbs.jpg#xywh=0,0,160,90');
    assert.is(cues[1799], '01:59:56.000 --> 02:00:00.000\n../ladder/thumbs.jpg#xywh=320,0,160,90');

    for (const target of ['/media/ladder-long/video/240p/seg_000.m4s', '/media/ladder-long/nope.m3u8', '/media/ladder-long/.long/thumbs.vtt']) {
      assert.is((await at(target)).status, 404, target);
    }
  } finally {
    await s.close();
    fs.rmSync(longRoot, { recursive: true, force: true });
  }
});

test.run();
