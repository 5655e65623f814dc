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

test.run();
