// api/auth.ts bearer(): a token refresh that has not answered within REFRESH_TIMEOUT_MS is given up,
// the request goes on with the old token (SPEC §4). Driven by the fake clock; fetch is stubbed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REFRESH_TIMEOUT_MS, bearer } from '../../../src/api/auth';
// Loaded here so that bearer's dynamic import of it answers within a few turns.
import '../../../src/api/refresh';
import { installDom } from '../dom';
import { fakeClock, flush } from '../fakes';
import { jwt } from './jwt';

const BASE = 'https://api.example';
const REFRESH_URL = `${BASE}/authenticator/authentication/refresh`;
const realFetch = globalThis.fetch;
const past = () => Math.floor(Date.now() / 1000) - 60;
const future = () => Math.floor(Date.now() / 1000) + 3600;

type Call = { url: string; init: RequestInit };
/** fetch answering through `handler`; every call is recorded with its init (and signal). */
function stubFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    return handler(String(url), init);
  }) as typeof fetch;
  return calls;
}
/** A refresh endpoint that never answers; like a browser's fetch, an abort ends it. */
const stalled = (_url: string, init: RequestInit) =>
  new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));

const cookie = (name: string) => document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
function clearCookies() {
  for (const name of ['authToken', 'refreshToken', 'XSRF-TOKEN', 'device_fp']) document.cookie = `${name}=; path=/; max-age=0`;
}

/** Runs real turns until `cond` holds (the dynamic import, the promise chain), or gives up. */
async function until(cond: () => boolean, turns = 50): Promise<void> {
  for (let i = 0; i < turns && !cond(); i++) await flush(1);
}

let clock: ReturnType<typeof fakeClock>;
const warnings: unknown[][] = [];
const warn = console.warn;
test.before(() => {
  installDom('https://player.example/player/?movie_id=1');
});
test.before.each(() => {
  clearCookies();
  warnings.length = 0;
  console.warn = (...a: unknown[]) => warnings.push(a);
  clock = fakeClock().install();
});
test.after.each(() => {
  clock.restore();
  console.warn = warn;
  globalThis.fetch = realFetch;
});

test('REFRESH_TIMEOUT_MS is 5 s', () => {
  assert.is(REFRESH_TIMEOUT_MS, 5000);
});

test('an expired token and a refresh that never answers: the OLD token after REFRESH_TIMEOUT_MS, the failure logged', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  document.cookie = `authToken=${old}; path=/`;
  document.cookie = 'refreshToken=r1; path=/';
  const calls = stubFetch(stalled);
  let token: string | undefined | null = null;
  void Promise.resolve(bearer(BASE)).then((t) => (token = t));
  await until(() => calls.length > 0);
  assert.equal(
    calls.map((c) => c.url),
    [REFRESH_URL],
  );
  const signal = calls[0].init.signal!;
  assert.ok(signal instanceof AbortSignal, 'the refresh can be cancelled');
  clock.advance(REFRESH_TIMEOUT_MS - 1);
  await flush();
  assert.is(token, null, 'still waiting just before the deadline');
  assert.not.ok(signal.aborted);
  clock.advance(1);
  await until(() => token !== null);
  assert.is(token, old, 'the request goes on with the old token');
  assert.ok(signal.aborted, 'the refresh request is cancelled at the deadline');
  assert.is((signal.reason as Error).name, 'TimeoutError');
  assert.ok(
    warnings.some((w) => String(w[0]).includes('token refresh failed')),
    `logged: ${warnings.map((w) => String(w[0])).join(' | ')}`,
  );
  assert.is(cookie('authToken'), old, 'the cookie is untouched');
  assert.is(clock.pending(), 0, 'no timer left behind');
});

