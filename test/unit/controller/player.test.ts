import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installDom } from '../dom';
import { screenOf } from '../../../src/core/errors';
import * as descriptorPiece from '../../../src/content/descriptor';
import { FINGERPRINT_DELAY_MS } from '../../../src/controller/telemetry-boot';
import { ORIGIN, fakeClock, fakeLoader, film, filmEpisode, filmRoutes, flush, makePlayer, quiet as quietly, serve, series, seriesEpisodes } from '../fakes';

const win = installDom();
Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });

const player = (search: string, globals: Record<string, unknown> = {}) => makePlayer(search, globals);

const quiet = async (fn: () => Promise<void>) => void (await quietly(fn));

test('no movie id: the missing-movie-id screen, no request made', async () => {
  const seen = serve({});
  const p = player('');
  await p.start();
  assert.is(screenOf(p.store.error.value!), 'missing-movie-id');
  assert.equal(seen, []);
});

test('a film loads: content, episode, absolute source, availability asked with the domain', async () => {
  const seen = serve(filmRoutes());
  const p = player('?movie_id=1');
  await p.start();
  assert.is(p.store.error.value, null);
  assert.is(p.store.content.value?.title, 'Фильм');
  assert.is(p.store.episode.value?.id, 101);
  assert.is(p.store.sourceUrl.value, `${ORIGIN}/media/hls/master.m3u8`);
  assert.ok(seen.includes(`${ORIGIN}/catalog-api/contents/1/available?domain=${encodeURIComponent('https://partner.example/page')}`));
});

test('disable_checking_available skips the availability call', async () => {
  const seen = serve(filmRoutes());
  await player('?movie_id=1&disable_checking_available').start();
  assert.not.ok(seen.some((u) => u.includes('/available')));
});

