// A returning viewer's guess (issue 26): asked for at once by the bootstrap, taken over by the
// prefetch when the catalogue's choice is what it remembered, dropped (aborted) otherwise.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prefetchPlaylists, settleGuess, useAudioPreferences } from '../../../src/providers/playlist-prefetch';
import { startGuess } from '../../../src/bootstrap/guess';
import { takeGuess } from '../../../src/providers/start-guess';
import type { StartMemory } from '../../../src/storage/start-memory';
import { flush } from '../fakes';

const M = 'https://cdn.example/m';
const MASTER = `${M}/master.m3u8`;
const MASTER_TEXT = `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="ru",NAME="Русский",DEFAULT=YES,URI="audio/rus.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="en",NAME="English",DEFAULT=NO,URI="audio/eng.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO="aud"
video/720p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=150000,AUDIO="aud"
video/240p.m3u8
`;
const media = (name: string) => `#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4,\nseg_0.m4s\n#EXTINF:4,\nseg_1.m4s\n# ${name}\n`;
const FILES: Record<string, string> = {
  [MASTER]: MASTER_TEXT,
  [`${M}/video/240p.m3u8`]: media('240p'),
  [`${M}/audio/rus.m3u8`]: media('rus'),
  [`${M}/audio/eng.m3u8`]: media('eng'),
  [`${M}/other/master.m3u8`]: MASTER_TEXT,
  [`${M}/other/video/240p.m3u8`]: media('other 240p'),
  [`${M}/other/audio/rus.m3u8`]: media('other rus'),
};
const remembered: StartMemory = {
  movie: 1,
  episode: 101,
  variant: 11,
  master: MASTER,
  at: 0,
  playlists: [`${M}/video/240p.m3u8`, `${M}/audio/rus.m3u8`],
  segments: [`${M}/video/init.mp4`, `${M}/video/seg_0.m4s`, `${M}/audio/init.mp4`, `${M}/audio/seg_0.m4s`],
};

/** fetch answering FILES (and any .mp4/.m4s with bytes), every request with its signal. */
function stubFetch() {
  const asked: Array<{ url: string; signal: AbortSignal }> = [];
  const real = globalThis.fetch;
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const signal = init.signal!;
    asked.push({ url: String(url), signal });
    await Promise.resolve();
    if (signal.aborted) throw signal.reason;
    const body = FILES[String(url)] ?? (/\.(mp4|m4s)$/.test(String(url)) ? new Uint8Array([1, 2, 3]) : undefined);
    return body === undefined ? new Response('', { status: 404 }) : new Response(body);
  }) as typeof fetch;
  return { asked, urls: () => asked.map((a) => a.url), restore: () => (globalThis.fetch = real) };
}

const reset = () => {
  // No guess left by the test before: none started, none kept.
  takeGuess();
  settleGuess(-1, null, '');
  useAudioPreferences(undefined);
};

test('the guess asks at once for the master, the playlists and, starting where it did, the segments', async () => {
  reset();
  const f = stubFetch();
  try {
    startGuess(remembered, 0);
    assert.equal(f.urls(), [MASTER, ...remembered.playlists, ...remembered.segments], 'all before any answer');
    f.asked.length = 0;
    startGuess(remembered, 120);
    assert.equal(f.urls(), [MASTER, ...remembered.playlists], 'a time code elsewhere: no segments');
    takeGuess()?.drop.abort();
  } finally {
    f.restore();
  }
});

test('the catalogue names what was remembered: the prefetch takes the guess over, nothing is asked twice', async () => {
  reset();
  const f = stubFetch();
  try {
    startGuess(remembered, 0);
    await flush();
    settleGuess(101, 11, MASTER);
    const cache = prefetchPlaylists(MASTER);
    await flush();
    const urls = f.urls();
    assert.equal(urls.filter((u, i) => urls.indexOf(u) !== i), [], 'each address once');
    assert.ok(f.asked.every((a) => !a.signal.aborted), 'nothing aborted');
    assert.is((await cache.get(MASTER))?.data, MASTER_TEXT, 'the master from the guess');
    assert.is((await cache.get(`${M}/video/240p.m3u8`))?.data, media('240p'));
    assert.equal(new Uint8Array((await cache.get(`${M}/audio/seg_0.m4s`))?.data as ArrayBuffer), new Uint8Array([1, 2, 3]));
    assert.ok(cache.traffic!.last > 0, "the guess's bytes count as the start's traffic");
    assert.equal(cache.audio, { groupId: 'aud', name: 'Русский', lang: 'ru' }, 'the audio chosen from the master as ever');
  } finally {
    f.restore();
  }
});

