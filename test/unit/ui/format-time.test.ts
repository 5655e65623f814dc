import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatTime } from '../../../src/ui/format-time';

test('M:SS under an hour, H:MM:SS from an hour or when asked', () => {
  assert.is(formatTime(0), '0:00');
  assert.is(formatTime(9.9), '0:09');
  assert.is(formatTime(65), '1:05');
  assert.is(formatTime(3600), '1:00:00');
  assert.is(formatTime(3725), '1:02:05');
  assert.is(formatTime(12, true), '0:00:12');
});

test('unknown or broken times read as zero', () => {
  assert.is(formatTime(NaN), '0:00');
  assert.is(formatTime(-2), '0:00');
  assert.is(formatTime(Infinity), '0:00');
});

test.run();
