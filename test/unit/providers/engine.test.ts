import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isHlsAddress, isHlsByContentType, needsContentType, pickEngine } from '../../../src/providers/engine';

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

test('an address without an extension is asked for its content type (SPEC §7 HEAD); others are not', () => {
  assert.ok(needsContentType('https://cdn.example/stream/12345'));
  assert.ok(needsContentType('https://cdn.example/hls/master?token=a.b'));
  assert.ok(needsContentType('https://cdn.example/'));
  assert.not.ok(needsContentType('https://cdn.example/hls/master.m3u8'));
  assert.not.ok(needsContentType('https://cdn.example/proxy/a/b/index.mp4?x=1'));
  assert.not.ok(needsContentType('blob:https://cdn.example/0f3c'));
  assert.not.ok(needsContentType('/relative/path'), 'only absolute http(s) addresses');
  assert.not.ok(needsContentType('http://['), 'malformed');
});

test('the HEAD answer decides: an HLS MIME type is HLS; anything else, or a failure, is not', async () => {
  const real = globalThis.fetch;
  const seen: string[] = [];
  const answer = (type: string | null, fail = false) =>
    (globalThis.fetch = (async (url: string, init?: RequestInit) => {
      seen.push(`${init?.method} ${url}`);
      if (fail) throw new TypeError('Failed to fetch');
      return new Response(null, { status: 200, headers: type ? { 'Content-Type': type } : {} });
    }) as typeof fetch);
  try {
    answer('application/vnd.apple.mpegurl');
    assert.ok(await isHlsByContentType('https://cdn.example/s/1'));
    answer('audio/x-mpegURL; charset=utf-8');
    assert.ok(await isHlsByContentType('https://cdn.example/s/2'));
    answer('video/mp4');
    assert.not.ok(await isHlsByContentType('https://cdn.example/s/3'));
    answer(null);
    assert.not.ok(await isHlsByContentType('https://cdn.example/s/4'));
    answer('', true);
    assert.not.ok(await isHlsByContentType('https://cdn.example/s/5'));
    assert.equal(seen[0], 'HEAD https://cdn.example/s/1');
    assert.is(pickEngine('https://cdn.example/s/1', { mediaSource: true, nativeHls: false }, true), 'hls');
  } finally {
    globalThis.fetch = real;
  }
});

test.run();
