import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clickPlay, open, poll, srv, videoState, waitForTime } from './harness';

const BLOCKED =
  'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.';
const GENERIC = /^К сожалению, произошла ошибка, попробуйте перезагрузите страницу\. Идентификатор ошибки: [0-9a-f]{32}$/;

test('movie 1 plays: time advances past 3 s with audio and video decoding, under the CSP', async () => {
  srv().cspReports.length = 0;
  const p = await open('?movie_id=1');
  try {
    await p.page.waitForSelector('.pl-title__name');
    assert.is(await p.page.textContent('.pl-title__name'), 'Тестовый фильм');
    assert.match((await videoState(p.page)).poster, /\/media\/posters\/film-1\.jpg$/);
    await clickPlay(p.page);
    await waitForTime(p.page, 3.2);
    const v = await videoState(p.page);
    assert.ok(v.audioBytes > 0, 'audio decodes');
    assert.ok(v.videoBytes > 0, 'video decodes');
    assert.match(v.src, /^blob:/, 'played through hls.js (MSE)');
    assert.equal(p.csp, [], 'no CSP violation seen by the page');
    assert.equal(srv().cspReports, [], 'no CSP violation reported');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

const HLS_PIECE = /\/player\/hls-[A-Z0-9]+\.js\?widget=hls$/;

test('with an ad list, the hls.js piece is fetched once, with ?widget=hls, in parallel with the catalogue', async () => {
  srv().clearRequests();
  srv().setAdListUrl('/ad-list.json?pre=&mid=');
  const p = await open('?movie_id=1');
  try {
    await p.page.waitForSelector('.pl-big-play');
    // A second download would be the player's own import, sent at start-up before the catalogue calls
    // (answered by now: the play button shows); wait until the page has received the module itself.
    await p.page.waitForFunction((re) => performance.getEntriesByType('resource').some((e) => new RegExp(re).test(e.name)), HLS_PIECE.source, { timeout: 15000 });
    const hls = srv().requests.filter((r) => /^\/player\/hls-[A-Z0-9]+\.js$/.test(r.path));
    assert.is(hls.length, 1, 'downloaded once');
    assert.is(hls[0].query, '?widget=hls');
    const content = srv().requests.find((r) => r.path === '/catalog-api/contents/1')!;
    assert.ok(hls[0].time <= content.time + 50, 'hls.js requested no later than the catalogue calls');
  } finally {
    srv().setAdListUrl(undefined);
    await p.close();
  }
});

test('a first visit without ads: the page plays the first fragments itself, hls.js is asked once they are in and takes the same MediaSource over', async () => {
  srv().clearRequests();
  const p = await open('?movie_id=1&auto_play=1');
  try {
    await p.page.waitForFunction(() => (window as unknown as { __firstPlaying?: number }).__firstPlaying !== undefined, null, { timeout: 15000 });
    const firstSrc = (await videoState(p.page)).src;
    assert.match(firstSrc, /^blob:/);
    await waitForTime(p.page, 9);
    const v = await videoState(p.page);
    assert.is(v.src, firstSrc, 'the same MediaSource: hls.js took it over rather than attaching a new one');
    assert.not.ok(v.paused);
    const timing = await p.page.evaluate((re) => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const hls = entries.filter((e) => new RegExp(re).test(e.name));
      const firsts = entries.filter((e) => /\/(video\/240p|audio\/rus)\/(init\.mp4|seg_000\.m4s)$/.test(e.name));
      return { hls: hls.map((e) => e.startTime), firstsEnd: Math.max(...firsts.map((e) => e.responseEnd)), firsts: firsts.length };
    }, HLS_PIECE.source);
    assert.is(timing.firsts, 4, 'both init segments and first fragments, each fetched once');
    assert.is(timing.hls.length, 1, 'hls.js downloaded once');
    assert.ok(timing.hls[0] >= timing.firstsEnd, `hls.js asked at ${timing.hls[0]} ms, once the first fragments were in (${timing.firstsEnd} ms)`);
    for (const path of ['/media/hls/video/240p/seg_000.m4s', '/media/hls/audio/rus/seg_000.m4s']) {
      assert.is(srv().requests.filter((r) => r.path === path).length, 1, `${path} fetched once: hls.js took it from the prefetch`);
    }
    assert.ok(srv().requests.some((r) => /\/seg_002\.m4s$/.test(r.path)), 'hls.js loads on from the fragments the page appended');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

const HAVE_METADATA = 1;

test('the page\'s MediaSource is open with both init segments in while the first fragment is still on its way; the film then starts on it', async () => {
  srv().clearRequests();
  // The video's first fragment answers 3 s late (a slow link): the element is set up meanwhile.
  const FIRST = '/media/hls/video/240p/seg_000.m4s';
  srv().setFaults([{ match: FIRST, delay: 3000, times: 1 }]);
  const p = await open('?movie_id=1&auto_play=1');
  try {
    const waiting = await poll('the video\'s metadata', () =>
      p.page.evaluate(() => {
        const v = document.querySelector('video');
        return v && v.readyState >= HTMLMediaElement.HAVE_METADATA ? { src: v.src, duration: v.duration, readyState: v.readyState } : undefined;
      }),
    );
    const seenAt = Date.now();
    const asked = srv().requests.find((r) => r.path === FIRST);
    assert.ok(asked && seenAt < asked.time + 2500, `metadata (both init segments) in ${asked && seenAt - asked.time} ms after the first fragment was asked for, before it came`);
    assert.match(waiting.src, /^blob:/);
    assert.ok(waiting.duration > 30, `the film's length (${waiting.duration} s), not a fragment's`);
    assert.is(waiting.readyState, HAVE_METADATA, 'no frame yet: the first fragment is still on its way');
    const hlsAsked = srv().requests.some((r) => /^\/player\/hls-[A-Z0-9]+\.js$/.test(r.path));
    assert.not.ok(hlsAsked, 'hls.js not asked yet: the page is to play the start itself');
    await waitForTime(p.page, 2);
    assert.is((await videoState(p.page)).src, waiting.src, 'the same MediaSource played and was taken over');
    assert.is(srv().requests.filter((r) => r.path === FIRST).length, 1, 'the first fragment fetched once');
    assert.equal(p.errors, []);
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

const episodeLine = async (query: string) => {
  const p = await open(query);
  try {
    await p.page.waitForSelector('.pl-title__episode');
    return { text: await p.page.textContent('.pl-title__episode'), poster: (await videoState(p.page)).poster };
  } finally {
    await p.close();
  }
};

test('playlists are prefetched once and handed to hls.js, not fetched again', async () => {
  srv().clearRequests();
  const p = await open('?movie_id=1&auto_play=1');
  try {
    await waitForTime(p.page, 1);
    const count = (path: string) => srv().requests.filter((r) => r.path === path).length;
    assert.is(count('/media/hls/master.m3u8'), 1);
    assert.is(count('/media/hls/video/240p/index.m3u8'), 1, 'starts on the lowest rendition, fetched once');
    assert.is(count('/media/hls/audio/rus/index.m3u8'), 1);
  } finally {
    await p.close();
  }
});

test('on the way to the first frame every address is fetched once: the entry and hls.js take over what the bootstrap started', async () => {
  srv().clearRequests();
  // lang_order=en: the audio the player chooses is English, not the stream's DEFAULT=YES Russian.
  const p = await open('?movie_id=1&auto_play=1&lang_order=en');
  try {
    await waitForTime(p.page, 1);
    const asked = srv().requests.map((r) => `${r.method} ${r.path}${r.query}`);
    const twice = asked.filter((a, i) => asked.indexOf(a) !== i);
    assert.equal(twice, [], 'no address asked twice');
    for (const path of [
      '/catalog-api/contents/1',
      '/catalog-api/contents/1/seasons',
      '/media/hls/master.m3u8',
      '/media/hls/video/240p/index.m3u8',
      '/media/hls/video/240p/init.mp4',
      '/media/hls/video/240p/seg_000.m4s',
      '/media/hls/audio/eng/index.m3u8',
      '/media/hls/audio/eng/init.mp4',
      '/media/hls/audio/eng/seg_000.m4s',
    ])
      assert.ok(asked.some((a) => a.startsWith(`GET ${path}`)), `${path} fetched`);
    assert.not.ok(asked.some((a) => a.includes('/audio/rus/')), `the Russian audio is never fetched: ${asked.join(' ')}`);
    assert.is(await p.page.evaluate(() => document.querySelector('video')!.muted !== undefined), true);
  } finally {
    await p.close();
  }
});

test('the chain starts before the entry lands: the bootstrap asks for the episodes and the master, the entry carries on from there (hls.js once the first fragments are in)', async () => {
  srv().clearRequests();
  // The entry held back 2 s (a slow first wave): what the bootstrap asks for does not wait for it.
  const ENTRY_DELAY = 2000;
  srv().setFaults([{ match: /^\/player\/main-[A-Z0-9]+\.js$/, delay: ENTRY_DELAY, times: 1 }]);
  const p = await open('?movie_id=1&auto_play=1');
  try {
    await waitForTime(p.page, 1);
    const first = (test: (path: string) => boolean) => srv().requests.find((r) => test(r.path));
    const entry = first((path) => /^\/player\/main-[A-Z0-9]+\.js$/.test(path));
    const episodes = first((path) => path === '/catalog-api/episodes');
    const master = first((path) => path === '/media/hls/master.m3u8');
    const hls = first((path) => /^\/player\/hls-[A-Z0-9]+\.js$/.test(path));
    assert.ok(entry && episodes && master && hls, 'entry, episodes, master and hls.js all asked for');
    const landed = entry.time + ENTRY_DELAY;
    assert.ok(episodes.time < landed - 1000, `episodes asked ${landed - episodes.time} ms before the entry landed`);
    assert.ok(master.time < landed - 1000, `the master asked ${landed - master.time} ms before the entry landed`);
    // A first visit without ads: the entry appends the first fragments itself and asks for hls.js then.
    assert.ok(hls.time >= landed - 50, `hls.js asked by the entry, ${hls.time - landed} ms after it landed`);
    // The take-over is of what was asked before hls.js: none of it asked again. (A later fragment may
    // be retried by hls.js on a loaded machine; that is not the chain's.)
    const asked = srv().requests.map((r) => `${r.method} ${r.path}${r.query}`);
    const beforeHls = new Set(srv().requests.filter((r) => r.time < hls.time).map((r) => `${r.method} ${r.path}${r.query}`));
    assert.equal(asked.filter((a, i) => beforeHls.has(a) && asked.indexOf(a) !== i), [], 'and taken over: no address asked twice');
    assert.equal(p.errors, []);
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test('a playlist hls.js asks for again while the prefetch still has it out is not fetched again', async () => {
  srv().clearRequests();
  // The audio playlist answers late (as on a slow network): hls.js is up and asks for it twice before
  // it lands (seen in the Fast 3G waterfalls: the second ask went to the network).
  srv().setFaults([
    { match: '/media/hls/video/240p/index.m3u8', delay: 2000, times: 1 },
    { match: '/media/hls/audio/rus/index.m3u8', delay: 3000, times: 1 },
  ]);
  const p = await open('?movie_id=1&auto_play=1');
  try {
    await waitForTime(p.page, 1);
    assert.is(srv().requests.filter((r) => r.path === '/media/hls/audio/rus/index.m3u8').length, 1);
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test("with auto_play the interface's pieces wait for the first frame and the poster, never shown, is not asked for; without it they load at once", async () => {
  // When each was asked for (ms since navigation start), by the page's own resource timing.
  const asked = (page: import('playwright-core').Page) =>
    page.evaluate(() => {
      const t: Record<string, number> = {};
      for (const e of performance.getEntriesByType('resource')) {
        const name = /\/(controls|features|requests)-[A-Z0-9]+\.js|film-1\.jpg|240p\/seg_000\.m4s/.exec(e.name)?.[0].replace(/-[A-Z0-9]+\.js$/, '');
        if (name) t[name] ??= e.startTime;
      }
      return t;
    });
  const p = await open('?movie_id=1&auto_play=1');
  try {
    await waitForTime(p.page, 1);
    const t = await poll('the pieces asked for', async () => {
      const t = await asked(p.page);
      return ['/controls', '/features', '/requests'].every((name) => t[name] !== undefined) ? t : undefined;
    });
    const playing = await p.page.evaluate(() => (window as unknown as { __firstPlaying: number }).__firstPlaying);
    for (const name of ['/controls', '/features', '/requests'])
      assert.ok(t[name] >= playing, `${name} asked for at ${t[name]} ms, the first 'playing' at ${playing} ms`);
    await p.page.waitForSelector('.pl-controls', { state: 'attached' });
    await waitForTime(p.page, 2);
    // The media session's artwork may fetch it (the browser's notification); the <video> does not.
    const posterFetches = await p.page.evaluate(() =>
      performance.getEntriesByType('resource').flatMap((e) => (/film-1\.jpg/.test(e.name) ? [(e as PerformanceResourceTiming).initiatorType] : [])),
    );
    assert.not.ok(posterFetches.includes('video'), `the poster of a film already playing: ${posterFetches.join(', ')}`);
    assert.is((await videoState(p.page)).poster, '');
  } finally {
    await p.close();
  }
  const q = await open('?movie_id=1');
  try {
    await q.page.waitForSelector('.pl-controls', { state: 'attached' });
    assert.match((await videoState(q.page)).poster, /\/media\/posters\/film-1\.jpg$/);
    const t = await poll('the first fragment prefetched', async () => {
      const t = await asked(q.page);
      return t["240p/seg_000.m4s"] !== undefined ? t : undefined;
    });
    assert.ok(t['/controls'] < t['240p/seg_000.m4s'], 'without autoplay the controls are asked for before the first fragment');
  } finally {
    await q.close();
  }
});

test('auto_play refused with sound plays muted and offers to unmute', async () => {
  const p = await open('?movie_id=1&auto_play=1', { refuseUnmutedAutoplay: true });
  try {
    await waitForTime(p.page, 1);
    assert.ok(await p.page.evaluate(() => (window as unknown as { __refusedPlays?: number }).__refusedPlays), 'the play with sound was refused');
    assert.ok(await p.page.evaluate(() => document.querySelector('video')!.muted));
    const unmute = p.page.locator('.pl-unmute');
    assert.is(await unmute.textContent(), 'Включить звук');
    await unmute.click();
    assert.not.ok(await p.page.evaluate(() => document.querySelector('video')!.muted));
    // The button goes with the next render, not within the click.
    await unmute.waitFor({ state: 'detached', timeout: 5000 });
  } finally {
    await p.close();
  }
});

test('movie 7: a stream address without an extension is asked for its type with HEAD and plays through hls.js', async () => {
  srv().clearRequests();
  const p = await open('?movie_id=7');
  try {
    await clickPlay(p.page);
    await waitForTime(p.page, 1);
    const v = await videoState(p.page);
    assert.match(v.src, /^blob:/, 'played through hls.js (MSE), as its Content-Type says');
    const asked = srv().requests.filter((r) => r.path === '/media/hls/master').map((r) => r.method);
    assert.is(asked[0], 'HEAD');
    assert.ok(asked.includes('GET'), 'then hls.js loaded it');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('movie 2 starts on S1E2 (S1E1 is completed)', async () => {
  const r = await episodeLine('?movie_id=2');
  assert.match(r.text!, /^1 сезон, 2 серия · /);
  assert.match(r.poster, /s1e2\.jpg$/);
});

test('movie 2 with episode_id, season, season+episode', async () => {
  assert.match((await episodeLine('?movie_id=2&episode_id=205')).text!, /^2 сезон, 2 серия/);
  assert.match((await episodeLine('?movie_id=2&season=2')).text!, /^2 сезон, 1 серия/);
  assert.match((await episodeLine('?movie_id=2&season=2&episode=3')).text!, /^2 сезон, 3 серия/);
});

test('movie 2 episode plays', async () => {
  const p = await open('?movie_id=2&season=2&episode=1');
  try {
    await clickPlay(p.page);
    await waitForTime(p.page, 1);
  } finally {
    await p.close();
  }
});

test('movie 3 plays the placeholder and shows the blocked text', async () => {
  const p = await open('?movie_id=3');
  try {
    await clickPlay(p.page);
    await p.page.waitForSelector('.pl-error');
    assert.is((await p.page.textContent('.pl-error__text'))?.trim(), BLOCKED);
    assert.match((await videoState(p.page)).src, /\/player\/placeholder\.mp4$/);
    assert.is(await p.page.locator('.pl-error button').count(), 0);
  } finally {
    await p.close();
  }
});

test('movie 4 plays from its master descriptor (default source, relative link)', async () => {
  srv().clearRequests();
  const p = await open('?movie_id=4');
  try {
    await clickPlay(p.page);
    await waitForTime(p.page, 1);
    const paths = srv().requests.map((r) => r.path);
    assert.ok(paths.includes('/media/film-4/descriptor.json'));
    assert.ok(paths.includes('/media/desc/rus.m3u8'), 'the default source was played');
    assert.not.ok(paths.includes('/media/desc/eng.m3u8'));
  } finally {
    await p.close();
  }
});

test('movie 6 shows the descriptor load failure with its address', async () => {
  const p = await open('?movie_id=6');
  try {
    await p.page.waitForSelector('.pl-error');
    assert.is(await p.page.textContent('.pl-error__text'), `Ошибка в загрузке: ${srv().url}/media/film-6/descriptor.json`);
  } finally {
    await p.close();
  }
});

test('an unknown id shows "Контент не доступен"', async () => {
  const p = await open('?movie_id=999');
  try {
    await p.page.waitForSelector('.pl-error');
    assert.is(await p.page.textContent('.pl-error__text'), 'Контент не доступен');
  } finally {
    await p.close();
  }
});

test('no movie_id (or a malformed one) shows "Пропущен movie_id в запросе"', async () => {
  for (const q of ['', '?movie_id=', '?movie_id=abc']) {
    const p = await open(q);
    try {
      await p.page.waitForSelector('.pl-error');
      assert.is(await p.page.textContent('.pl-error__text'), 'Пропущен movie_id в запросе', q);
    } finally {
      await p.close();
    }
  }
});

async function recovers(fault: Parameters<ReturnType<typeof srv>['setFaults']>[0][number]) {
  srv().setFaults([fault]);
  const p = await open('?movie_id=1', { globals: { env_request_timeout: 2000 } });
  try {
    await p.page.waitForSelector('.pl-error', { timeout: 10000 });
    assert.match((await p.page.textContent('.pl-error__text'))!, GENERIC);
    srv().clearFaults();
    await p.page.click('.pl-error__button');
    await clickPlay(p.page);
    await waitForTime(p.page, 1);
    assert.is(await p.page.locator('.pl-error').count(), 0);
  } finally {
    srv().clearFaults();
    await p.close();
  }
}

test('a catalogue 500 ends in the generic error; its reload button recovers', async () => {
  await recovers({ match: '/catalog-api/contents/1', status: 500 });
});

test('a stalled catalogue request ends in the generic error; reload recovers', async () => {
  await recovers({ match: '/catalog-api/episodes', stall: true });
});

test('a garbage catalogue answer ends in the generic error; reload recovers', async () => {
  await recovers({ match: '/catalog-api/contents/1/seasons', body: 'garbage' });
});

test('a partner page that moves its frame on while the player loads gets no error from the old one', async () => {
  // The catalogue answers late, so the first player is still waiting when the frame navigates away.
  srv().setFaults([{ match: '/catalog-api/episodes', delay: 3000, times: 1 }]);
  const since = Date.now();
  const p = await open('', { path: '/' });
  try {
    const frame = p.page.frame({ name: 'player' })!;
    await frame.waitForSelector('.pl', { timeout: 15000 });
    // The first player is waiting once the server holds its (delayed) episodes request.
    await poll(
      'the first player\'s /catalog-api/episodes request',
      () => srv().requests.some((r) => r.time >= since && r.method === 'GET' && r.path.startsWith('/catalog-api/episodes')),
      { timeout: 15000 },
    );
    await p.page.evaluate(() => ((document.getElementById('player') as HTMLIFrameElement).src = '/player/?movie_id=2'));
    await frame.waitForURL(/movie_id=2$/, { timeout: 15000 });
    await frame.locator('.pl-big-play').waitFor({ timeout: 15000 });
    // A duration by design: the old player's request is answered 3 s after it was sent; nothing may
    // surface from it meanwhile, and the absence of an error has no event to wait on.
    await p.page.waitForTimeout(3000);
    assert.equal(p.errors, []);
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test('the demo partner page embeds the player and lists every title', async () => {
  const p = await open('', { path: '/' });
  try {
    const frame = p.page.frameLocator('iframe');
    await frame.locator('.pl-big-play').waitFor();
    const text = (await p.page.textContent('body'))!;
    for (const title of ['Тестовый фильм', 'Тестовый сериал', 'Недоступный фильм', 'Фильм с дескриптором', 'Длинный фильм', 'Фильм без дескриптора', 'Фильм по адресу без расширения']) {
      assert.ok(text.includes(title), title);
    }
  } finally {
    await p.close();
  }
});

test.run();
