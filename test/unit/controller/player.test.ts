import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installDom } from '../dom';
import { readEmbedConfig } from '../../../src/config/embed-config';
import { createPlayer } from '../../../src/controller/player';

installDom();

const ORIGIN = 'https://player.example';
const film = { id: 1, title: 'Фильм', hasMultipleEpisodes: false };
const filmEpisode = { id: 101, contentId: 1, title: 'Фильм', order: 1, season: null, m3u8MasterFilePath: '/media/hls/master.m3u8' };
const series = { id: 2, title: 'Сериал', hasMultipleEpisodes: true };
const seriesEpisodes = [
  { id: 202, contentId: 2, title: 'B', order: 2, season: { id: 21, order: 1 }, m3u8MasterFilePath: '/m/202.m3u8' },
  { id: 201, contentId: 2, title: 'A', order: 1, season: { id: 21, order: 1 }, isCompleted: true, m3u8MasterFilePath: '/m/201.m3u8' },
  { id: 204, contentId: 2, title: 'D', order: 1, season: { id: 22, order: 2 }, m3u8MasterFilePath: '/m/204.m3u8' },
];

type Route = unknown | ((url: string) => Response | Promise<Response>);

/** A fetch that answers from a table: JSON bodies, a status number, or a function. */
function serve(routes: Record<string, Route>) {
  const seen: string[] = [];
  globalThis.fetch = (async (input: string | URL, init?: RequestInit) => {
    const url = String(input);
    seen.push(url);
    const aborted = new Promise<never>((_, reject) =>
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
    aborted.catch(() => {});
    const path = url.replace(ORIGIN, '');
    const key = Object.keys(routes).find((k) => path === k || path.startsWith(k + '?'));
    if (!key) return new Response('{"error":"not found"}', { status: 404 });
    const r = routes[key];
    if (typeof r === 'function') return Promise.race([(r as (u: string) => Response)(url), aborted]);
    if (typeof r === 'number') return new Response('{}', { status: r });
    return new Response(JSON.stringify(r), { status: 200 });
  }) as typeof fetch;
  return seen;
}

const filmRoutes = (extra: Record<string, Route> = {}) => ({
  '/catalog-api/contents/1': film,
  '/catalog-api/contents/1/seasons': [],
  '/catalog-api/episodes': [filmEpisode],
  '/catalog-api/contents/1/available': { available: true },
  ...extra,
});

function player(search: string, globals: Record<string, unknown> = {}) {
  const config = readEmbedConfig({ datasets: [], globals, search, scriptUrl: `${ORIGIN}/player/main.js` });
  return createPlayer(config, { domain: 'https://partner.example/page', pageUrl: `${ORIGIN}/player/${search}` });
}

const quiet = async (fn: () => Promise<void>) => {
  const e = console.error;
  console.error = () => {};
  try {
    await fn();
  } finally {
    console.error = e;
  }
};

test('no movie id: the missing-movie-id screen, no request made', async () => {
  const seen = serve({});
  const p = player('');
  await p.start();
  assert.is(p.store.error.value?.screen, 'missing-movie-id');
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
  assert.is(a.store.error.value?.screen, 'not-found');
  serve(filmRoutes({ '/catalog-api/episodes': 500 }));
  const b = player('?movie_id=1');
  await quiet(() => b.start());
  assert.is(b.store.error.value?.screen, 'generic');
  assert.match(b.store.error.value!.eventId, /^[0-9a-f]{32}$/);
});

test('a stalled catalogue times out into the generic screen; retry recovers', async () => {
  let stall = true;
  serve(filmRoutes({ '/catalog-api/contents/1': () => (stall ? new Promise<Response>(() => {}) : new Response(JSON.stringify(film))) }));
  const p = player('?movie_id=1', { env_request_timeout: 30 });
  await quiet(() => p.start());
  assert.is(p.store.error.value?.screen, 'generic');
  stall = false;
  p.requests.retry();
  await new Promise((r) => setTimeout(r, 20));
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
  const p = player('?movie_id=1');
  await p.start();
  assert.is(p.store.sourceUrl.value, `${ORIGIN}/media/desc/rus.m3u8`);
  serve(filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: desc }] }));
  const q = player('?movie_id=1');
  await quiet(() => q.start());
  assert.is(q.store.error.value?.screen, 'load-failed');
  assert.is(q.store.error.value?.address, desc);
});

test('content without episodes shows "not found"', async () => {
  serve(filmRoutes({ '/catalog-api/episodes': [] }));
  const p = player('?movie_id=1');
  await quiet(() => p.start());
  assert.is(p.store.error.value?.screen, 'not-found');
});

test('garbage from the catalogue ends in the generic screen', async () => {
  serve(filmRoutes({ '/catalog-api/contents/1/seasons': () => new Response('\u0000garbage{', { status: 200 }) }));
  const p = player('?movie_id=1');
  await quiet(() => p.start());
  assert.is(p.store.error.value?.screen, 'generic');
});

test('onDestroy: teardowns run at destroy, and at once when registered after it; telemetry stops listening', async () => {
  serve(filmRoutes());
  const { bootTelemetry } = await import('../../../src/telemetry/boot');
  // Loading a lazy piece fails here (no build) and warns: the warning shows telemetry tried to load one.
  const tries = async (destroyFirst: boolean) => {
    const p = player('?movie_id=1');
    bootTelemetry(p);
    if (destroyFirst) p.destroy();
    const warn = console.warn;
    let warned = 0;
    console.warn = () => warned++;
    try {
      p.bus.emit('media:first-frame', { sinceStartMs: 1 });
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      console.warn = warn;
    }
    return warned;
  };
  await quiet(async () => {
    assert.ok((await tries(false)) > 0, 'a live player loads analytics after the first frame');
    assert.is(await tries(true), 0, 'a destroyed one does not');
  });
  const p = player('?movie_id=1');
  const ran: string[] = [];
  p.onDestroy(() => ran.push('before'));
  p.destroy();
  assert.equal(ran, ['before']);
  p.onDestroy(() => ran.push('after'));
  assert.equal(ran, ['before', 'after']);
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

test("SPEC §8 'media not ready': a request before the UI attached the <video> is logged, not thrown; a volume that is not a number is ignored with a warning", () => {
  serve(filmRoutes());
  const p = player('?movie_id=1');
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

test('seek requests are throttled to one per 100 ms; relative seeks add up from the pending target', async () => {
  serve(filmRoutes());
  const p = player('?movie_id=1');
  const video = document.createElement('video');
  const seeks: number[] = [];
  Object.defineProperty(video, 'currentTime', { get: () => seeks[seeks.length - 1] ?? 0, set: (t: number) => seeks.push(t) });
  Object.defineProperty(video, 'duration', { get: () => 600 });
  await quiet(async () => p.attach(video, document.createElement('div')));
  p.requests.seek(10);
  p.requests.seek(20);
  p.requests.seek(30);
  assert.equal(seeks, [10], 'the first at once, the rest wait');
  p.requests.seekBy(10);
  p.requests.seekBy(10);
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(seeks, [10, 50], 'one more, at the last target plus both steps');
  p.requests.seek(Number.NaN);
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(seeks, [10, 50], 'not a number: nothing');
  p.destroy();
});

test.run();
