import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { login } from '../../../src/api/authenticator';
import { getContent, getEpisodes, postTimeProgress } from '../../../src/api/catalog';
import { getJson } from '../../../src/api/http';
import { isHttpError } from '../../../src/core/errors';
import { writeCookie } from '../../../src/storage/write-cookie';
// @ts-expect-error: the server is plain JS with JSDoc types
import { startServer } from '../../../server/index.mjs';
import { installDom } from '../dom';
import { jwt } from './jwt';

type Call = { url: string; init: RequestInit; headers: Record<string, string> };
const realFetch = globalThis.fetch;
const BASE = 'https://api.example';
const past = () => Math.floor(Date.now() / 1000) - 60;
const future = () => Math.floor(Date.now() / 1000) + 3600;

function fakeFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    calls.push({ url: String(url), init, headers: { ...(init.headers as Record<string, string>) } });
    return handler(String(url), init);
  }) as typeof fetch;
  return calls;
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', ...headers } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function clearCookies() {
  for (const name of ['authToken', 'refreshToken', 'XSRF-TOKEN', 'device_fp']) document.cookie = `${name}=; path=/; max-age=0`;
}
const cookie = (name: string) => document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);

let warn: typeof console.warn;
const warnings: unknown[][] = [];
test.before(() => {
  installDom('https://player.example/player/?movie_id=1');
  warn = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args);
});
test.after(() => {
  globalThis.fetch = realFetch;
  console.warn = warn;
});
test.before.each(() => {
  clearCookies();
  warnings.length = 0;
});

test('every request carries X-Session-Context (empty without a fingerprint) and echoes XSRF-TOKEN', async () => {
  const calls = fakeFetch(() => json({ id: 1 }));
  await getContent(BASE, 1);
  assert.is(calls[0].url, 'https://api.example/catalog-api/contents/1');
  assert.is(calls[0].headers['X-Session-Context'], '');
  assert.is(calls[0].headers['X-XSRF-TOKEN'], undefined);
  assert.is(calls[0].headers.Authorization, undefined, 'no token, no Bearer');
  document.cookie = 'device_fp=abc123; path=/';
  document.cookie = 'XSRF-TOKEN=x%2Fs; path=/';
  await getJson('https://cdn.example/d.json');
  assert.is(calls[1].headers['X-Session-Context'], 'abc123');
  assert.is(calls[1].headers['X-XSRF-TOKEN'], 'x/s');
});

test('secure calls carry Bearer; a foreign address (getJson) never does; bodies go as JSON', async () => {
  const token = jwt({ sub: 'u', exp: future() });
  document.cookie = `authToken=${token}; path=/`;
  const calls = fakeFetch(() => json({ ok: 1 }));
  await getEpisodes(BASE, 2);
  await getJson('https://cdn.example/d.json');
  await login(BASE, { login: 'a', password: 'b' });
  assert.is(calls[0].url, 'https://api.example/catalog-api/episodes?content-id=2');
  assert.is(calls[0].headers.Authorization, `Bearer ${token}`);
  assert.is(calls[1].headers.Authorization, undefined);
  assert.is(calls[2].url, 'https://api.example/authenticator/authentication');
  assert.is(calls[2].init.method, 'POST');
  assert.is(calls[2].headers['Content-Type'], 'application/json');
  assert.is(calls[2].init.body, '{"login":"a","password":"b"}');
  assert.is(calls.filter((c) => c.url.includes('/refresh')).length, 0, 'a fresh token is not refreshed');
});

test('an expired token: one refresh for five concurrent requests, all sent with the new token, cookie stored', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  const fresh = jwt({ sub: 'u', exp: future() });
  document.cookie = `authToken=${old}; path=/`;
  document.cookie = 'refreshToken=r1; path=/';
  const calls = fakeFetch(async (url) => {
    if (url.endsWith('/authenticator/authentication/refresh')) {
      await sleep(30);
      return json({}, { Authorization: `Bearer ${fresh}` });
    }
    return json({ id: 1 });
  });
  await Promise.all([1, 2, 3, 4, 5].map((id) => getContent(BASE, id)));
  const refreshes = calls.filter((c) => c.url.endsWith('/refresh'));
  assert.is(refreshes.length, 1, 'exactly one refresh');
  assert.equal(JSON.parse(String(refreshes[0].init.body)), { refreshToken: 'r1', accessToken: old });
  assert.is(refreshes[0].url, 'https://api.example/authenticator/authentication/refresh');
  const content = calls.filter((c) => c.url.includes('/contents/'));
  assert.is(content.length, 5);
  for (const c of content) assert.is(c.headers.Authorization, `Bearer ${fresh}`);
  assert.ok(calls.indexOf(refreshes[0]) < calls.indexOf(content[0]), 'the refresh runs before the requests');
  assert.is(cookie('authToken'), fresh);
  // Later requests use the stored token without refreshing again.
  await getContent(BASE, 6);
  assert.is(calls.filter((c) => c.url.endsWith('/refresh')).length, 1);
});

