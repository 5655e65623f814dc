// Each source's first frame remembers what its engine asked for first (issue 26).
import { freshMemory } from '../storage/memory-kit';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readEmbedConfig } from '../../../src/config/embed-config';
import { createStore } from '../../../src/core/store';
import { attachStartMemory } from '../../../src/features/start-memory';
import { recallStart } from '../../../src/storage/start-memory';
import { ep } from '../content/fixtures';
import { installDom } from '../dom';

const win = installDom();

const MASTER = 'https://cdn.example/m/master.m3u8';
const asked = { playlists: ['https://cdn.example/m/240p.m3u8'], segments: ['https://cdn.example/m/init.mp4', 'https://cdn.example/m/seg_0.m4s'] };
const config = (search: string) => readEmbedConfig({ datasets: [], globals: {}, search, scriptUrl: 'https://player.example/p/main.js' });

function setup(search = '?movie_id=2') {
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  win.localStorage.clear();
  freshMemory();
  const store = createStore();
  store.episode.value = ep(203, 1, 3);
  store.activeVariantId.value = 7;
  store.sourceUrl.value = MASTER;
  const off = attachStartMemory({ store, config: config(search) });
  const frame = (url = MASTER, startAt = 0) => (store.firstAsked.value = { url, startAt, ...asked });
  return { store, frame, off };
}

test('at the first frame: the title, episode, variant, master, start and what the engine asked for', () => {
  const s = setup();
  assert.is(recallStart(2), undefined, 'nothing before the first frame');
  s.frame();
  assert.equal(recallStart(2), { movie: 2, episode: 203, variant: 7, master: MASTER, at: 0, ...asked });
  s.store.episode.value = ep(204, 1, 4);
  s.frame(MASTER, 30);
  assert.equal(recallStart(2), { movie: 2, episode: 204, variant: 7, master: MASTER, at: 30, ...asked }, "the next source's first frame replaces it");
  s.off();
});

test('nothing remembered for a descriptor, a source since replaced, no movie id', () => {
  const descriptor = setup();
  descriptor.store.descriptor.value = { sources: [{ label: 'Русский', link: MASTER, isDefault: true }], subtitles: [] };
  descriptor.frame();
  assert.is(recallStart(2), undefined, 'a descriptor');
  descriptor.off();
  const replaced = setup();
  replaced.store.sourceUrl.value = 'https://cdn.example/other.m3u8';
  replaced.frame();
  assert.is(recallStart(2), undefined, 'another source now');
  replaced.off();
  const noMovie = setup('');
  noMovie.frame();
  assert.equal(JSON.parse(win.localStorage.getItem('player-starts') ?? '[]'), [], 'no movie id');
  noMovie.off();
});

test('disposed: nothing more is remembered', () => {
  const s = setup();
  s.off();
  s.frame();
  assert.is(recallStart(2), undefined);
});

test.run();
