// Each source's first frame remembers what its engine asked for first (issue 26).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rememberStarts } from '../../../src/controller/remember-start';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import type { StartCache } from '../../../src/providers/playlist-prefetch';
import { recallStart } from '../../../src/storage/start-memory';
import { ep } from '../content/fixtures';
import { installDom } from '../dom';

const win = installDom();

const MASTER = 'https://cdn.example/m/master.m3u8';
const asked = { playlists: ['https://cdn.example/m/240p.m3u8'], segments: ['https://cdn.example/m/init.mp4', 'https://cdn.example/m/seg_0.m4s'] };
const cache = (first = asked) => Object.assign(new Map(), { firstAsked: () => first }) as unknown as StartCache;

function setup(source: { url: string; startAt: number; prefetched?: StartCache } | undefined, { movie }: { movie?: number } = { movie: 2 }) {
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  win.localStorage.clear();
  const store = createStore();
  const bus = createBus();
  store.episode.value = ep(203, 1, 3);
  store.activeVariantId.value = 7;
  store.sourceUrl.value = MASTER;
  const off = rememberStarts(store, bus, movie, () => source);
  const frame = () => bus.emit('media:first-frame', { sinceStartMs: 1 });
  return { store, frame, off };
}

test('at the first frame: the title, episode, variant, master, start and what the engine asked for', () => {
  const s = setup({ url: MASTER, startAt: 0, prefetched: cache() });
  assert.is(recallStart(2), undefined, 'nothing before the first frame');
  s.frame();
  assert.equal(recallStart(2), { movie: 2, episode: 203, variant: 7, master: MASTER, at: 0, ...asked });
  s.off();
});

test('nothing remembered without what to guess: no prefetch, the master never read, a descriptor, another source now, no movie id', () => {
  const cases: Array<[string, () => ReturnType<typeof setup>]> = [
    ['native playback (no prefetch)', () => setup({ url: MASTER, startAt: 0 })],
    ['the master not read', () => setup({ url: MASTER, startAt: 0, prefetched: Object.assign(new Map(), { firstAsked: () => undefined }) as unknown as StartCache })],
    ['no source', () => setup(undefined)],
    ['no movie id', () => setup({ url: MASTER, startAt: 0, prefetched: cache() }, {})],
    [
      'a descriptor',
      () => {
        const s = setup({ url: MASTER, startAt: 0, prefetched: cache() });
        s.store.descriptor.value = { sources: [{ label: 'Русский', link: MASTER, isDefault: true }], subtitles: [] };
        return s;
      },
    ],
    [
      'the store names another source',
      () => {
        const s = setup({ url: MASTER, startAt: 0, prefetched: cache() });
        s.store.sourceUrl.value = 'https://cdn.example/placeholder.mp4';
        return s;
      },
    ],
  ];
  for (const [what, make] of cases) {
    const s = make();
    s.frame();
    assert.is(recallStart(2), undefined, what);
    s.off();
  }
});

test('disposed: nothing more is remembered', () => {
  const s = setup({ url: MASTER, startAt: 0, prefetched: cache() });
  assert.is(recallStart(2), undefined);
  s.off();
  s.frame();
  assert.is(recallStart(2), undefined);
});

test.run();
