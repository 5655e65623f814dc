import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prefetchPlaylists, startPrefetch, useAudioPreferences } from '../../../src/providers/playlist-prefetch';
import { PREFETCH_IDLE_MS } from '../../../src/providers/start-guess';
import { fakeClock, flush } from '../fakes';

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
  assert.is((await cache.get('https://h.example/m/video/240p.m3u8'))?.data, '#EXTM3U v240');
  assert.is((await cache.get('https://h.example/m/master.m3u8'))?.data, MASTER);
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

// Deadlines (DESIGN "Every wait ends"): driven by the fake clock, fetch answers from a table of
// functions that get the request's signal. A stub that honours the signal answers like a browser's
// fetch: aborting rejects the request, or errors a body still streaming.

type Answer = (signal: AbortSignal) => Response | Promise<Response>;
const MASTER_URL = 'https://h.example/m/master.m3u8';
const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
const never: Answer = (signal) => aborted(signal);

function stubFetch(answers: Record<string, Answer>) {
  const asked: Array<{ url: string; signal?: AbortSignal }> = [];
  const real = globalThis.fetch;
  globalThis.fetch = (async (url: string, init?: RequestInit) => {
    asked.push({ url: String(url), signal: init?.signal ?? undefined });
    const a = answers[String(url)];
    if (!a) throw new TypeError('Failed to fetch');
    return a(init!.signal!);
  }) as typeof fetch;
  return { asked, restore: () => (globalThis.fetch = real) };
}

/** Whether a promise has settled after a few turns, and with what. */
async function settled<T>(p: Promise<T> | undefined): Promise<{ done: boolean; value?: T }> {
  let out: { done: boolean; value?: T } = { done: false };
  void p?.then((value) => (out = { done: true, value }));
  await flush();
  return out;
}

test('a master playlist that never answers: undefined after PREFETCH_IDLE_MS, its fetch aborted then', async () => {
  const clock = fakeClock().install();
  const f = stubFetch({ [MASTER_URL]: never });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    await flush();
    assert.is(f.asked.length, 1);
    const { signal } = f.asked[0];
    assert.ok(signal instanceof AbortSignal, 'the fetch is given a signal');
    clock.advance(PREFETCH_IDLE_MS - 1);
    assert.not.ok(signal!.aborted);
    assert.not.ok((await settled(cache.get(MASTER_URL))).done, 'still waiting just before the deadline');
    clock.advance(1);
    assert.ok(signal!.aborted, 'the request is cancelled at the deadline');
    assert.is((signal!.reason as Error).name, 'TimeoutError');
    assert.equal(await settled(cache.get(MASTER_URL)), { done: true, value: undefined }, 'left to hls.js');
    assert.is(f.asked.length, 1, 'no variant asked');
    assert.is(clock.pending(), 0, 'no timer left behind');
  } finally {
    f.restore();
    clock.restore();
  }
});

test('PREFETCH_IDLE_MS is 5 s', () => {
  assert.is(PREFETCH_IDLE_MS, 5000);
});

test('a body that stalls after the headers is bounded by the same deadline', async () => {
  const clock = fakeClock().install();
  const stalledBody: Answer = (signal) => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('#EXTM3U\n'));
        signal.addEventListener('abort', () => c.error(signal.reason));
      },
    });
    return new Response(body, { status: 200 });
  };
  const f = stubFetch({ [MASTER_URL]: stalledBody });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    await flush();
    assert.not.ok((await settled(cache.get(MASTER_URL))).done);
    clock.advance(PREFETCH_IDLE_MS);
    assert.equal(await settled(cache.get(MASTER_URL)), { done: true, value: undefined });
    assert.is(clock.pending(), 0);
  } finally {
    f.restore();
    clock.restore();
  }
});

test('a body that keeps arriving, slower than the idle bound in all, is waited for: each chunk restarts it', async () => {
  const clock = fakeClock().install();
  let push: ((s: string) => void) | undefined;
  let close: (() => void) | undefined;
  const trickle: Answer = () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        push = (s) => c.enqueue(new TextEncoder().encode(s));
        close = () => c.close();
      },
    });
    return new Response(body, { status: 200 });
  };
  const f = stubFetch({ [MASTER_URL]: trickle });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    await flush();
    for (const line of ['#EXTM3U\n', '#EXT-X-VERSION:7\n', '#EXT-X-INDEPENDENT-SEGMENTS\n']) {
      clock.advance(PREFETCH_IDLE_MS - 1);
      push!(line);
      await flush();
      assert.ok(cache.traffic!.last > 0, 'each chunk is written to the traffic clock');
    }
    assert.not.ok(f.asked[0].signal!.aborted, '3 × (PREFETCH_IDLE_MS - 1) in all, never idle that long');
    close!();
    assert.is((await cache.get(MASTER_URL))?.data, '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n');
    assert.is(clock.pending(), 0);
  } finally {
    f.restore();
    clock.restore();
  }
});

