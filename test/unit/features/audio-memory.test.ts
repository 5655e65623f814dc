import { batch } from '@preact/signals';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import type { PlayerParts } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import { attachAudioMemory } from '../../../src/features/audio-memory';
import { AUDIO_KEY } from '../../../src/core/memory-protocol';
import { readStored, writeStored, freshMemory } from '../storage/memory-kit';
import { installDom } from '../dom';

const win = installDom();
// Other suites swap the global storage too: take this window's back before each test.
const fresh = () => {
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  win.localStorage.clear();
  freshMemory();
};
/** As the provider writes them: the list and the active track together. */
const arrive = (store: ReturnType<typeof createStore>, active: number) =>
  batch(() => {
    store.audioTracks.value = tracks;
    store.audioTrack.value = active;
  });

const tracks = [
  { id: 0, label: 'Русский', language: 'ru', isDefault: true },
  { id: 1, label: 'English', language: 'en' },
];

function setup(query: { voiceAuthor?: string } = {}, langOrder: string[] = []) {
  const store = createStore();
  const bus = createBus();
  store.content.value = { id: 7, title: 'X' };
  const asked: number[] = [];
  const requests = { setAudioTrack: (id: number) => asked.push(id) };
  const parts = { store, bus, requests, config: { movieId: 7, langOrder, query } } as unknown as PlayerParts;
  return { store, bus, asked, parts };
}

test('streaming audio: the choice is asked for when tracks arrive; only a later switch is saved', () => {
  fresh();
  const s = setup({}, ['en']);
  const off = attachAudioMemory(s.parts);
  arrive(s.store, -1);
  s.store.audioTrack.value = 0;
  assert.equal(s.asked, [1], 'lang_order=en asks for English');
  assert.is(readStored(AUDIO_KEY), undefined, "the engine's own default before our choice is not the viewer's");
  s.store.audioTrack.value = 1;
  assert.is(readStored(AUDIO_KEY), undefined, 'confirming our own choice saves nothing');
  s.store.audioTrack.value = 0;
  assert.equal(readStored(AUDIO_KEY), { 7: 'Русский' }, "the viewer's switch is saved by content id");
  off();
});

test('streaming audio: a saved label wins over voice_author and lang_order', () => {
  fresh();
  writeStored(AUDIO_KEY, { 7: 'Русский', 8: 'English' });
  const s = setup({ voiceAuthor: 'English' }, ['en']);
  const off = attachAudioMemory(s.parts);
  arrive(s.store, 0);
  assert.equal(s.asked, [], 'already on the saved track');
  s.store.audioTrack.value = 1;
  assert.equal(readStored(AUDIO_KEY), { 7: 'English', 8: 'English' }, 'then a switch is saved');
  off();
});

test('descriptor audio: switching to another source saves its label, the initial one does not', () => {
  fresh();
  const s = setup();
  const off = attachAudioMemory(s.parts);
  s.store.descriptor.value = {
    sources: [
      { label: 'Русский', link: 'https://h/rus.m3u8', isDefault: true },
      { label: 'English', link: 'https://h/eng.m3u8', isDefault: false },
    ],
    subtitles: [],
  };
  s.store.sourceUrl.value = 'https://h/rus.m3u8';
  assert.is(readStored(AUDIO_KEY), undefined);
  s.store.sourceUrl.value = '';
  s.store.sourceUrl.value = 'https://h/eng.m3u8';
  assert.equal(readStored(AUDIO_KEY), { 7: 'English' });
  off();
});

test.run();
