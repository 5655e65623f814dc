// providers/link-estimate.ts: the link's capacity from the page's own downloads (Resource Timing).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { measuredBandwidth } from '../../../src/providers/link-estimate';

const entry = (transferSize: number, responseStart: number, responseEnd: number) => ({ transferSize, responseStart, responseEnd });

test('one download: its bits over its transfer time (the wait for the first byte left out)', () => {
  assert.is(measuredBandwidth([entry(100000, 500, 1300)]), 1e6);
});

test('downloads sharing the link count together: bytes over the time any was arriving', () => {
  // 0–1000 and 500–1500 overlap: 1500 ms busy for 150 kB.
  assert.is(measuredBandwidth([entry(75000, 0, 1000), entry(75000, 500, 1500)]), 800000);
});

test('idle gaps between downloads are not counted as link time', () => {
  assert.is(measuredBandwidth([entry(50000, 0, 400), entry(50000, 5000, 5400)]), 1e6);
});

test('order does not matter; one inside another adds its bytes, not its time', () => {
  assert.is(measuredBandwidth([entry(20000, 200, 300), entry(80000, 0, 800)]), 1e6);
});

test('nothing to go on: no entries, only small ones, hidden sizes (0), zero or negative durations', () => {
  assert.is(measuredBandwidth([]), undefined);
  assert.is(measuredBandwidth([entry(1500, 0, 100), entry(15999, 0, 100)]), undefined);
  assert.is(measuredBandwidth([entry(0, 0, 1000)]), undefined);
  assert.is(measuredBandwidth([entry(50000, 100, 100), entry(50000, 200, 150)]), undefined);
});

test.run();