test('a prompt answer clears its deadline: nothing is aborted later', async () => {
  const clock = fakeClock().install();
  const f = stubFetch({ [MASTER_URL]: () => new Response('#EXTM3U\n#EXTINF:4,\nseg0.m4s\n') });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    await flush();
    assert.match(String((await cache.get(MASTER_URL))!.data), /^#EXTM3U/);
    assert.is(clock.pending(), 0, 'the timer is cleared once the playlist is in');
    clock.advance(PREFETCH_IDLE_MS * 2);
    assert.not.ok(f.asked[0].signal!.aborted);
  } finally {
    f.restore();
    clock.restore();
  }
});

test('a variant that never answers is given up on its own deadline; the master stays', async () => {
  const clock = fakeClock().install();
  const f = stubFetch({
    [MASTER_URL]: () => new Response(MASTER),
    'https://h.example/m/video/240p.m3u8': never,
    'https://h.example/m/audio/rus.m3u8': () => new Response('#EXTM3U rus'),
  });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    await flush();
    assert.equal(
      f.asked.map((a) => a.url),
      [MASTER_URL, 'https://h.example/m/video/240p.m3u8', 'https://h.example/m/audio/rus.m3u8'],
    );
    assert.is((await cache.get('https://h.example/m/audio/rus.m3u8'))?.data, '#EXTM3U rus');
    clock.advance(PREFETCH_IDLE_MS);
    assert.equal(await settled(cache.get('https://h.example/m/video/240p.m3u8')), { done: true, value: undefined });
    assert.is((await cache.get(MASTER_URL))?.data, MASTER);
    assert.is(clock.pending(), 0);
  } finally {
    f.restore();
    clock.restore();
  }
});

