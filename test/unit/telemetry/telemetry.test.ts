import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readEmbedConfig } from '../../../src/config/embed-config';
import { createBus } from '../../../src/core/bus';
import { httpError, playerError, vastError } from '../../../src/core/errors';
import { DEVICE_COOKIE_MAX_AGE, identify, start as startFingerprint } from '../../../src/telemetry/fingerprint-widget';
import { buildReport, shouldReport } from '../../../src/telemetry/report';
import { FILTERED, scrub } from '../../../src/telemetry/scrub';
import { installDom } from '../dom';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';

test('scrub: tokens and cookies never leave, wherever they hide', () => {
  const event = {
    message: `refresh failed for ${TOKEN}`,
    request: {
      url: 'https://h/player/?movie_id=1',
      headers: { Authorization: `Bearer ${TOKEN}`, Cookie: 'authToken=abc; device_fp=xyz', 'User-Agent': 'UA' },
      cookies: { authToken: 'abc' },
    },
    contexts: { http: { body: '{"accessToken":"eyJx.eyJy.z","note":"ok"}' } },
    breadcrumbs: [{ message: 'document.cookie = "refreshToken=r1; XSRF-TOKEN=x1"' }, { data: { refreshToken: 'r1', n: 3 } }],
    extra: { header: 'Authorization: Bearer abc.def-ghi' },
  };
  const out = scrub(event);
  const text = JSON.stringify(out);
  for (const secret of [TOKEN, 'abc', 'xyz', 'r1', 'x1', 'eyJx', 'abc.def-ghi']) assert.not.ok(text.includes(secret), secret);
  assert.is(out.request.headers.Authorization, FILTERED);
  assert.is(out.request.headers['User-Agent'], 'UA', 'the rest is kept');
  assert.is(out.request.url, 'https://h/player/?movie_id=1');
  assert.is(out.breadcrumbs[1].data?.n, 3);
  assert.match(out.contexts.http.body, /"note":"ok"/);
  assert.is(event.request.headers.Authorization, `Bearer ${TOKEN}`, 'the input is not modified');
});

test('report: the event id is the one on screen; HTTP errors carry the body, streaming errors their data', () => {
  const http = playerError('content-load-failed', 'content load failed', {
    cause: httpError(500, 'https://h/catalog-api/contents/1', '{"error":"injected fault"}'),
  });
  const r = buildReport(http);
  assert.is(r.hint.event_id, http.data?.eventId);
  assert.match(r.hint.event_id, /^[0-9a-f]{32}$/);
  assert.is(r.exception, http.data?.cause);
  assert.equal(r.hint.captureContext.contexts.http, { status: 500, url: 'https://h/catalog-api/contents/1', body: '{"error":"injected fault"}' });
  assert.is(r.hint.captureContext.tags.error_type, 'content');
  assert.is(r.hint.captureContext.tags.error_code, 'content-load-failed');
  const data = { details: 'manifestLoadError', type: 'networkError', url: 'https://h/master.m3u8', response: { code: 500, text: 'x' } };
  const stream = playerError('media-load-failed', 'Failed to load resource. manifestLoadError', {
    cause: { code: 4, message: 'Failed to load resource.', details: 'manifestLoadError', url: data.url, data },
    address: data.url,
  });
  const s = buildReport(stream);
  assert.is(s.exception.name, 'PlayerError');
  assert.is(s.exception.message, 'media-load-failed: Failed to load resource. manifestLoadError');
  assert.equal((s.hint.captureContext.contexts.stream as { data: unknown }).data, data);
  assert.is(s.hint.captureContext.contexts.player.screen, 'generic');
  assert.is(s.hint.captureContext.contexts.player.address, data.url);
  assert.is(s.hint.captureContext.tags.error_screen, 'generic');
  const source = playerError('descriptor-load-failed', 'x', { address: 'https://h/d.json' });
  assert.is(buildReport(source).hint.captureContext.tags.error_screen, 'load-failed');
  assert.ok(shouldReport(http) && shouldReport(stream) && shouldReport(source));
  assert.not.ok(shouldReport(playerError('content-blocked', 'x')), 'the country rule is not a fault');
  assert.not.ok(shouldReport(playerError('movie-id-missing', 'x')), "a partner's link without movie_id is not a fault");
  assert.not.ok(shouldReport(playerError('media-recoverable', 'bufferStalledError')), 'errors the engine recovers from are not reported');
  assert.not.ok(shouldReport(vastError(403, 'x')), 'ad errors are not fatal, not reported');
});