test('the API base from env_base_url', async () => {
  const seen: string[] = [];
  globalThis.fetch = (async (u: string) => {
    seen.push(String(u));
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
  await quiet(() => player('?movie_id=1', { env_base_url: 'https://api.example/' }).start());
  assert.ok(seen.every((u) => u.startsWith('https://api.example/catalog-api/')), seen.join());
});

test('404 on the content: "not found" screen; 500: generic screen with an event id', async () => {
  serve(filmRoutes({ '/catalog-api/contents/1': 404 }));
  const a = player('?movie_id=1');
  await quiet(() => a.start());
  assert.is(screenOf(a.store.error.value!), 'not-found');
  assert.is(a.store.error.value?.code, 'content-not-found');
  serve(filmRoutes({ '/catalog-api/episodes': 500 }));
  const b = player('?movie_id=1');
  await quiet(() => b.start());
  assert.is(screenOf(b.store.error.value!), 'generic');
  assert.is(b.store.error.value?.code, 'content-load-failed');
  assert.match(b.store.error.value!.data!.eventId!, /^[0-9a-f]{32}$/);
});

test('a stalled catalogue times out into the generic screen; retry recovers', async () => {
  let stall = true;
  serve(filmRoutes({ '/catalog-api/contents/1': () => (stall ? new Promise<Response>(() => {}) : new Response(JSON.stringify(film))) }));
  const p = player('?movie_id=1', { env_request_timeout: 30 });
  await quiet(() => p.start());
  assert.is(screenOf(p.store.error.value!), 'generic');
  assert.is(p.store.error.value?.code, 'content-timeout');
  stall = false;
  p.requests.retry();
  // The catalogue, then (a task later) the episode: waits on the outcome, not on a time.
  for (let turn = 0; turn < 200 && p.store.episode.value?.id !== 101; turn++) await flush(1);
  assert.is(p.store.error.value, null);
  assert.is(p.store.episode.value?.id, 101);
});

test('a series starts on the first episode not completed; episode_id and season pick others', async () => {
  const routes = {
    '/catalog-api/contents/2': series,
    '/catalog-api/contents/2/seasons': [{ id: 22, order: 2 }, { id: 21, order: 1 }],
    '/catalog-api/episodes': seriesEpisodes,
    '/catalog-api/contents/2/available': { available: true },
  };
  serve(routes);
  const p = player('?movie_id=2');
  await p.start();
  assert.equal(p.store.episodes.value.map((e) => e.id), [201, 202, 204]);
  assert.equal(p.store.seasons.value.map((s) => s.order), [1, 2]);
  assert.is(p.store.episode.value?.id, 202);
  serve(routes);
  const q = player('?movie_id=2&season=2');
  await q.start();
  assert.is(q.store.episode.value?.id, 204);
});

test('unavailable content plays the placeholder, and episodes cannot be selected', async () => {
  serve(filmRoutes({ '/catalog-api/contents/1/available': { available: false } }));
  const p = player('?movie_id=1');
  await p.start();
  assert.is(p.store.isAvailable.value, false);
  assert.is(p.store.sourceUrl.value, `${ORIGIN}/player/placeholder.mp4`);
  assert.is(p.requests.selectEpisode(p.store.episodes.value[0]), false);
});

test('a descriptor source: the default source plays; a failing one shows its address', async () => {
  const desc = `${ORIGIN}/media/film-4/descriptor.json`;
  // The descriptor reader is its own lazy piece, fetched together with the descriptor.
  const withReader = () => fakeLoader({ descriptor: descriptorPiece });
  serve(
    filmRoutes({
      '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: desc }],
      '/media/film-4/descriptor.json': {
        sources: [
          { label: 'Русский', link: '/media/desc/rus.m3u8', isDefault: true },
          { label: 'English', link: 'https://cdn.example/eng.m3u8' },
        ],
        subtitles: [],
      },
    }),
  );
  const reader = withReader();
  const p = makePlayer('?movie_id=1', {}, reader.load);
  await p.start();
  assert.ok(reader.asked.includes('descriptor'));
  assert.is(p.store.sourceUrl.value, `${ORIGIN}/media/desc/rus.m3u8`);
  assert.is(p.store.descriptor.value?.sources.length, 2);
  serve(filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: desc }] }));
  const q = makePlayer('?movie_id=1', {}, withReader().load);
  await quiet(() => q.start());
  assert.is(q.store.error.value?.code, 'descriptor-load-failed');
  assert.is(screenOf(q.store.error.value!), 'load-failed');
  assert.is(q.store.error.value?.data?.address, desc);
});

test('the descriptor reader piece failing to load shows the load-failed screen with the address', async () => {
  const desc = `${ORIGIN}/media/film-4/descriptor.json`;
  serve(filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: desc }], '/media/film-4/descriptor.json': { sources: [], subtitles: [] } }));
  const p = makePlayer('?movie_id=1', {}, fakeLoader({ descriptor: new Error('descriptor piece 404') }).load);
  await quiet(() => p.start());
  assert.is(screenOf(p.store.error.value!), 'load-failed');
  assert.is(p.store.error.value?.data?.address, desc);
});

test('content without episodes shows "not found"', async () => {
  serve(filmRoutes({ '/catalog-api/episodes': [] }));
  const p = player('?movie_id=1');
  await quiet(() => p.start());
  assert.is(screenOf(p.store.error.value!), 'not-found');
  assert.is(p.store.error.value?.code, 'content-not-found');
});

test('garbage from the catalogue ends in the generic screen', async () => {
  serve(filmRoutes({ '/catalog-api/contents/1/seasons': () => new Response('\u0000garbage{', { status: 200 }) }));
  const p = player('?movie_id=1');
  await quiet(() => p.start());
  assert.is(screenOf(p.store.error.value!), 'generic');
  assert.is(p.store.error.value?.code, 'content-load-failed');
});

