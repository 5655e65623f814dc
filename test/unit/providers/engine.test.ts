import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isHlsAddress, isHlsByContentType, needsContentType, pickEngine } from '../../../src/providers/engine';
import { fakeClock, flush } from '../fakes';

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

/** The HEAD check's own budget (engine.ts HEAD_TIMEOUT_MS, not exported): 4 s. */
const HEAD_TIMEOUT_MS = 4000;

test('a HEAD that never answers resolves false after its timeout, its request aborted then', async () => {
  const real = globalThis.fetch;
  const clock = fakeClock().install();
  const asked: RequestInit[] = [];
  // A stalled server: the request ends only when the caller aborts it (as a browser's fetch does).
  globalThis.fetch = ((_url: string, init: RequestInit) => {
    asked.push(init);
    return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
  }) as typeof fetch;
  try {
    let result: boolean | undefined;
    void isHlsByContentType('https://cdn.example/stream/1').then((r) => (result = r));
    await flush();
    assert.is(asked.length, 1);
    assert.is(asked[0].method, 'HEAD');
    assert.ok(asked[0].signal instanceof AbortSignal, 'the HEAD can be cancelled');
    clock.advance(HEAD_TIMEOUT_MS - 1);
    await flush();
    assert.is(result, undefined, 'still waiting just before the deadline');
    clock.advance(1);
    await flush();
    assert.is(result, false, 'given up: the <video> element tries the address itself');
    assert.is((asked[0].signal!.reason as Error).name, 'TimeoutError');
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
    globalThis.fetch = real;
  }
});

test('a HEAD answered in time clears its deadline', async () => {
  const real = globalThis.fetch;
  const clock = fakeClock().install();
  let signal: AbortSignal | undefined;
  globalThis.fetch = (async (_url: string, init: RequestInit) => {
    signal = init.signal ?? undefined;
    return new Response(null, { headers: { 'Content-Type': 'application/x-mpegURL' } });
  }) as typeof fetch;
  try {
    assert.ok(await isHlsByContentType('https://cdn.example/stream/2'));
    assert.is(clock.pending(), 0, 'no timer outlives the answer');
    clock.advance(HEAD_TIMEOUT_MS * 2);
    assert.not.ok(signal!.aborted);
  } finally {
    clock.restore();
    globalThis.fetch = real;
  }
});

test.run();