test('fingerprint: the visitor id goes to device_fp for a year; a failure or a slow agent leaves nothing', async () => {
  installDom('https://player.example/player/');
  const writes: string[] = [];
  let proto: object | null = document;
  let desc: PropertyDescriptor | undefined;
  while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, 'cookie'))) proto = Object.getPrototypeOf(proto);
  if (!desc?.get || !desc.set) throw new Error('no cookie accessor');
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => desc!.get!.call(document),
    set: (v: string) => (writes.push(v), desc!.set!.call(document, v)),
  });
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.is(await identify(async () => ({ get: async () => ({ visitorId: 'v123' }) })), 'v123');
    assert.is(writes[0], `device_fp=v123; path=/; max-age=${DEVICE_COOKIE_MAX_AGE}`);
    assert.match(document.cookie, /device_fp=v123/);
    assert.is(DEVICE_COOKIE_MAX_AGE, 31_536_000);
    document.cookie = 'device_fp=; path=/; max-age=0';
    writes.length = 0;
    assert.is(await identify(async () => Promise.reject(new Error('blocked'))), undefined);
    assert.is(await identify(async () => ({ get: () => new Promise(() => {}) }), 50), undefined, 'component timeout');
    assert.is(await identify(async () => ({ get: async () => ({ visitorId: '' }) })), undefined);
    assert.equal(writes, []);
    assert.not.match(document.cookie, /device_fp=/);
  } finally {
    console.warn = warn;
    delete (document as unknown as Record<string, unknown>).cookie;
  }
});

test('sentry_dsn and analytics_function come from the config reader; none by default', () => {
  const base = { search: '?movie_id=1', scriptUrl: 'https://h/player/main.js' };
  const none = readEmbedConfig({ ...base, datasets: [], globals: {} });
  assert.is(none.sentryDsn, undefined, 'no DSN: nothing loads');
  assert.is(none.analyticsFunction, undefined);
  const fromData = readEmbedConfig({ ...base, datasets: [{ sentryDsn: 'https://k@ingest.example/3' }], globals: { SENTRY_DSN: 'https://x@y/1' } });
  assert.is(fromData.sentryDsn, 'https://k@ingest.example/3', 'data attributes win');
  const fromGlobals = readEmbedConfig({ ...base, datasets: [], globals: { SENTRY_DSN: 'https://x@y/1', analytics_function: 'track' } });
  assert.is(fromGlobals.sentryDsn, 'https://x@y/1');
  assert.is(fromGlobals.analyticsFunction, 'track');
});

test('bus.tap sees every event before the listeners, in order, until undone', () => {
  const bus = createBus();
  const seen: string[] = [];
  const off = bus.tap((event) => seen.push(`tap:${event}`));
  bus.on('media:play', () => seen.push('listener'));
  bus.emit('media:play', { cause: 'user' });
  bus.emit('content:episode-changed', { episode: { id: 1 } as never });
  off();
  bus.emit('media:play', { cause: 'api' });
  assert.equal(seen, ['tap:media:play', 'listener', 'tap:content:episode-changed', 'listener']);
});

test('fingerprint: never while the player is in fullscreen (FingerprintJS would leave it to read the screen frame)', () => {
  // A happy-dom node stands in for the document: it dispatches the same Event class.
  const doc = document.createElement('div') as unknown as EventTarget & { fullscreenElement: unknown };
  doc.fullscreenElement = {};
  const undo: Array<() => void> = [];
  const player = { onDestroy: (fn: () => void) => undo.push(fn) } as unknown as Parameters<typeof startFingerprint>[0];
  let runs = 0;
  startFingerprint(player, [], doc as unknown as Document, () => runs++);
  assert.is(runs, 0, 'waits while in fullscreen');
  doc.dispatchEvent(new Event('fullscreenchange'));
  assert.is(runs, 0, 'a change that stays in fullscreen');
  doc.fullscreenElement = null;
  doc.dispatchEvent(new Event('fullscreenchange'));
  assert.is(runs, 1, 'once fullscreen is left');
  doc.dispatchEvent(new Event('fullscreenchange'));
  assert.is(runs, 1, 'once');
  doc.fullscreenElement = null;
  startFingerprint(player, [], doc as unknown as Document, () => runs++);
  assert.is(runs, 2, 'at once outside fullscreen');
  undo.forEach((fn) => fn());
});

test.run();
