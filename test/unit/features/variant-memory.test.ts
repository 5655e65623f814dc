import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import { attachVariantMemory } from '../../../src/features/variant-memory';
import { VARIANTS_KEY } from '../../../src/core/memory-protocol';
import { readStored, writeStored, freshMemory } from '../storage/memory-kit';
import { ep } from '../content/fixtures';
import { installDom } from '../dom';

const win = installDom();
const fresh = () => {
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  win.localStorage.clear();
  freshMemory();
};

test('SPEC §3 episodeVariants: each variant switch is saved by content id, other contents kept', () => {
  fresh();
  writeStored(VARIANTS_KEY, { 9: 901 });
  const bus = createBus();
  const off = attachVariantMemory({ bus });
  const e = ep(203, 1, 3);
  bus.emit('content:variant-changed', { episode: e, variant: { id: 2031, title: 'A', filepath: '/a.m3u8' } });
  assert.equal(readStored(VARIANTS_KEY), { 9: 901, 2: 2031 });
  bus.emit('content:variant-changed', { episode: e, variant: { id: 2032, title: 'B', filepath: '/b.m3u8' } });
  assert.equal(readStored(VARIANTS_KEY), { 9: 901, 2: 2032 }, 'the last choice wins');
  off();
  bus.emit('content:variant-changed', { episode: e, variant: { id: 2031, title: 'A', filepath: '/a.m3u8' } });
  assert.equal(readStored(VARIANTS_KEY), { 9: 901, 2: 2032 }, 'nothing after dispose');
});

test('junk under the key is replaced, not thrown on', () => {
  fresh();
  localStorage.setItem(VARIANTS_KEY, '[1,2');
  const bus = createBus();
  const off = attachVariantMemory({ bus });
  bus.emit('content:variant-changed', { episode: ep(203, 1, 3), variant: { id: 7, title: 'A', filepath: '/a.m3u8' } });
  assert.equal(readStored(VARIANTS_KEY), { 2: 7 });
  off();
});

test.run();