test('a failed refresh is swallowed: the requests go on with the old token (500, network error, no header)', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  for (const failure of ['500', 'network', 'no-header']) {
    clearCookies();
    document.cookie = `authToken=${old}; path=/`;
    document.cookie = 'refreshToken=r1; path=/';
    const calls = fakeFetch(async (url) => {
      if (url.endsWith('/refresh')) {
        await sleep(10);
        if (failure === 'network') throw new TypeError('Failed to fetch');
        return failure === '500' ? new Response('{"error":"x"}', { status: 500 }) : json({});
      }
      return json({ id: 1 });
    });
    const answers = await Promise.all([getContent(BASE, 1), getContent(BASE, 2), getContent(BASE, 3)]);
    assert.equal(answers, [{ id: 1 }, { id: 1 }, { id: 1 }], failure);
    assert.is(calls.filter((c) => c.url.endsWith('/refresh')).length, 1, `one attempt (${failure})`);
    for (const c of calls.filter((x) => x.url.includes('/contents/'))) assert.is(c.headers.Authorization, `Bearer ${old}`);
    assert.is(cookie('authToken'), old);
    assert.ok(warnings.some((w) => String(w[0]).includes('token refresh failed')), 'the failure is logged');
  }
});

test('an invalid token string: the invalid-token error is logged and a refresh replaces it', async () => {
  const fresh = jwt({ exp: future() });
  document.cookie = 'authToken=not-a-token; path=/';
  document.cookie = 'refreshToken=r1; path=/';
  const calls = fakeFetch((url) => (url.endsWith('/refresh') ? json({}, { Authorization: fresh }) : json({})));
  await getContent(BASE, 1);
  assert.ok(warnings.some((w) => w.some((x) => x instanceof Error && x.name === 'InvalidTokenError')));
  assert.is(calls[1].headers.Authorization, `Bearer ${fresh}`, 'a bare token in the header is accepted too');
});

test('without a refresh token nothing is refreshed and the old token goes on', async () => {
  const old = jwt({ exp: past() });
  document.cookie = `authToken=${old}; path=/`;
  const calls = fakeFetch(() => json({}));
  await getContent(BASE, 1);
  assert.is(calls.length, 1);
  assert.is(calls[0].headers.Authorization, `Bearer ${old}`);
});

test('errors keep the response body; requests are cancellable and have no timeout of their own', async () => {
  const calls = fakeFetch((_url, init) => {
    if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    return new Response('{"error":"boom"}', { status: 503 });
  });
  const err = await getContent(BASE, 1).catch((e: unknown) => e);
  assert.ok(isHttpError(err));
  assert.is(err.status, 503);
  assert.is(err.body, '{"error":"boom"}');
  const ctrl = new AbortController();
  ctrl.abort();
  const aborted = await getContent(BASE, 1, ctrl.signal).catch((e: unknown) => e);
  assert.is((aborted as Error).name, 'AbortError');
  assert.is(calls[1].init.signal, ctrl.signal);
});

test('writeCookie: path /, expiry, SameSite=None; Secure; Partitioned only in a secure context; false when cookies throw', () => {
  const jar = { cookie: '' };
  writeCookie('authToken', 'a b', { expires: Date.UTC(2030, 0, 1) }, jar);
  assert.is(jar.cookie, 'authToken=a%20b; path=/; expires=Tue, 01 Jan 2030 00:00:00 GMT');
  writeCookie('device_fp', 'v', { maxAge: 31536000 }, jar, true);
  assert.is(jar.cookie, 'device_fp=v; path=/; max-age=31536000; SameSite=None; Secure; Partitioned');
  const sandboxed = {
    get cookie(): string {
      throw new Error('SecurityError');
    },
    set cookie(_v: string) {
      throw new Error('SecurityError');
    },
  };
  assert.is(writeCookie('x', 'y', {}, sandboxed), false);
});

test('against the reference server: an expired token is refreshed, then time-progress is saved with the new Bearer', async () => {
  globalThis.fetch = realFetch;
  const srv = await startServer({ port: 0, host: '127.0.0.1' });
  try {
    const old = jwt({ sub: 'viewer-7', exp: past() });
    document.cookie = `authToken=${old}; path=/`;
    document.cookie = 'refreshToken=r-7; path=/';
    document.cookie = 'device_fp=fp-1; path=/';
    await postTimeProgress(srv.url, 2, 205, { time: 42 });
    assert.is(srv.refreshes.length, 1);
    assert.is(srv.refreshes[0].refreshToken, 'r-7');
    assert.is(srv.refreshes[0].accessToken, old);
    const token = srv.refreshes[0].token as string;
    assert.is(cookie('authToken'), token);
    assert.equal(srv.timeProgress.map((t: { contentId: number; episodeId: number; body: unknown }) => [t.contentId, t.episodeId, t.body]), [
      [2, 205, { time: 42 }],
    ]);
    const logged = srv.requests.find((r: { path: string }) => r.path.endsWith('/time-progress'));
    assert.is(logged.headers.authorization, `Bearer ${token}`);
    assert.is(logged.headers['x-session-context'], 'fp-1');
    const missing = await postTimeProgress(srv.url, 2, 999, { time: 1 }).catch((e: unknown) => e);
    assert.ok(isHttpError(missing) && missing.status === 404);
    srv.revokedRefreshTokens.add('r-7');
    document.cookie = `authToken=${old}; path=/`;
    await postTimeProgress(srv.url, 2, 205, { time: 50 });
    assert.is(srv.timeProgress.length, 2, 'a refused refresh does not stop the request');
    assert.is(srv.requests.filter((r: { path: string }) => r.path.endsWith('/time-progress')).at(-1).headers.authorization, `Bearer ${old}`);
  } finally {
    await srv.close();
  }
});

test.run();
