import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import type { PlayerApi } from '../../../src/core/player-api';
import { bindMediaSession } from '../../../src/ui/media-session';

class FakeMetadata {
  constructor(public init: { title: string; artist?: string }) {}
}

function fakeSession() {
  const handlers = new Map<string, unknown>();
  const session = {
    metadata: null as unknown,
    playbackState: 'none',
    setActionHandler: (action: string, fn: unknown) => (fn ? handlers.set(action, fn) : handlers.delete(action)),
    setPositionState: () => {},
  };
  return { handlers, nav: { mediaSession: session } as unknown as Navigator };
}

test('seek actions come back after an ad turned them off; metadata names the episode', () => {
  (globalThis as Record<string, unknown>).MediaMetadata = FakeMetadata;
  const store = createStore();
  const calls: string[] = [];
  const requests = { play: () => calls.push('play'), pause: () => calls.push('pause'), seekBy: (d: number) => calls.push(`by ${d}`), seek: (t: number) => calls.push(`to ${t}`) };
  const player = { store, bus: createBus(), requests } as unknown as PlayerApi;
  const { handlers, nav } = fakeSession();
  const off = bindMediaSession(player, nav);
  assert.equal([...handlers.keys()].sort(), ['pause', 'play', 'seekbackward', 'seekforward', 'seekto']);

  store.adState.value = 'ready';
  for (const a of ['seekbackward', 'seekforward', 'seekto']) nav.mediaSession.setActionHandler(a as MediaSessionAction, null);
  store.adState.value = 'stopped';
  assert.ok(handlers.has('seekforward') && handlers.has('seekto'), 'seek handlers registered again');
  (handlers.get('seekforward') as (d: object) => void)({});
  assert.equal(calls, ['by 10']);

  store.content.value = { id: 2, title: 'Сериал', hasMultipleEpisodes: true };
  store.episode.value = { id: 202, contentId: 2, title: 'Вторая серия', order: 2, season: { id: 21, order: 1 }, m3u8MasterFilePath: '/x.m3u8' };
  const meta = nav.mediaSession.metadata as unknown as FakeMetadata;
  assert.equal(meta.init.title, 'Вторая серия');
  assert.equal(meta.init.artist, '1 сезон, 2 серия');
  off();
  assert.is(handlers.size, 0);
});

test("loaded while an ad plays (autoplay waits for the first frame, a pre-roll's too): the ad keeps its title; the content's comes after it", () => {
  (globalThis as Record<string, unknown>).MediaMetadata = FakeMetadata;
  const store = createStore();
  const player = { store, bus: createBus(), requests: {} } as unknown as PlayerApi;
  const { nav } = fakeSession();
  const ad = new FakeMetadata({ title: 'Объявление' });
  nav.mediaSession.metadata = ad as unknown as MediaMetadata;
  store.content.value = { id: 1, title: 'Тестовый фильм', hasMultipleEpisodes: false };
  store.adState.value = 'ready';
  const off = bindMediaSession(player, nav);
  assert.is(nav.mediaSession.metadata as unknown, ad, 'the ad title stays while it plays');
  store.adState.value = 'stopped';
  assert.is((nav.mediaSession.metadata as unknown as FakeMetadata).init.title, 'Тестовый фильм');
  off();
});

test('the same metadata is not set again (each set fetches the artwork again); after an ad’s, it is', () => {
  (globalThis as Record<string, unknown>).MediaMetadata = FakeMetadata;
  const store = createStore();
  const player = { store, bus: createBus(), requests: {} } as unknown as PlayerApi;
  const { nav } = fakeSession();
  const off = bindMediaSession(player, nav);
  store.content.value = { id: 1, title: 'Тестовый фильм', hasMultipleEpisodes: false };
  const first = nav.mediaSession.metadata;
  assert.ok(first);
  store.adState.value = 'stopped';
  store.content.value = { id: 1, title: 'Тестовый фильм', hasMultipleEpisodes: false };
  assert.is(nav.mediaSession.metadata, first, 'unchanged: the same object');
  const ad = new FakeMetadata({ title: 'Объявление' });
  nav.mediaSession.metadata = ad as unknown as MediaMetadata;
  store.adState.value = 'ready';
  store.adState.value = 'stopped';
  assert.is.not(nav.mediaSession.metadata as unknown, ad);
  assert.is((nav.mediaSession.metadata as unknown as FakeMetadata).init.title, 'Тестовый фильм', 'the content’s again after the ad’s');
  store.content.value = { id: 1, title: 'Другой фильм', hasMultipleEpisodes: false };
  assert.is((nav.mediaSession.metadata as unknown as FakeMetadata).init.title, 'Другой фильм', 'changed: set again');
  off();
});

test('the artwork waits for 10 s buffered ahead (or the film buffered to its end), then stays; a new poster waits again', () => {
  (globalThis as Record<string, unknown>).MediaMetadata = FakeMetadata;
  // The artwork's address is resolved against the page's.
  Object.defineProperty(globalThis, 'location', { value: new URL('https://player.example/player/'), configurable: true });
  try {
    artworkJourney();
  } finally {
    delete (globalThis as Record<string, unknown>).location;
  }
});

function artworkJourney() {
  const store = createStore();
  const player = { store, bus: createBus(), requests: {} } as unknown as PlayerApi;
  const { nav } = fakeSession();
  const off = bindMediaSession(player, nav);
  const artwork = () => ((nav.mediaSession.metadata as unknown as { init: MediaMetadataInit }).init.artwork ?? []).map((a) => a.src);
  store.content.value = { id: 1, title: 'Тестовый фильм', hasMultipleEpisodes: false, posterUrl: '/media/posters/film-1.jpg' };
  store.duration.value = 5400;
  store.currentTime.value = 0;
  store.bufferedEnd.value = 4;
  assert.is((nav.mediaSession.metadata as unknown as FakeMetadata).init.title, 'Тестовый фильм', 'the title at once');
  assert.equal(artwork(), [], 'no artwork on 4 s ahead: nothing fetched beside the start');
  store.currentTime.value = 2;
  store.bufferedEnd.value = 11.9;
  assert.equal(artwork(), [], '9.9 s ahead');
  store.bufferedEnd.value = 12;
  assert.equal(artwork(), ['https://player.example/media/posters/film-1.jpg'], '10 s ahead');
  const set = nav.mediaSession.metadata;
  store.currentTime.value = 11;
  store.bufferedEnd.value = 12;
  assert.is(nav.mediaSession.metadata, set, 'a buffer run low keeps it: not set (and fetched) again');

  // Another title (the media state reset first, as a new source does).
  store.bufferedEnd.value = 0;
  store.currentTime.value = 0;
  store.duration.value = 6;
  store.content.value = { id: 3, title: 'Короткий', hasMultipleEpisodes: false, posterUrl: '/media/posters/film-3.jpg' };
  assert.equal(artwork(), [], 'another poster waits again');
  store.bufferedEnd.value = 5.6;
  assert.equal(artwork(), ['https://player.example/media/posters/film-3.jpg'], 'buffered to its end');
  off();
}

test.run();
