// The bootstrap's early requests (api/http.ts startEarly): each address fetched once, in the order
// asked, the deferred ones held until released, and a taken-over VAST read as the piece's own.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getCrossOriginText, getJson, startEarly, takeEarly } from '../../../src/api/http';
import { getContent, getEpisodes } from '../../../src/api/catalog';
import { AdErrors } from '../../../src/ads/ad-error';
import { fetchVastText } from '../../../src/ads/vast-load';
import { writeCookie } from '../../../src/storage/write-cookie';
import { installDom } from '../dom';
import { jwt } from './jwt';

const realFetch = globalThis.fetch;
const BASE = 'https://api.example';
type Pending = { url: string; init: RequestInit; answer(res: Response): void; fail(err: unknown): void };

/** A fetch whose answers the test gives, one by one. */
function heldFetch(): Pending[] {
  const calls: Pending[] = [];
  globalThis.fetch = ((url: string, init: RequestInit = {}) =>
    new Promise<Response>((answer, fail) => {
      calls.push({ url: String(url), init, answer, fail });
      init.signal?.addEventListener('abort', () => fail(init.signal!.reason));
    })) as typeof fetch;
  return calls;
}
const flush = () => new Promise((r) => setTimeout(r, 0));

test.before(() => {
  installDom('https://player.example/player/?movie_id=1');
});
test.after.each(() => {
  globalThis.fetch = realFetch;
  document.cookie = 'authToken=; path=/; max-age=0';
});

test('a valid Bearer costs no wait: the calls go out as they are made, in that order (HTTP/1.1 hands connections out so)', async () => {
  writeCookie('authToken', jwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
  const calls = heldFetch();
  startEarly(10_000, () => {
    void getEpisodes(BASE, 1).catch(() => {});
    void getJson('https://ads.example/list.json').catch(() => {});
    void getContent(BASE, 1).catch(() => {});
  });
  assert.equal(
    calls.map((c) => c.url),
    [`${BASE}/catalog-api/episodes?content-id=1`, 'https://ads.example/list.json', `${BASE}/catalog-api/contents/1`],
    'all three synchronously, before any microtask',
  );
  assert.match(String((calls[0].init.headers as Record<string, string>).Authorization), /^Bearer /);
  calls.forEach((c) => c.answer(new Response('{}')));
  // Taken over: nothing asked again.
  await getEpisodes(BASE, 1);
  await getJson('https://ads.example/list.json');
  await getContent(BASE, 1);
  assert.is(calls.length, 3);
});

test('deferred early calls: low priority, sent once `after` settles; a taker meanwhile waits for that same request', async () => {
  const calls = heldFetch();
  let release!: () => void;
  const after = new Promise<void>((r) => (release = r));
  startEarly(10_000, () => void getContent(BASE, 2).catch(() => {}), { priority: 'low', after });
  await flush();
  assert.is(calls.length, 0, 'held');
  const taken = getContent(BASE, 2);
  await flush();
  assert.is(calls.length, 0, 'taking it over does not send it either');
  release();
  await flush();
  assert.is(calls.length, 1, 'sent once released');
  assert.is(calls[0].init.priority, 'low');
  calls[0].answer(new Response('{"id":2}'));
  assert.equal(await taken, { id: 2 });
  assert.is(calls.length, 1);
});

test('an early answer already in is handed over in a task of its own, not in the task that takes it over', async () => {
  const calls = heldFetch();
  startEarly(10_000, () => void getJson('https://ads.example/list.json').catch(() => {}));
  calls[0].answer(new Response('{"preroll":[]}'));
  await flush();
  const order: string[] = [];
  const taken = takeEarly('https://ads.example/list.json')!.then((a) => order.push(`answer ${a.text}`));
  void Promise.resolve().then(() => order.push('microtasks of the taking task'));
  await Promise.resolve();
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(order, ['microtasks of the taking task'], 'not among the microtasks of the task that took it');
  setTimeout(() => order.push('a task queued meanwhile'));
  await taken;
  await flush();
  assert.equal(order, ['microtasks of the taking task', 'answer {"preroll":[]}', 'a task queued meanwhile']);
});

test('an early request that fails before anyone takes it over is not kept: the later ask goes out anew', async () => {
  const calls = heldFetch();
  startEarly(10_000, () => void getJson('https://api.example/x').catch(() => {}));
  calls[0].fail(new TypeError('network'));
  await flush();
  const again = getJson<{ ok: number }>('https://api.example/x');
  assert.is(calls.length, 2);
  calls[1].answer(new Response('{"ok":1}'));
  assert.equal(await again, { ok: 1 });
});

test('the budget ends an early request nobody took over, and it is not kept either', async () => {
  const calls = heldFetch();
  startEarly(20, () => void getJson('https://api.example/slow').catch(() => {}));
  await new Promise((r) => setTimeout(r, 40));
  assert.ok(calls[0].init.signal?.aborted, 'aborted at the budget');
  void getJson('https://api.example/slow').catch(() => {});
  assert.is(calls.length, 2, 'asked anew');
  calls[1].fail(new Error('done'));
});

test('VAST: a cross-origin GET with cookies and no headers of ours, taken over once by the piece under its own timeout and errors', async () => {
  const calls = heldFetch();
  const url = 'https://ads.example/vast.xml';
  startEarly(10_000, () => void getCrossOriginText(url).catch(() => {}));
  assert.is(calls.length, 1);
  assert.is(calls[0].init.credentials, 'include');
  assert.is(calls[0].init.headers, undefined, 'a simple request: no preflight');
  const read = fetchVastText(4000, takeEarly);
  const text = read(url, new AbortController().signal);
  calls[0].answer(new Response('<VAST version="4.0"/>'));
  assert.is(await text, '<VAST version="4.0"/>');
  assert.is(calls.length, 1, 'taken over, not asked again');
  // Handed over once: the next read of the same tag (another break) asks the ad server itself.
  const second = read(url, new AbortController().signal);
  assert.is(calls.length, 2);
  calls[1].answer(new Response('<VAST/>'));
  assert.is(await second, '<VAST/>');

  // An error status is the piece's 'Failed load VAST'; a stalled one its timeout (350), and it is stopped.
  startEarly(10_000, () => void getCrossOriginText(url).catch(() => {}));
  const failed = read(url, new AbortController().signal);
  calls[2].answer(new Response('nope', { status: 500 }));
  assert.is(await failed.catch((e) => e), AdErrors.load);
  startEarly(10_000, () => void getCrossOriginText(url).catch(() => {}));
  const stalled = fetchVastText(20, takeEarly)(url, new AbortController().signal);
  assert.is(await stalled.catch((e) => e), AdErrors.timeout);
  assert.ok(calls[3].init.signal?.aborted, 'the early request is aborted with it');
});

test.run();
