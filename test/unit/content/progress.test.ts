import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { progressOf, withProgress } from '../../../src/content/progress';

test('number shape: episode id → seconds', () => {
  const map = withProgress({}, 202, null, 12);
  assert.equal(map, { 202: 12 });
  assert.is(progressOf(map, 202, null), 12);
  assert.is(progressOf(map, 203, null), undefined);
});

test('per-variant shape: episode id → {variant id → seconds}; lookups need the variant', () => {
  let map = withProgress({ 202: 12 }, 203, 2031, 30);
  map = withProgress(map, 203, 2032, 7);
  assert.equal(map, { 202: 12, 203: { 2031: 30, 2032: 7 } });
  assert.is(progressOf(map, 203, 2031), 30);
  assert.is(progressOf(map, 203, 2032), 7);
  assert.is(progressOf(map, 203, null), undefined, 'no variant, no per-variant answer');
  assert.is(progressOf(map, 202, 2031), undefined, 'a number is not a variant map');
  assert.is(progressOf(map, 203, 9999), undefined);
});

test('writing leaves the input alone and removes with undefined', () => {
  const before = { 202: 12, 203: { 2031: 30, 2032: 7 } };
  const frozen = JSON.stringify(before);
  assert.equal(withProgress(before, 202, null, undefined), { 203: { 2031: 30, 2032: 7 } });
  assert.equal(withProgress(before, 203, 2031, undefined), { 202: 12, 203: { 2032: 7 } });
  assert.is(JSON.stringify(before), frozen);
});

test('junk in storage reads as no progress', () => {
  const junk = { 1: 'x', 2: -5, 3: null, 4: Infinity, 5: [1], 6: { 7: 'y' }, 8: 0 } as Record<string, unknown>;
  for (const id of [1, 2, 3, 4, 5, 8]) assert.is(progressOf(junk, id, null), undefined, `id ${id}`);
  assert.is(progressOf(junk, 6, 7), undefined);
  assert.equal(withProgress({ 203: 'junk' }, 203, 2031, 4), { 203: { 2031: 4 } });
});

test.run();