test('the lock is released after a timed-out refresh: the next call tries again', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  const fresh = jwt({ sub: 'u', exp: future() });
  document.cookie = `authToken=${old}; path=/`;
  document.cookie = 'refreshToken=r1; path=/';
  let answer = false;
  const calls = stubFetch((url, init) => (answer ? new Response('{}', { headers: { Authorization: `Bearer ${fresh}` } }) : stalled(url, init)));
  let first: string | undefined | null = null;
  void Promise.resolve(bearer(BASE)).then((t) => (first = t));
  await until(() => calls.length > 0);
  clock.advance(REFRESH_TIMEOUT_MS);
  await until(() => first !== null);
  assert.is(first, old);
  answer = true;
  assert.is(await bearer(BASE), fresh, 'a second refresh, answered this time');
  assert.is(calls.length, 2);
  assert.is(cookie('authToken'), fresh);
});

test('a refresh that answers a new token in time gives the new token (and clears its deadline)', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  const fresh = jwt({ sub: 'u', exp: future() });
  document.cookie = `authToken=${old}; path=/`;
  document.cookie = 'refreshToken=r1; path=/';
  // Answers just inside the budget, on the fake clock.
  const calls = stubFetch(
    () => new Promise<Response>((r) => setTimeout(() => r(new Response('{}', { headers: { Authorization: `Bearer ${fresh}` } })), REFRESH_TIMEOUT_MS - 1)),
  );
  let token: string | undefined | null = null;
  void Promise.resolve(bearer(BASE)).then((t) => (token = t));
  await until(() => calls.length > 0);
  clock.advance(REFRESH_TIMEOUT_MS - 1);
  await until(() => token !== null);
  assert.is(token, fresh);
  assert.is(cookie('authToken'), fresh, 'stored for the next requests');
  assert.is(clock.pending(), 0, 'the deadline is cleared');
  assert.not.ok(calls[0].init.signal!.aborted, 'the answered refresh was never aborted');
  assert.not.ok(warnings.some((w) => String(w[0]).includes('token refresh failed')));
  assert.equal(JSON.parse(String(calls[0].init.body)), { refreshToken: 'r1', accessToken: old });
});

test('concurrent bearer() calls share one refresh: one request, all get the old token at the deadline', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  document.cookie = `authToken=${old}; path=/`;
  document.cookie = 'refreshToken=r1; path=/';
  const calls = stubFetch(stalled);
  const tokens: Array<string | undefined> = [];
  for (let i = 0; i < 3; i++) void Promise.resolve(bearer(BASE)).then((t) => tokens.push(t));
  await until(() => calls.length > 0);
  await flush();
  assert.is(calls.length, 1, 'one refresh for three callers');
  clock.advance(REFRESH_TIMEOUT_MS);
  await until(() => tokens.length === 3);
  assert.equal(tokens, [old, old, old]);
  assert.is(calls.length, 1);
  assert.is(clock.pending(), 0);
});

test('concurrent bearer() calls share one refresh: one request, all get the new token', async () => {
  const old = jwt({ sub: 'u', exp: past() });
  const fresh = jwt({ sub: 'u', exp: future() });
  document.cookie = `authToken=${old}; path=/`;
  document.cookie = 'refreshToken=r1; path=/';
  const calls = stubFetch(
    () => new Promise<Response>((r) => setTimeout(() => r(new Response('{}', { headers: { Authorization: `Bearer ${fresh}` } })), 1000)),
  );
  const tokens = Promise.all([bearer(BASE), bearer(BASE), bearer(BASE)]);
  await until(() => calls.length > 0);
  await flush();
  clock.advance(1000);
  assert.equal(await tokens, [fresh, fresh, fresh]);
  assert.is(calls.length, 1);
  assert.is(clock.pending(), 0);
});

test('a fresh token is not refreshed and sets no deadline', async () => {
  const token = jwt({ sub: 'u', exp: future() });
  document.cookie = `authToken=${token}; path=/`;
  const calls = stubFetch(stalled);
  assert.is(await bearer(BASE), token);
  assert.is(calls.length, 0);
  assert.is(clock.pending(), 0);
});

test.run();
