import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SUBTITLES_KEY } from '../../../src/core/memory-protocol';
import type { PlayerParts } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import { attachSubtitleStyleMemory } from '../../../src/features/subtitle-style-memory';
import { installDom } from '../dom';
import { freshMemory, readStored, writeStored } from '../storage/memory-kit';

const win = installDom();
// Other suites swap the global storage too: take this window's back before each test.
const fresh = () => {
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  win.localStorage.clear();
  freshMemory();
};

const setup = () => {
  const store = createStore();
  return { store, parts: { store } as unknown as PlayerParts };
};

test('nothing remembered: the default shows (unset) and nothing is written until the viewer chooses', () => {
  fresh();
  const { store, parts } = setup();
  const off = attachSubtitleStyleMemory(parts);
  assert.is(store.subtitleStyle.value, undefined);
  assert.is(readStored(SUBTITLES_KEY), undefined);
  store.subtitleStyle.value = { size: 'large', color: 'yellow', background: 'solid' };
  assert.equal(readStored(SUBTITLES_KEY), { size: 'large', color: 'yellow', background: 'solid' });
  store.subtitleStyle.value = { size: 'small', color: 'yellow', background: 'solid' };
  assert.equal(readStored(SUBTITLES_KEY), { size: 'small', color: 'yellow', background: 'solid' });
  off();
  store.subtitleStyle.value = { size: 'medium', color: 'white', background: 'none' };
  assert.equal(readStored(SUBTITLES_KEY), { size: 'small', color: 'yellow', background: 'solid' }, 'after dispose nothing is written');
});

test('a remembered style shows; what was only read is not written back, even when it held junk', () => {
  fresh();
  writeStored(SUBTITLES_KEY, { size: 'large', color: 'purple', background: 'none', extra: 1 });
  const { store, parts } = setup();
  const off = attachSubtitleStyleMemory(parts);
  assert.equal(store.subtitleStyle.value, { size: 'large', color: 'white', background: 'none' }, 'the bad colour reads as the default');
  assert.equal(readStored(SUBTITLES_KEY), { size: 'large', color: 'purple', background: 'none', extra: 1 }, 'untouched');
  store.subtitleStyle.value = { ...store.subtitleStyle.value!, color: 'yellow' };
  assert.equal(readStored(SUBTITLES_KEY), { size: 'large', color: 'yellow', background: 'none' });
  off();
});

test('junk remembered (not an object, not JSON): the default, no throw', () => {
  for (const raw of ['"large"', '42', 'null', '[1]', '{bad']) {
    fresh();
    localStorage.setItem(SUBTITLES_KEY, raw);
    freshMemory();
    const { store, parts } = setup();
    const off = attachSubtitleStyleMemory(parts);
    const style = store.subtitleStyle.value;
    assert.ok(style === undefined || JSON.stringify(style) === '{"size":"medium","color":"white","background":"shaded"}', raw);
    assert.is(localStorage.getItem(SUBTITLES_KEY), raw, 'not rewritten');
    off();
  }
});

test('the viewer chose before the memory piece arrived: the choice stays and is saved', () => {
  fresh();
  writeStored(SUBTITLES_KEY, { size: 'small', color: 'white', background: 'shaded' });
  const { store, parts } = setup();
  store.subtitleStyle.value = { size: 'large', color: 'white', background: 'shaded' };
  const off = attachSubtitleStyleMemory(parts);
  assert.equal(store.subtitleStyle.value, { size: 'large', color: 'white', background: 'shaded' });
  assert.equal(readStored(SUBTITLES_KEY), { size: 'large', color: 'white', background: 'shaded' });
  off();
});

test.run();
