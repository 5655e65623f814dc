// Deadlines through the whole player (controller/content-session.ts): the descriptor's own budget,
// the catalogue's budget (env_request_timeout), and the catalogue's answers read by content/validate.ts.
// A stubbed fetch (fakes.ts serve), the fake clock for every wait, no real time beyond a few turns.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as descriptorPiece from '../../../src/content/descriptor';
import { DESCRIPTOR_TIMEOUT_MS } from '../../../src/controller/content-session';
import { screenOf } from '../../../src/core/errors';
import { ORIGIN, fakeClock, film, filmEpisode, filmRoutes, flush, quiet, seriesRoutes, stage } from '../fakes';

const DESC = `${ORIGIN}/media/film-4/descriptor.json`;
const DESCRIPTOR = {
  sources: [{ label: 'Русский', link: '/media/desc/rus.m3u8', isDefault: true }],
  subtitles: [],
};
const stall = () => new Promise<Response>(() => {});

/** Wraps the served fetch to keep each request's signal by URL. */
function recordSignals(): Map<string, AbortSignal | undefined> {
  const signals = new Map<string, AbortSignal | undefined>();
  const served = globalThis.fetch;
  globalThis.fetch = ((input: string | URL, init?: RequestInit) => {
    signals.set(String(input), init?.signal ?? undefined);
    return served(input, init);
  }) as typeof fetch;
  return signals;
}

/** start(), awaited: its task turn between the catalogue and the episode runs in flush (fake clock). */
async function started(player: { start(): Promise<void> }): Promise<void> {
  const done = player.start();
  await flush();
  await done;
}

let clock: ReturnType<typeof fakeClock>;
const warn = console.warn;
test.before.each(() => {
  clock = fakeClock().install();
  // 'ENV_AD_LIST_URL is not defined' at every player's creation: not what these tests are about.
  console.warn = () => {};
});
test.after.each(() => {
  clock.restore();
  console.warn = warn;
});

test('DESCRIPTOR_TIMEOUT_MS is 8 s', () => {
  assert.is(DESCRIPTOR_TIMEOUT_MS, 8000);
});

test("a descriptor that never answers: 'descriptor-load-failed' with its address after DESCRIPTOR_TIMEOUT_MS ('load-failed' screen)", async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: DESC }], '/media/film-4/descriptor.json': stall }),
    pieces: { descriptor: descriptorPiece },
  });
  const signals = recordSignals();
  const { store } = s.player;
  await quiet(async () => {
    void s.player.start();
    await flush();
    assert.is(store.episode.value?.id, 101, 'the catalogue is in, the episode chosen');
    assert.ok(signals.has(DESC), 'the descriptor is asked for');
    clock.advance(DESCRIPTOR_TIMEOUT_MS - 1);
    await flush();
    assert.is(store.error.value, null, 'still waiting just before the deadline');
    clock.advance(1);
    await flush();
  });
  const error = store.error.value!;
  assert.ok(error, 'an error screen');
  assert.is(error.code, 'descriptor-load-failed');
  assert.is(error.data?.address, DESC, "'Ошибка в загрузке: {address}' names the descriptor");
  assert.is(screenOf(error), 'load-failed');
  assert.ok(signals.get(DESC)?.aborted, 'the descriptor request is cancelled');
  assert.is((signals.get(DESC)!.reason as Error).name, 'TimeoutError');
  assert.is(store.sourceUrl.value, '', 'no source was set');
  assert.equal(s.v.calls.filter((c) => c.startsWith('src ')), [], 'the element got nothing');
  s.player.destroy();
});

test("a descriptor whose reader piece never arrives: 'descriptor-load-failed' at the same deadline", async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: DESC }], '/media/film-4/descriptor.json': DESCRIPTOR }),
    pieces: { descriptor: 'never' },
  });
  const { store } = s.player;
  await quiet(async () => {
    void s.player.start();
    await flush();
    clock.advance(DESCRIPTOR_TIMEOUT_MS - 1);
    await flush();
    assert.is(store.error.value, null, 'still waiting just before the deadline');
    clock.advance(1);
    await flush();
  });
  assert.is(store.error.value?.code, 'descriptor-load-failed');
  assert.is(store.error.value?.data?.address, DESC);
  s.player.destroy();
});

test('a descriptor answered in time: its source plays, no deadline left behind', async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: DESC }], '/media/film-4/descriptor.json': DESCRIPTOR }),
    pieces: { descriptor: descriptorPiece },
  });
  await started(s.player);
  await flush();
  const { store } = s.player;
  assert.is(store.sourceUrl.value, `${ORIGIN}/media/desc/rus.m3u8`);
  clock.advance(DESCRIPTOR_TIMEOUT_MS * 2);
  await flush();
  assert.is(store.error.value, null, 'no late descriptor error (nor a start timeout: the element has its metadata)');
  s.player.destroy();
});

test('an episode left while its descriptor stalls: its deadline raises nothing, the new episode plays', async () => {
  const stalledDesc = `${ORIGIN}/media/202/descriptor.json`;
  const [b, a, d] = [
    { id: 202, contentId: 2, title: 'B', order: 2, season: { id: 21, order: 1 }, m3u8MasterFilePath: stalledDesc },
    { id: 201, contentId: 2, title: 'A', order: 1, season: { id: 21, order: 1 }, isCompleted: true, m3u8MasterFilePath: '/m/201.m3u8' },
    { id: 204, contentId: 2, title: 'D', order: 1, season: { id: 22, order: 2 }, m3u8MasterFilePath: '/m/204.m3u8' },
  ];
  const s = stage('?movie_id=2', {
    routes: seriesRoutes({ '/catalog-api/episodes': [b, a, d], '/media/202/descriptor.json': stall }),
    pieces: { descriptor: descriptorPiece },
  });
  const { store, requests } = s.player;
  void s.player.start();
  await flush();
  assert.is(store.episode.value?.id, 202, 'the first episode not completed, behind its descriptor');
  assert.ok(requests.selectEpisode(store.episodes.value.find((e) => e.id === 201)!));
  await flush();
  assert.is(store.sourceUrl.value, `${ORIGIN}/m/201.m3u8`);
  clock.advance(DESCRIPTOR_TIMEOUT_MS);
  await flush();
  assert.is(store.error.value, null, "the left episode's timeout is history");
  assert.is(store.episode.value?.id, 201);
  assert.is(store.sourceUrl.value, `${ORIGIN}/m/201.m3u8`);
  s.player.destroy();
});

