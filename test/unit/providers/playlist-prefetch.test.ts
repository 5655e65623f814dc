import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prefetchPlaylists } from '../../../src/providers/playlist-prefetch';

const MASTER = `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="en",NAME="English",DEFAULT=NO,URI="audio/eng.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="ru",NAME="Русский",DEFAULT=YES,URI="audio/rus.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="other",DEFAULT=YES,URI="audio/other.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=1280x720,AUDIO="aud"
video/720p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=150000,RESOLUTION=426x240,AUDIO="aud"
video/240p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=640x360,AUDIO="other"
https://cdn.example/360p.m3u8
`;

async function run(files: Record<string, string | number>) {
  const asked: string[] = [];
  const real = globalThis.fetch;
  globalThis.fetch = (async (url: string) => {
    asked.push(url);
    const body = files[url];
    if (body === undefined) throw new TypeError('Failed to fetch');
    if (typeof body === 'number') return new Response('', { status: body });
    return new Response(body);
  }) as typeof fetch;
  try {
    const cache = prefetchPlaylists('https://h.example/m/master.m3u8');
    await new Promise((r) => setTimeout(r, 10));
    return { asked, cache };
  } finally {
    globalThis.fetch = real;
  }
}

test('master, then the lowest-bandwidth variant and its default audio, resolved against the master', async () => {
  const { asked, cache } = await run({
    'https://h.example/m/master.m3u8': MASTER,
    'https://h.example/m/video/240p.m3u8': '#EXTM3U v240',
    'https://h.example/m/audio/rus.m3u8': '#EXTM3U rus',
  });
  assert.equal(asked, [
    'https://h.example/m/master.m3u8',
    'https://h.example/m/video/240p.m3u8',
    'https://h.example/m/audio/rus.m3u8',
  ]);
  assert.is(await cache.get('https://h.example/m/video/240p.m3u8'), '#EXTM3U v240');
  assert.is(await cache.get('https://h.example/m/master.m3u8'), MASTER);
});

test('failures resolve to undefined so the engine loads by itself', async () => {
  const { asked, cache } = await run({ 'https://h.example/m/master.m3u8': 404 });
  assert.equal(asked, ['https://h.example/m/master.m3u8']);
  assert.is(await cache.get('https://h.example/m/master.m3u8'), undefined);
  const down = await run({});
  assert.is(await down.cache.get('https://h.example/m/master.m3u8'), undefined);
});

test('a media playlist given as the source prefetches nothing more', async () => {
  const { asked } = await run({ 'https://h.example/m/master.m3u8': '#EXTM3U\n#EXTINF:4,\nseg0.m4s\n' });
  assert.equal(asked, ['https://h.example/m/master.m3u8']);
});

test.run();
