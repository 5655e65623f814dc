import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PlayerParts } from '../../../src/core/player-api';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import { PROGRESS_KEY } from '../../../src/core/memory-protocol';
import { recallMap } from '../../../src/storage/memory';
import { rememberProgress } from '../../../src/storage/remember';
import { readStored, writeStored, freshMemory } from '../storage/memory-kit';
import { SAVE_INTERVAL_MS, attachProgressMemory } from '../../../src/features/progress-memory';
import { ep } from '../content/fixtures';
import { installDom } from '../dom';

const win = installDom();
const g = globalThis as Record<string, unknown>;
const useStorage = (storage: unknown) =>
  Object.defineProperty(g, 'localStorage', { get: () => storage, configurable: true });
const throwingStorage = () =>
  Object.defineProperty(g, 'localStorage', {
    get: () => {
      throw new DOMException('The document is sandboxed', 'SecurityError');
    },
    configurable: true,
  });

function setup(variant: number | null = null) {
  useStorage(win.localStorage);
  win.localStorage.clear();
  freshMemory();
  const store = createStore();
  const bus = createBus();
  const episode = ep(variant ? 203 : 202, 1, variant ? 3 : 2, { duration: 60 });
  store.episode.value = episode;
  store.activeVariantId.value = variant;
  store.sourceUrl.value = 'https://h/master.m3u8';
  store.duration.value = 60;
  store.started.value = true;
  let now = 0;
  const saves: Array<[number, number]> = [];
  const stop = attachProgressMemory({ store, bus } as unknown as PlayerParts, (t, d) => saves.push([t, d]), win as unknown as Window, () => now);
  return { store, bus, saves, stop, at: (ms: number, time: number) => ((now = ms), (store.currentTime.value = time)) };
}

test('saved at most once every 10 s, each save reported (timeProgressChanged)', () => {
  const s = setup();
  s.at(0, 0.5);
  assert.is(readStored(PROGRESS_KEY), undefined, 'nothing before the first second');
  s.at(100, 1.2);
  assert.equal(readStored(PROGRESS_KEY), { 202: 1 });
  s.at(5_000, 6);
  s.at(10_099, 11);
  assert.equal(readStored(PROGRESS_KEY), { 202: 1 }, 'throttled');
  s.at(10_100, 11.3);
  assert.equal(readStored(PROGRESS_KEY), { 202: 11 });
  assert.equal(s.saves, [
    [1.2, 60],
    [11.3, 60],
  ]);
  s.stop();
});

test('the 10 s gate (SPEC §9) opens on the first tick, then only SAVE_INTERVAL_MS after the last opening', () => {
  assert.is(SAVE_INTERVAL_MS, 10_000);
  const s = setup();
  const saved = () => s.saves.map(([t]) => t);
  s.at(1_000, 2);
  assert.equal(saved(), [2], 'first tick opens');
  s.at(5_000, 3);
  s.at(10_999, 4);
  assert.equal(saved(), [2], 'closed until 10 s after the last opening');
  s.at(11_000, 5);
  assert.equal(saved(), [2, 5], '10 s after the last opening');
  s.at(11_001, 6);
  assert.equal(saved(), [2, 5]);
  s.stop();
});

test('pagehide and a hidden page save the last position at once', () => {
  const s = setup();
  s.at(0, 2);
  s.at(3_000, 5.7);
  win.dispatchEvent(new win.Event('pagehide'));
  assert.equal(readStored(PROGRESS_KEY), { 202: 5 });
  s.at(4_000, 7.1);
  Object.defineProperty(win.document, 'visibilityState', { value: 'hidden', configurable: true });
  win.document.dispatchEvent(new win.Event('visibilitychange'));
  assert.equal(readStored(PROGRESS_KEY), { 202: 7 });
  Object.defineProperty(win.document, 'visibilityState', { value: 'visible', configurable: true });
  assert.is(s.saves.length, 3);
  s.stop();
});

test('episodes with variants are kept per variant; an ended episode is forgotten', () => {
  writeStored(PROGRESS_KEY, { 202: 40 });
  const s = setup(2031);
  writeStored(PROGRESS_KEY, { 202: 40, 203: { 2032: 9 } });
  s.at(0, 30);
  assert.equal(readStored(PROGRESS_KEY), { 202: 40, 203: { 2032: 9, 2031: 30 } });
  s.at(1_000, 59.9);
  s.store.ended.value = true;
  s.bus.emit('media:ended', { currentTime: 60 });
  s.bus.emit('content:episode-changed', { episode: ep(204, 2, 1) });
  assert.equal(readStored(PROGRESS_KEY), { 202: 40, 203: { 2032: 9 } });
  s.stop();
});

test('moving to another episode saves the one left, and the old video cannot book time to the new one', () => {
  const s = setup();
  s.at(0, 3);
  s.at(2_000, 8.5);
  const next = ep(204, 2, 1);
  s.store.episode.value = next;
  s.store.sourceUrl.value = '';
  s.bus.emit('content:episode-changed', { episode: next });
  assert.equal(readStored(PROGRESS_KEY), { 202: 8 });
  s.at(20_000, 9);
  assert.equal(readStored(PROGRESS_KEY), { 202: 8 }, 'no source yet: nothing booked to 204');
  s.stop();
});

test('nothing is booked while the content is not available (the placeholder), before the start, or without a source', () => {
  const s = setup();
  s.store.isAvailable.value = false;
  s.at(0, 5);
  s.store.isAvailable.value = true;
  s.store.started.value = false;
  s.at(20_000, 6);
  s.store.started.value = true;
  s.store.sourceUrl.value = '';
  s.at(40_000, 7);
  win.dispatchEvent(new win.Event('pagehide'));
  assert.is(readStored(PROGRESS_KEY), undefined);
  assert.equal(s.saves, []);
  s.stop();
});

test('dispose: no more saves, on ticks or on pagehide', () => {
  const s = setup();
  s.at(0, 2);
  s.stop();
  s.at(20_000, 9);
  win.dispatchEvent(new win.Event('pagehide'));
  s.bus.emit('content:episode-changed', { episode: ep(204, 2, 1) });
  assert.equal(readStored(PROGRESS_KEY), { 202: 2 });
  assert.is(s.saves.length, 1);
});

test("storage that throws: nothing thrown, logged, the progress kept for this page's life", () => {
  throwingStorage();
  freshMemory();
  const warn = console.warn;
  const info = console.info;
  const logged: unknown[] = [];
  console.warn = console.info = (...a: unknown[]) => logged.push(a);
  try {
    assert.equal(recallMap(PROGRESS_KEY), {});
    assert.not.throws(() => rememberProgress(202, { 202: 2 }));
    assert.equal(recallMap(PROGRESS_KEY), { 202: 2 });
  } finally {
    console.warn = warn;
    console.info = info;
    useStorage(win.localStorage);
  }
  assert.ok(logged.length >= 1, 'logged');
});

test.run();