test('anything but a playlist resolves to undefined: an HTML error page, JSON, garbage, an empty body', async () => {
  const bodies = [
    '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
    '<html>#EXTM3U</html>',
    '{"error":"expired"}',
    '\u0000\u0001garbage',
    '',
    ' #EXTM3U',
    '#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8',
  ];
  for (const body of bodies) {
    const f = stubFetch({ [MASTER_URL]: () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/html' } }) });
    try {
      const cache = prefetchPlaylists(MASTER_URL);
      assert.is(await cache.get(MASTER_URL), undefined, JSON.stringify(body));
      await flush(2);
      assert.is(f.asked.length, 1, `nothing more is asked after ${JSON.stringify(body)}`);
    } finally {
      f.restore();
    }
  }
});

test('an HTML answer for a variant is left to hls.js too', async () => {
  const f = stubFetch({
    [MASTER_URL]: () => new Response(MASTER),
    'https://h.example/m/video/240p.m3u8': () => new Response('<html>login</html>'),
    'https://h.example/m/audio/rus.m3u8': () => new Response('#EXTM3U rus'),
  });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    await flush();
    assert.is(await cache.get('https://h.example/m/video/240p.m3u8'), undefined);
    assert.is((await cache.get('https://h.example/m/audio/rus.m3u8'))?.data, '#EXTM3U rus');
  } finally {
    f.restore();
  }
});

test('a network error resolves to undefined (and the master asks for nothing more)', async () => {
  const clock = fakeClock().install();
  const f = stubFetch({ [MASTER_URL]: () => Promise.reject(new TypeError('Failed to fetch')) });
  try {
    const cache = prefetchPlaylists(MASTER_URL);
    assert.is(await cache.get(MASTER_URL), undefined);
    await flush(2);
    assert.is(f.asked.length, 1);
    assert.is(clock.pending(), 0, 'the deadline is cleared on a failure too');
  } finally {
    f.restore();
    clock.restore();
  }
});


test('the audio the player will choose (saved label, voice author, lang_order), then init segments and first fragments; hls.js is told the choice', async () => {
  const files: Record<string, string> = {
    'https://h.example/m/master.m3u8': MASTER,
    'https://h.example/m/video/240p.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4,\nseg_000.m4s\n#EXTINF:4,\nseg_001.m4s\n',
    'https://h.example/m/audio/eng.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="a-init.mp4"\n#EXTINF:4,\na0.m4s\n',
    'https://h.example/m/video/init.mp4': 'I',
    'https://h.example/m/video/seg_000.m4s': 'S0',
    'https://h.example/m/audio/a-init.mp4': 'AI',
    'https://h.example/m/audio/a0.m4s': 'A0',
  };
  useAudioPreferences(() => ({ langOrder: ['en'] }));
  const { asked, cache } = await run(files);
  assert.equal(asked.sort(), Object.keys(files).sort(), 'the English audio (lang_order), not the DEFAULT=YES Russian');
  assert.equal(cache.audio, { groupId: 'aud', name: 'English', lang: 'en' });
  const seg = await cache.get('https://h.example/m/video/seg_000.m4s');
  assert.is(new TextDecoder().decode(seg!.data as ArrayBuffer), 'S0');
  assert.ok(seg!.end >= seg!.start);
  useAudioPreferences(() => ({ saved: 'Русский', langOrder: ['en'] }));
  const saved = await run({ ...files, 'https://h.example/m/audio/rus.m3u8': '#EXTM3U rus' });
  assert.ok(saved.asked.includes('https://h.example/m/audio/rus.m3u8'), 'the saved label wins');
  assert.not.ok(saved.asked.includes('https://h.example/m/audio/eng.m3u8'));
  useAudioPreferences(undefined);
});

test('what the bootstrap started is taken over once by the same address', () => {
  const real = globalThis.fetch;
  const asked: string[] = [];
  globalThis.fetch = (async (url: string) => (asked.push(url), new Response('nope', { status: 404 }))) as typeof fetch;
  try {
    startPrefetch('https://h.example/b/master.m3u8', 0);
    const first = prefetchPlaylists('https://h.example/b/master.m3u8');
    const again = prefetchPlaylists('https://h.example/b/master.m3u8');
    assert.ok(first.has('https://h.example/b/master.m3u8'));
    assert.is.not(first, again, 'a second selection of the same address prefetches anew');
    assert.equal(asked, ['https://h.example/b/master.m3u8', 'https://h.example/b/master.m3u8']);
  } finally {
    globalThis.fetch = real;
  }
});

// The start the page appends itself (providers/early-media.ts): both renditions' init segments and
// first fragments, the variant's codecs, the video playlist's length.
const EARLY_MASTER = `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="ru",NAME="Русский",DEFAULT=YES,URI="audio/rus.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud"
video/240p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
video/720p.m3u8
`;
const EARLY_FILES: Record<string, string | number> = {
  'https://h.example/m/master.m3u8': EARLY_MASTER,
  'https://h.example/m/video/240p.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.0,\nseg_000.m4s\n#EXTINF:4.0,\nseg_001.m4s\n#EXTINF:2.5,\nseg_002.m4s\n',
  'https://h.example/m/audio/rus.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="a-init.mp4"\n#EXTINF:4,\na0.m4s\n',
  'https://h.example/m/video/init.mp4': 'I',
  'https://h.example/m/video/seg_000.m4s': 'S0',
  'https://h.example/m/audio/a-init.mp4': 'AI',
  'https://h.example/m/audio/a0.m4s': 'A0',
};
const text = (b: ArrayBuffer) => new TextDecoder().decode(b);

test('early: the variant\'s and the audio\'s init segments and first fragments with their codecs and the film\'s length', async () => {
  const { cache } = await run(EARLY_FILES);
  const start = await cache.early;
  assert.ok(start);
  assert.is(start.duration, 10.5);
  assert.is(start.variant, 'https://h.example/m/video/240p.m3u8', 'the lowest variant, resolved');
  assert.is(start.video.codec, 'avc1.64001e');
  assert.is(start.audio.codec, 'mp4a.40.2');
  assert.equal([text(start.video.init), text((await start.video.first)!), text(start.audio.init), text((await start.audio.first)!)], ['I', 'S0', 'AI', 'A0']);
  assert.equal(
    cache.firstAsked(),
    {
      playlists: ['https://h.example/m/video/240p.m3u8', 'https://h.example/m/audio/rus.m3u8'],
      segments: ['https://h.example/m/video/init.mp4', 'https://h.example/m/video/seg_000.m4s', 'https://h.example/m/audio/a-init.mp4', 'https://h.example/m/audio/a0.m4s'],
    },
    'what the start needed, for a returning viewer: at the early first frame hls.js has asked for nothing',
  );
  assert.ok(await cache.get('https://h.example/m/video/seg_000.m4s'), 'still there for hls.js, which takes each address over');
});

test('early: a first fragment that fails comes as undefined, its init segment there', async () => {
  const start = await (await run({ ...EARLY_FILES, 'https://h.example/m/audio/a0.m4s': 404 })).cache.early;
  assert.ok(start);
  assert.is(text(start.audio.init), 'AI');
  assert.is(await start.audio.first, undefined);
  assert.is(text((await start.video.first)!), 'S0');
});

/** fetch answering EARLY_FILES, the first fragments through `fragment` (undone by the returned function). */
function earlyFetch(fragment: (url: string) => Promise<Response> | undefined): () => void {
  const real = globalThis.fetch;
  globalThis.fetch = (async (url: string) => {
    const own = fragment(url);
    if (own) return own;
    const body = EARLY_FILES[url];
    return typeof body === 'string' ? new Response(body) : new Response('', { status: 404 });
  }) as typeof fetch;
  return () => void (globalThis.fetch = real);
}

test('early: in as soon as both init segments are, the first fragments still on their way', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const restore = earlyFetch((url) => (url.endsWith('.m4s') ? held.then(() => new Response(EARLY_FILES[url] as string)) : undefined));
  try {
    const start = await prefetchPlaylists('https://h.example/m/master.m3u8').early;
    assert.ok(start);
    let first: ArrayBuffer | undefined | 'pending' = 'pending';
    void start.video.first.then((f) => (first = f));
    await flush();
    assert.is(first, 'pending');
    release();
    assert.is(text((await start.video.first)!), 'S0');
  } finally {
    restore();
  }
});

