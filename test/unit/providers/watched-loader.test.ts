// providers/watched-loader.ts timedOut: a request with no byte for 10 s is timed out, unless it is
// answering and nothing else has been heard since (the link is out: kept, it goes on when it is back).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { timedOut } from '../../../src/providers/watched-loader';

test('no first byte for 10 s: timed out, whatever else is heard (hls.js retries it on a new request)', () => {
  assert.not.ok(timedOut(9999, 0, false, 0));
  assert.ok(timedOut(10000, 0, false, 0));
  assert.ok(timedOut(60000, 0, false, 50000));
});

test('answering, then silent while other bytes arrive (or the server answers a probe): this request is stuck, timed out', () => {
  assert.ok(timedOut(12000, 1000, true, 5000));
  assert.not.ok(timedOut(10999, 1000, true, 5000), 'not before 10 s of its own silence');
});

test('answering, then silent with nothing heard since: the link is out; kept however long', () => {
  assert.not.ok(timedOut(12000, 1000, true, 1000));
  assert.not.ok(timedOut(300000, 1000, true, 0));
});

test.run();
