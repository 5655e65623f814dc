import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type ErrorCode,
  httpError,
  isAbortError,
  isExpected,
  isHttpError,
  newEventId,
  playerError,
  screenOf,
  vastError,
} from '../../../src/core/errors';

/** The table of SPEC §8: code → category, fatal, screen (a fatal error's screen only). */
const TABLE: Array<[ErrorCode, string, boolean, string]> = [
  ['movie-id-missing', 'config', true, 'missing-movie-id'],
  ['content-not-found', 'content', true, 'not-found'],
  ['content-load-failed', 'content', true, 'generic'],
  ['content-timeout', 'content', true, 'generic'],
  ['content-blocked', 'content', true, 'blocked'],
  ['descriptor-load-failed', 'source', true, 'load-failed'],
  ['media-unsupported', 'media', true, 'generic'],
  ['media-load-failed', 'media', true, 'generic'],
];

test('every fatal code: its category, fatal, its SPEC §8 screen', () => {
  for (const [code, category, fatal, screen] of TABLE) {
    const e = playerError(code, 'x');
    assert.is(e.code, code);
    assert.is(e.category, category, code);
    assert.is(e.fatal, fatal, code);
    assert.is(screenOf(e), screen, code);
    assert.is(e.message, 'x');
  }
});

test("the engine's recoverable errors are not fatal and carry no event id", () => {
  const e = playerError('media-recoverable', 'bufferStalledError');
  assert.equal(e, { category: 'media', code: 'media-recoverable', fatal: false, message: 'bufferStalledError', data: {} });
  // Not fatal: no screen is ever shown for it; screenOf falls back to generic were one asked.
  assert.is(screenOf(e), 'generic');
});

test('vastError: category ad, code vast-N, never fatal, the IAB code in data; any N', () => {
  for (const n of [100, 301, 303, 402, 403, 405, 900, 901]) {
    const e = vastError(n, `ad ${n}`);
    assert.equal(e, { category: 'ad', code: `vast-${n}`, fatal: false, message: `ad ${n}`, data: { vastCode: n } });
    assert.not.ok(isExpected(e));
  }
});

test('fatal errors get an event id of 32 hex digits; the data given is kept beside it', () => {
  const cause = httpError(404, 'https://h/d.json', '');
  const e = playerError('descriptor-load-failed', 'descriptor load failed', { cause, address: 'https://h/d.json' });
  assert.match(e.data!.eventId!, /^[0-9a-f]{32}$/);
  assert.is(e.data!.address, 'https://h/d.json');
  assert.is(e.data!.cause, cause);
  assert.is.not(playerError('media-load-failed', 'x').data!.eventId, playerError('media-load-failed', 'x').data!.eventId);
  assert.match(newEventId(), /^[0-9a-f]{32}$/);
  assert.is.not(newEventId(), newEventId());
});

test('without crypto.randomUUID the event id is still 32 hex digits', () => {
  const desc = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
  try {
    assert.match(newEventId(), /^[0-9a-f]{32}$/);
  } finally {
    Object.defineProperty(globalThis, 'crypto', desc);
  }
});

test('isExpected: only the country rule and a missing movie_id (not reported as faults)', () => {
  const expected = TABLE.map(([code]) => code).filter((code) => isExpected(playerError(code, 'x')));
  assert.equal(expected.sort(), ['content-blocked', 'movie-id-missing']);
  assert.not.ok(isExpected(playerError('media-recoverable', 'x')));
});

test('httpError keeps status, url and a body cut to 2000 characters; isHttpError tells it by name', () => {
  const e = httpError(503, 'https://h/c', 'x'.repeat(5000));
  assert.ok(e instanceof Error);
  assert.is(e.name, 'HttpError');
  assert.is(e.status, 503);
  assert.is(e.url, 'https://h/c');
  assert.is(e.message, 'HTTP 503 for https://h/c');
  assert.is(e.body.length, 2000);
  assert.ok(isHttpError(e));
  assert.ok(isHttpError(Object.assign(new Error('x'), { name: 'HttpError', status: 500 })));
  assert.ok(isHttpError({ name: 'HttpError', status: 404, url: '', body: '' }), 'from another realm: told by name and status');
  for (const other of [new Error('x'), new TypeError('Failed to fetch'), { name: 'HttpError' }, null, undefined, 'HttpError']) {
    assert.not.ok(isHttpError(other), String(other));
  }
});

test('isAbortError: any AbortError by name (DOMException, polyfills, plain objects); nothing else', () => {
  assert.ok(isAbortError(new DOMException('aborted', 'AbortError')));
  assert.ok(isAbortError({ name: 'AbortError' }));
  assert.ok(isAbortError(Object.assign(new Error('x'), { name: 'AbortError' })));
  for (const other of [new DOMException('t', 'TimeoutError'), new Error('AbortError'), 'AbortError', null, undefined, 0]) {
    assert.not.ok(isAbortError(other), String(other));
  }
});

test.run();
