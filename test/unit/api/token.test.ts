import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isFresh } from '../../../src/api/auth';
import { decodeToken } from '../../../src/api/token';

import { jwt } from './jwt';

const invalid = (token: unknown, why: string) => {
  try {
    decodeToken(token);
  } catch (err) {
    assert.ok(err instanceof Error && err.name === 'InvalidTokenError', `InvalidTokenError for ${String(token)}`);
    assert.is((err as Error).message, `Invalid token specified: ${why}`);
    return;
  }
  assert.unreachable(`no error for ${String(token)}`);
};

test('decodes the payload, base64url included', () => {
  const payload = { sub: 'пользователь ~?~', exp: 1700000000 };
  assert.equal(decodeToken(jwt(payload)).exp, 1700000000);
  assert.match(jwt(payload).split('.')[1], /[-_]/, 'the sample really uses base64url characters');
});

test('every invalid case gives the invalid-token error (SPEC §8)', () => {
  invalid(undefined, 'must be a string');
  invalid(42, 'must be a string');
  invalid({ token: 'x' }, 'must be a string');
  invalid('', 'missing part #2');
  invalid('onlyonepart', 'missing part #2');
  invalid('a..c', 'missing part #2');
  invalid('a.%%%.c', 'invalid base64 for part #2');
  invalid('a.x.c', 'invalid base64 for part #2');
  invalid(`a.${Buffer.from('{not json').toString('base64url')}.c`, 'invalid json for part #2');
  invalid(`a.${Buffer.from('null').toString('base64url')}.c`, 'invalid json for part #2');
  invalid(`a.${Buffer.from('7').toString('base64url')}.c`, 'invalid json for part #2');
});

test('expiry (api/auth isFresh): exp in seconds against the clock; no exp never expires', () => {
  const now = 1_700_000_000_000;
  assert.is(isFresh(jwt({ exp: now / 1000 - 1 }), now), false);
  assert.is(isFresh(jwt({ exp: now / 1000 }), now), false, 'expires at exp');
  assert.is(isFresh(jwt({ exp: now / 1000 + 1 }), now), true);
  assert.is(isFresh(jwt({ sub: 'x' }), now), true);
  assert.is(isFresh('garbage', now), false, 'an unreadable token is stale (refreshed), never thrown');
});

test('the critical-path check agrees: fresh, stale, and anything unreadable counts as stale', () => {
  const now = 1_700_000_000_000;
  assert.is(isFresh(jwt({ exp: now / 1000 + 60 }), now), true);
  assert.is(isFresh(jwt({ sub: 'x' }), now), true);
  assert.is(isFresh(jwt({ exp: now / 1000 - 60 }), now), false);
  for (const bad of ['', 'x', 'a.%%%.c', `a.${Buffer.from('{').toString('base64url')}.c`, `a.${Buffer.from('null').toString('base64url')}.c`]) {
    assert.is(isFresh(bad, now), false, bad);
  }
});

test.run();
