import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFlag, parseInteger, parseTimeCode } from '../../../src/config/parse';

test('parseInteger accepts digits only', () => {
  assert.is(parseInteger('42'), 42);
  assert.is(parseInteger(' 7 '), 7);
  assert.is(parseInteger('0'), 0);
  assert.is(parseInteger(12), 12);
  for (const bad of ['', ' ', 'abc', '4x', '1.5', '-1', '+1', '0x1f', '1e3', 'NaN', 'Infinity', '99999999999999999999', null, undefined, {}, [], 1.5, -3, NaN]) {
    assert.is(parseInteger(bad), undefined, String(bad));
  }
});

test('parseTimeCode: digits and dots, parsed as an integer (SPEC §5)', () => {
  assert.is(parseTimeCode('90'), 90);
  assert.is(parseTimeCode('90.7'), 90);
  assert.is(parseTimeCode('1.2.3'), 1);
  assert.is(parseTimeCode('007'), 7);
  assert.is(parseTimeCode(15), 15);
  for (const bad of ['', '.', '..', '-5', '1:30', '1e3', ' 5', '5s', 'abc', null, undefined, {}]) {
    assert.is(parseTimeCode(bad), undefined, String(bad));
  }
});

test('parseFlag: present means on, explicit negatives mean off', () => {
  assert.ok(parseFlag(''));
  assert.ok(parseFlag('1'));
  assert.ok(parseFlag('true'));
  assert.not.ok(parseFlag(null));
  assert.not.ok(parseFlag('0'));
  assert.not.ok(parseFlag('false'));
  assert.not.ok(parseFlag('FALSE'));
});

test.run();