test('onDestroy: teardowns run at destroy, and at once when registered after it; telemetry stops listening', async () => {
  serve(filmRoutes());
  // createPlayer boots telemetry: after the first frame it asks the loader for its pieces.
  const tries = async (destroyFirst: boolean, globals: Record<string, unknown> = {}) => {
    const { load, asked } = fakeLoader();
    const p = makePlayer('?movie_id=1', globals, load);
    if (destroyFirst) p.destroy();
    const clock = fakeClock().install();
    const pieces = () => asked.filter((n) => n !== 'features' && n !== 'ads' && n !== 'requests');
    try {
      return await quietly(async () => {
        p.bus.emit('media:first-frame', { sinceStartMs: 1 });
        p.bus.emit('media:first-frame', { sinceStartMs: 2 });
        await flush();
        const atFirstFrame = pieces();
        clock.advance(FINGERPRINT_DELAY_MS - 1);
        await flush();
        assert.equal(pieces(), atFirstFrame, 'the fingerprint waits');
        clock.advance(1);
        await flush();
        return [atFirstFrame, pieces()];
      });
    } finally {
      clock.restore();
    }
  };
  assert.equal(
    (await tries(false)).result,
    [['analytics'], ['analytics', 'fingerprint']],
    'a live player loads analytics after the first frame and the fingerprint FINGERPRINT_DELAY_MS later, once',
  );
  assert.equal(
    (await tries(false, { sentry_dsn: 'https://k@ingest.example/1' })).result,
    [['analytics', 'sentry'], ['analytics', 'sentry', 'fingerprint']],
    'and Sentry with a DSN, at the first frame',
  );
  assert.equal((await tries(true)).result, [[], []], 'a destroyed one does not');
  const p = player('?movie_id=1');
  const ran: string[] = [];
  p.onDestroy(() => ran.push('before'));
  p.destroy();
  assert.equal(ran, ['before']);
  p.onDestroy(() => ran.push('after'));
  assert.equal(ran, ['before', 'after']);
});

test('telemetry: with an ad list analytics loads once the start settles (a pre-roll starting), before any frame, and only once', async () => {
  serve(filmRoutes());
  const { load, asked } = fakeLoader({ features: 'never' });
  const p = makePlayer('?movie_id=1&auto_play=1', { env_ad_list_url: 'https://ads.example/list.json' }, load);
  assert.equal(asked.filter((n) => n === 'ads' || n === 'analytics'), ['ads'], 'the ads piece at once, analytics not yet');
  await quiet(async () => {
    p.bus.emit('ad:play', { ad: { id: 'a' } } as never);
    await flush();
  });
  assert.equal(asked.filter((n) => n === 'analytics'), ['analytics'], 'at the pre-roll, before the first frame');
  await quiet(async () => {
    p.bus.emit('media:first-frame', { sinceStartMs: 1 });
    await flush();
  });
  assert.equal(asked.filter((n) => n === 'analytics'), ['analytics'], 'the first frame does not load it again');
  assert.not.ok(asked.includes('fingerprint'), 'the fingerprint still waits past the first frame (FINGERPRINT_DELAY_MS)');
  p.destroy();
  const { load: load2, asked: asked2 } = fakeLoader({ features: 'never' });
  const q = makePlayer('?movie_id=1', { env_ad_list_url: 'https://ads.example/list.json' }, load2);
  assert.ok(asked2.includes('analytics'), 'without autoplay the start is settled at once: analytics at once');
  q.destroy();
});

test('telemetry: Sentry loads at the first fatal error even before any frame, not for errors that are not fatal; past events are replayed', async () => {
  serve(filmRoutes({ '/catalog-api/episodes': 500 }));
  const started: Array<{ past: string[] }> = [];
  const sentry = { start: (_p: unknown, past: Array<{ event: string }>) => void started.push({ past: past.map((e) => e.event) }) };
  const { load, asked } = fakeLoader({ sentry, features: 'never' });
  const p = makePlayer('?movie_id=1', { sentry_dsn: 'https://k@ingest.example/1' }, load);
  p.bus.emit('player:error', { error: { category: 'media', code: 'media-recoverable', fatal: false, message: 'bufferStalledError', data: {} } });
  await flush();
  assert.not.ok(asked.includes('sentry'), 'a recoverable error does not load Sentry');
  await quiet(() => p.start());
  await flush();
  assert.ok(asked.includes('sentry'), 'the fatal catalogue error does');
  assert.is(started.length, 1);
  assert.ok(started[0].past.includes('player:error'), 'the error that happened before Sentry loaded is handed to it');
  p.destroy();
});