test('a player destroyed while its descriptor stalls raises nothing', async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({ '/catalog-api/episodes': [{ ...filmEpisode, m3u8MasterFilePath: DESC }], '/media/film-4/descriptor.json': stall }),
    pieces: { descriptor: descriptorPiece },
  });
  const errors: string[] = [];
  s.player.bus.on('player:error', ({ error }) => errors.push(error.code));
  const signals = recordSignals();
  void s.player.start();
  await flush();
  s.player.destroy();
  await flush();
  assert.ok(signals.get(DESC)?.aborted, 'destroy cancels the descriptor request');
  clock.advance(DESCRIPTOR_TIMEOUT_MS);
  await flush();
  assert.equal(errors, []);
  assert.is(s.player.store.error.value, null);
});

test("the catalogue's budget (env_request_timeout 5000): 'content-timeout' on the generic screen, not a moment early", async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({ '/catalog-api/contents/1': stall }),
    globals: { env_request_timeout: 5000 },
  });
  const signals = recordSignals();
  const { store } = s.player;
  let done = false;
  await quiet(async () => {
    void s.player.start().then(() => (done = true));
    await flush();
    assert.ok(store.loading.value);
    clock.advance(4999);
    await flush();
    assert.is(store.error.value, null);
    assert.not.ok(done);
    clock.advance(1);
    await flush();
  });
  assert.ok(done, 'start() is over');
  const error = store.error.value!;
  assert.is(error.code, 'content-timeout');
  assert.is(screenOf(error), 'generic');
  assert.not.ok(store.loading.value, 'the spinner stops');
  const content = signals.get(`${ORIGIN}/catalog-api/contents/1`);
  assert.ok(content?.aborted, 'the stalled call is cancelled');
  assert.is((content!.reason as Error).name, 'TimeoutError');
  s.player.destroy();
});

test('a catalogue answered within its budget clears it: no late timeout', async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes(), globals: { env_request_timeout: 5000 } });
  await started(s.player);
  await flush();
  assert.is(s.player.store.episode.value?.id, 101);
  clock.advance(10000);
  await flush();
  assert.is(s.player.store.error.value, null, 'no late timeout');
  s.player.destroy();
});

test('catalogue answers of the wrong type: countries "ru" and available "false" load, and the content is not available', async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({
      '/catalog-api/contents/1': { ...film, countries: 'ru', languages: 'ru', year: '2024' },
      '/catalog-api/contents/1/available': { available: 'false' },
    }),
  });
  await started(s.player);
  await flush();
  const { store } = s.player;
  assert.is(store.error.value, null);
  assert.is(store.content.value?.title, 'Фильм');
  assert.equal(store.content.value?.countries, [], 'a string is not a list of countries');
  assert.equal(store.content.value?.languages, []);
  assert.is(store.content.value?.year, null);
  assert.is(store.isAvailable.value, false, "'false' is false");
  assert.is(store.episode.value?.id, 101);
  assert.is(store.sourceUrl.value, `${ORIGIN}/player/placeholder.mp4`, 'the placeholder plays');
  s.player.destroy();
});

test("available \"true\" reads as available; an availability answer without the field still means available", async () => {
  for (const [answer, expected] of [
    [{ available: 'true' }, true],
    [{}, true],
    [{ available: 1 }, true],
    [{ available: 0 }, false],
  ] as const) {
    const s = stage('?movie_id=1', { routes: filmRoutes({ '/catalog-api/contents/1/available': answer }) });
    await started(s.player);
    await flush();
    assert.is(s.player.store.isAvailable.value, expected, JSON.stringify(answer));
    assert.is(s.player.store.error.value, null);
    s.player.destroy();
  }
});

test("an episodes answer \"ru\": nothing to play is 'content-not-found'", async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes({ '/catalog-api/episodes': 'ru' }) });
  await quiet(() => started(s.player));
  const error = s.player.store.error.value!;
  assert.is(error.code, 'content-not-found');
  assert.is(screenOf(error), 'not-found');
  assert.equal(s.player.store.episodes.value, []);
  s.player.destroy();
});

test("episodes without an id, order or address are not playable: only bad ones is 'content-not-found'", async () => {
  const s = stage('?movie_id=1', {
    routes: filmRoutes({
      '/catalog-api/episodes': [
        { ...filmEpisode, id: '101' },
        { ...filmEpisode, order: null },
        { ...filmEpisode, m3u8MasterFilePath: '  ' },
      ],
    }),
  });
  await quiet(() => started(s.player));
  assert.is(s.player.store.error.value?.code, 'content-not-found');
  s.player.destroy();
});

test("a content answer [] is 'content-load-failed' on the generic screen", async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes({ '/catalog-api/contents/1': [] }) });
  await quiet(() => started(s.player));
  const error = s.player.store.error.value!;
  assert.is(error.code, 'content-load-failed');
  assert.is(screenOf(error), 'generic');
  assert.is(s.player.store.content.value, null);
  s.player.destroy();
});

test.run();
