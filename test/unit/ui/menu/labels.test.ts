import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RATES } from '../../../../src/core/tracks';
import { GAINS, bitrateLabel, gainLabel, qualityLabel, rateLabel } from '../../../../src/ui/menu/labels';

test('quality: Auto with the current height, or the height followed by p', () => {
  assert.is(qualityLabel(-1, 720), 'Auto (720p)');
  assert.is(qualityLabel(-1, undefined), 'Auto');
  assert.is(qualityLabel(2, 360, 720), '720p');
});

test('bitrate in Mbps', () => {
  assert.is(bitrateLabel(100650), '0.10 Mbps');
  assert.is(bitrateLabel(2_500_000), '2.5 Mbps');
});

test('rates 0.25 to 2 by 0.25, 1 is Обычная', () => {
  assert.equal(RATES, [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]);
  assert.is(rateLabel(1), 'Обычная');
  assert.is(rateLabel(1.5), '1.5x');
});

test('gains shown as percent', () => {
  assert.equal(GAINS.map(gainLabel), ['100%', '125%', '150%', '175%', '200%', '250%', '300%', '400%']);
});

test.run();
