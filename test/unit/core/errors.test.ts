import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { httpError } from '../../../src/api/http';
import { classify, newEventId } from '../../../src/core/errors';

test('screens of SPEC §8', () => {
  assert.is(classify('config', 'x').screen, 'missing-movie-id');
  assert.is(classify('content', 'x', httpError(404, '/c', '')).screen, 'not-found');
  assert.is(classify('content', 'x', httpError(500, '/c', '')).screen, 'generic');
  assert.is(classify('content', 'x', new TypeError('Failed to fetch')).screen, 'generic');
  assert.is(classify('blocked', 'x').screen, 'blocked');
  const src = classify('source', 'x', httpError(404, '/d.json', ''), 'https://h/d.json');
  assert.is(src.screen, 'load-failed');
  assert.is(src.address, 'https://h/d.json');
  assert.is(classify('media', 'x').screen, 'generic');
});

test('every error is fatal and has an event id of 32 hex digits', () => {
  const e = classify('media', 'boom');
  assert.ok(e.fatal);
  assert.match(e.eventId, /^[0-9a-f]{32}$/);
  assert.is.not(newEventId(), newEventId());
});

test.run();