test('early: a first fragment\'s bytes reach its feed as they arrive, and are let go once the whole fragment is in', async () => {
  let push!: (s: string) => void;
  let close!: () => void;
  const restore = earlyFetch((url) => {
    if (!url.endsWith('seg_000.m4s')) return;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        push = (s) => c.enqueue(new TextEncoder().encode(s));
        close = () => c.close();
      },
    });
    return Promise.resolve(new Response(body));
  });
  try {
    const start = await prefetchPlaylists('https://h.example/m/master.m3u8').early;
    assert.ok(start);
    let told = 0;
    start.video.coming.arrived = () => told++;
    push('S0a');
    await flush();
    assert.equal(start.video.coming.chunks.map((c) => new TextDecoder().decode(c)), ['S0a'], 'the first chunk, before the last');
    push('S0b');
    await flush();
    assert.equal(start.video.coming.chunks.map((c) => new TextDecoder().decode(c)), ['S0a', 'S0b']);
    assert.is(told, 2, 'told at each chunk');
    close();
    assert.is(text((await start.video.first)!), 'S0aS0b');
    assert.equal(start.video.coming.chunks, [], 'not kept beside the whole');
    assert.equal(start.audio.coming.chunks, [], 'the audio\'s, whole, let go too');
  } finally {
    restore();
  }
});

test('early: undefined when an init segment fails, the variant names no codecs, or the audio is muxed', async () => {
  assert.is(await (await run({ ...EARLY_FILES, 'https://h.example/m/audio/a-init.mp4': 404 })).cache.early, undefined, 'a failed init segment');
  const noCodecs = EARLY_MASTER.replace(/,CODECS="[^"]*"/g, '');
  assert.is(await (await run({ ...EARLY_FILES, 'https://h.example/m/master.m3u8': noCodecs })).cache.early, undefined, 'no CODECS');
  const muxed = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.64001e,mp4a.40.2"\nvideo/240p.m3u8\n';
  assert.is(await (await run({ ...EARLY_FILES, 'https://h.example/m/master.m3u8': muxed })).cache.early, undefined, 'no audio rendition');
  assert.is(await (await run({ 'https://h.example/m/master.m3u8': 404 })).cache.early, undefined, 'no master');
});

// A rendition that fails is not the start's end: the next one up is asked (as hls.js's level failover
// goes on), so the first frame still comes from the page; hls.js loads on from that rendition.
const NEXT_FILES: Record<string, string | number> = {
  'https://h.example/m/video/720p.m3u8': '#EXTM3U\n#EXT-X-MAP:URI="init-720.mp4"\n#EXTINF:4.0,\nseg-720_000.m4s\n#EXTINF:4.0,\nseg-720_001.m4s\n',
  'https://h.example/m/video/init-720.mp4': 'I720',
  'https://h.example/m/video/seg-720_000.m4s': 'S720',
};

