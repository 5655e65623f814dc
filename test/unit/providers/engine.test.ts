import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isHlsAddress, pickEngine } from '../../../src/providers/engine';

test('HLS addresses', () => {
  assert.ok(isHlsAddress('https://h/master.m3u8'));
  assert.ok(isHlsAddress('https://h/master.M3U8?token=1'));
  assert.not.ok(isHlsAddress('https://h/clip.mp4'));
  assert.not.ok(isHlsAddress('https://h/m3u8/clip.mp4'));
});

test('hls.js whenever MSE exists, even if native HLS answers maybe (Chromium)', () => {
  assert.is(pickEngine('/a.m3u8', { mediaSource: true, nativeHls: true }), 'hls');
  assert.is(pickEngine('/a.m3u8', { mediaSource: false, nativeHls: true }), 'native');
  assert.is(pickEngine('/a.m3u8', { mediaSource: false, nativeHls: false }), undefined);
  assert.is(pickEngine('/a.mp4', { mediaSource: true, nativeHls: false }), 'native');
});

test.run();