test('telemetry: past events go to the pieces that replay them, and are no longer kept once each has started', async () => {
  serve(filmRoutes());
  const handed = (pieces: Record<string, unknown>, globals: Record<string, unknown> = {}) => {
    const got: Array<{ piece: string; past: Array<{ event: string }>; events: string[] }> = [];
    const piece = (name: string) => ({ start: (_p: unknown, past: Array<{ event: string }>) => void got.push({ piece: name, past, events: past.map((e) => e.event) }) });
    const { load } = fakeLoader({ features: 'never', fingerprint: 'never', ...Object.fromEntries(Object.entries(pieces).map(([n, p]) => [n, p === 'never' ? p : piece(n)])) });
    return { got, p: makePlayer('?movie_id=1', globals, load) };
  };
  const recoverable = { error: { category: 'media', code: 'media-recoverable', fatal: false, message: 'x', data: {} } } as const;
  const a = handed({ analytics: 'start' });
  a.p.bus.emit('player:error', recoverable);
  a.p.bus.emit('media:first-frame', { sinceStartMs: 1 });
  await flush();
  assert.equal(a.got.map((g) => g.piece), ['analytics']);
  assert.ok(a.got[0].events.includes('player:error'), 'what happened before analytics loaded is handed to it');
  for (let i = 0; i < 5; i++) a.p.bus.emit('player:error', recoverable);
  assert.is(a.got[0].past.length, 0, 'and nothing is kept after: neither what it was handed nor what came since');
  a.p.destroy();
  const b = handed({ analytics: 'start', sentry: 'never' }, { sentry_dsn: 'https://k@ingest.example/1' });
  b.p.bus.emit('media:first-frame', { sinceStartMs: 1 });
  await flush();
  b.p.bus.emit('player:error', recoverable);
  assert.ok(b.got[0].past.some((e) => e.event === 'player:error'), 'with a DSN, kept while Sentry has not started');
  b.p.destroy();
});

test('a page going away cuts the catalogue calls: no error screen, nothing logged or reported', async () => {
  let cut!: () => void;
  serve(filmRoutes({ '/catalog-api/contents/1': () => new Promise<Response>((_, reject) => (cut = () => reject(new TypeError('Failed to fetch')))) }));
  const p = player('?movie_id=1');
  const reported: unknown[] = [];
  p.bus.on('player:error', (e) => reported.push(e));
  const logged: unknown[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const started = p.start();
    await new Promise((r) => setTimeout(r, 10));
    window.dispatchEvent(new Event('pagehide'));
    cut();
    await started;
  } finally {
    console.error = error;
    window.dispatchEvent(new Event('pageshow'));
  }
  assert.is(p.store.error.value, null);
  assert.equal(reported, []);
  assert.equal(logged.filter((l) => String((l as unknown[])[0]).includes('content')), []);
  p.destroy();
});

test("SPEC §8 'media not ready': a request before the UI attached the <video> is logged, not thrown; a volume that is not a number is ignored with a warning", async () => {
  serve(filmRoutes());
  const p = player('?movie_id=1');
  await flush(); // the lazy piece that answers these requests arrives
  const warned: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => warned.push(String(args[0]));
  try {
    p.requests.seek(5);
    p.requests.setPlaybackRate(2);
    p.requests.setVolume(Number('abc'));
  } finally {
    console.warn = warn;
  }
  assert.equal(warned, ['[player] media not ready', '[player] media not ready', '[player] volume is not a number']);
  p.destroy();
});

test.run();