test('early: the lowest variant\'s playlist failing (404), the next one up starts, named as the start\'s variant', async () => {
  const { asked, cache } = await run({ ...EARLY_FILES, ...NEXT_FILES, 'https://h.example/m/video/240p.m3u8': 404 });
  const start = await cache.early;
  assert.ok(start);
  assert.is(start.variant, 'https://h.example/m/video/720p.m3u8', 'hls.js maps it to its level and loads on from it');
  assert.is(start.duration, 8, 'its own length');
  assert.equal([text(start.video.init), text((await start.video.first)!), text(start.audio.init)], ['I720', 'S720', 'AI']);
  assert.is(asked.filter((u) => u.endsWith('/240p.m3u8')).length, 1, 'the failed playlist asked once');
  assert.equal(cache.firstAsked()?.playlists, ['https://h.example/m/video/720p.m3u8', 'https://h.example/m/audio/rus.m3u8'], 'a returning viewer asks for the rendition that worked');
});

test('early: the lowest variant\'s init segment failing, the next one up starts too', async () => {
  const { cache } = await run({ ...EARLY_FILES, ...NEXT_FILES, 'https://h.example/m/video/init.mp4': 500 });
  const start = await cache.early;
  assert.is(start?.variant, 'https://h.example/m/video/720p.m3u8');
  assert.is(text(start!.video.init), 'I720');
});

test('early: every variant failing, no start and each asked once (hls.js\'s to fail over or to report)', async () => {
  const { asked, cache } = await run({ ...EARLY_FILES, 'https://h.example/m/video/240p.m3u8': 404, 'https://h.example/m/video/720p.m3u8': 404 });
  assert.is(await cache.early, undefined);
  assert.equal(asked.filter((u) => u.includes('/video/')).sort(), ['https://h.example/m/video/240p.m3u8', 'https://h.example/m/video/720p.m3u8']);
});

test('early: a first fragment failing is no fallback (its bytes are appended as they come): the start hands over to hls.js', async () => {
  const { asked, cache } = await run({ ...EARLY_FILES, ...NEXT_FILES, 'https://h.example/m/video/seg_000.m4s': 404 });
  const start = await cache.early;
  assert.is(start?.variant, 'https://h.example/m/video/240p.m3u8');
  assert.is(await start!.video.first, undefined);
  assert.not.ok(asked.some((u) => u.includes('720')));
});

test('early: a rendition that does not answer is no fallback (a silence is the link\'s or the server\'s, and another rendition would wait as long again)', async () => {
  for (const silent of ['https://h.example/m/video/240p.m3u8', 'https://h.example/m/video/init.mp4']) {
    const clock = fakeClock().install();
    const answers: Record<string, Answer> = {};
    for (const [url, body] of Object.entries({ ...EARLY_FILES, ...NEXT_FILES })) answers[url] = () => new Response(String(body));
    answers[silent] = never;
    const f = stubFetch(answers);
    try {
      const cache = prefetchPlaylists(MASTER_URL);
      await flush();
      clock.advance(PREFETCH_IDLE_MS);
      assert.equal(await settled(cache.early), { done: true, value: undefined }, silent);
      assert.not.ok(f.asked.some((a) => a.url.includes('720')), `no other rendition asked after ${silent}'s silence`);
    } finally {
      f.restore();
      clock.restore();
    }
  }
});

test('a start away from 0: a failed lowest variant\'s playlist is followed by the next one\'s, no fragment fetched', async () => {
  const real = globalThis.fetch;
  const asked: string[] = [];
  globalThis.fetch = (async (url: string) => {
    asked.push(url);
    const body = url.endsWith('/240p.m3u8') ? undefined : ({ ...EARLY_FILES, ...NEXT_FILES } as Record<string, string | number>)[url];
    return typeof body === 'string' ? new Response(body) : new Response('', { status: 404 });
  }) as typeof fetch;
  try {
    const cache = prefetchPlaylists('https://h.example/m/master.m3u8', 30);
    assert.is(await cache.early, undefined);
    assert.ok((await cache.get('https://h.example/m/video/720p.m3u8'))?.data, 'there for hls.js should it go on there');
    assert.not.ok(asked.some((u) => /\.(m4s|mp4)$/.test(u)), asked.join(', '));
  } finally {
    globalThis.fetch = real;
  }
});

test('early: a start away from 0 fetches no fragment and has none', async () => {
  const real = globalThis.fetch;
  const asked: string[] = [];
  globalThis.fetch = (async (url: string) => {
    asked.push(url);
    const body = EARLY_FILES[url];
    return typeof body === 'string' ? new Response(body) : new Response('', { status: 404 });
  }) as typeof fetch;
  try {
    const cache = prefetchPlaylists('https://h.example/m/master.m3u8', 30);
    assert.is(await cache.early, undefined);
    assert.not.ok(asked.some((u) => u.endsWith('.m4s')));
  } finally {
    globalThis.fetch = real;
  }
});

test.run();
