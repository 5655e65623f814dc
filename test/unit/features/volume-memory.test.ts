import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import type { PlayerParts } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import { attachVolumeMemory } from '../../../src/features/volume-memory';
import { MUTED_KEY, VOLUME_KEY } from '../../../src/core/memory-protocol';
import { readStored, freshMemory } from '../storage/memory-kit';
import { installDom } from '../dom';

const win = installDom();
// Other suites swap the global storage too: take this window's back before each test.
const fresh = () => {
  Object.defineProperty(globalThis, 'localStorage', { get: () => win.localStorage, configurable: true });
  win.localStorage.clear();
  freshMemory();
};

function setup() {
  const store = createStore();
  const bus = createBus();
  const parts = { store, bus } as unknown as PlayerParts;
  return { store, bus, parts };
}

test('volume and mute: each change saved, a change to the same values is not rewritten', () => {
  fresh();
  const s = setup();
  const off = attachVolumeMemory(s.parts);
  s.bus.emit('media:volume', { volume: 1, muted: false });
  assert.is(localStorage.getItem(VOLUME_KEY), '1');
  assert.is(localStorage.getItem(MUTED_KEY), null, 'default muted false is not written');
  s.bus.emit('media:volume', { volume: 0.4, muted: true });
  assert.equal([readStored(VOLUME_KEY), readStored(MUTED_KEY)], [0.4, true]);
  off();
});

test('the muted autoplay fallback is not remembered', () => {
  fresh();
  const s = setup();
  const off = attachVolumeMemory(s.parts);
  s.store.mutedAutoplay.value = true;
  s.bus.emit('media:volume', { volume: 1, muted: true });
  assert.is(readStored(MUTED_KEY), undefined);
  off();
});

test('after dispose nothing is written', () => {
  fresh();
  const s = setup();
  attachVolumeMemory(s.parts)();
  s.bus.emit('media:volume', { volume: 0.3, muted: true });
  assert.equal([readStored(VOLUME_KEY), readStored(MUTED_KEY)], [undefined, undefined]);
});

test.run();