test('a guess that is right but for the audio: the prefetch asks for the audio the viewer now prefers', async () => {
  reset();
  const f = stubFetch();
  try {
    useAudioPreferences(() => ({ saved: 'English', langOrder: [] }));
    startGuess(remembered, 0);
    settleGuess(101, 11, MASTER);
    const cache = prefetchPlaylists(MASTER);
    await flush();
    assert.ok(f.urls().includes(`${M}/audio/eng.m3u8`));
    assert.equal(cache.audio, { groupId: 'aud', name: 'English', lang: 'en' });
  } finally {
    f.restore();
  }
});

for (const [what, episode, variant, master] of [
  ['another episode', 102, 11, MASTER],
  ['another variant', 101, 12, MASTER],
  ['a new master address', 101, 11, `${M}/other/master.m3u8`],
] as const) {
  test(`the catalogue names ${what}: the guess is dropped, its requests aborted, the chosen master prefetched anew`, async () => {
    reset();
    const f = stubFetch();
    try {
      startGuess(remembered, 0);
      const guessed = [...f.asked];
      settleGuess(episode, variant, master);
      assert.ok(guessed.every((a) => a.signal.aborted), 'every guessed request aborted');
      f.asked.length = 0;
      const cache = prefetchPlaylists(master);
      await flush();
      assert.is(f.urls()[0], master, 'asked anew');
      assert.ok(f.asked.every((a) => !a.signal.aborted), 'and not aborted');
      // The same master (another episode or variant playing the same file): its prefetch asks for
      // the same addresses again, a guess's few kilobytes paid twice.
      if (master === MASTER) assert.is((await cache.get(MASTER))?.data, MASTER_TEXT, "the master's own fetch");
      else for (const url of [MASTER, ...remembered.playlists, ...remembered.segments]) assert.is(cache.get(url), undefined, `${url} not handed to the engine`);
    } finally {
      f.restore();
    }
  });
}

test('not settled by the bootstrap: the entry asking for another master drops the guess; for the same, takes it', async () => {
  reset();
  const f = stubFetch();
  try {
    startGuess(remembered, 0);
    const guessed = [...f.asked];
    prefetchPlaylists(`${M}/other/master.m3u8`);
    assert.ok(guessed.every((a) => a.signal.aborted));
    startGuess(remembered, 0);
    f.asked.length = 0;
    const cache = prefetchPlaylists(MASTER);
    await flush();
    assert.not.ok(f.urls().includes(MASTER), 'the master not asked again');
    assert.is((await cache.get(MASTER))?.data, MASTER_TEXT);
  } finally {
    f.restore();
  }
});

test('firstAsked: what the engine asked the cache for, playlists (as the master names them) apart from segments', async () => {
  reset();
  const f = stubFetch();
  try {
    const cache = prefetchPlaylists(MASTER);
    assert.is(cache.firstAsked(), undefined, 'before the master is read nothing can be told apart');
    await flush();
    for (const url of [MASTER, `${M}/video/240p.m3u8`, `${M}/audio/rus.m3u8`, `${M}/video/init.mp4`, `${M}/video/init.mp4`, `${M}/video/seg_0.m4s`, `${M}/audio/init.mp4`])
      cache.get(url);
    assert.equal(cache.firstAsked(), {
      playlists: [`${M}/video/240p.m3u8`, `${M}/audio/rus.m3u8`],
      segments: [`${M}/video/init.mp4`, `${M}/video/seg_0.m4s`, `${M}/audio/init.mp4`],
    });
  } finally {
    f.restore();
  }
});

test.run();
