// Where each title last started (issue 26): a capped list, newest first, read defensively.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { STARTS_KEY } from '../../../src/core/memory-protocol';
import { remember } from '../../../src/storage/remember';
import { type StartMemory, recallStart, withStart } from '../../../src/storage/start-memory';

/** As features/start-memory.ts does. */
const rememberStart = (start: StartMemory) => {
  const starts = withStart(start);
  if (starts) remember(STARTS_KEY, starts);
};
import { freshMemory } from './memory-kit';
import { quiet } from '../fakes';
import { installDom } from '../dom';

const win = installDom();
const useStorage = (storage: Storage = win.localStorage) => Object.defineProperty(globalThis, 'localStorage', { get: () => storage, configurable: true });
const fresh = () => {
  useStorage();
  win.localStorage.clear();
  freshMemory();
};

const M = 'https://cdn.example/m';
const start = (movie: number, over: Partial<StartMemory> = {}): StartMemory => ({
  movie,
  episode: movie * 100 + 1,
  variant: null,
  master: `${M}/${movie}/master.m3u8`,
  at: 0,
  playlists: [`${M}/${movie}/240p.m3u8`, `${M}/${movie}/rus.m3u8`],
  segments: [`${M}/${movie}/240p/init.mp4`, `${M}/${movie}/240p/seg_0.m4s`],
  ...over,
});
const stored = () => JSON.parse(win.localStorage.getItem(STARTS_KEY) ?? 'null') as StartMemory[];

test('remembered per title, newest first; a title played again moves to the front, replaced', () => {
  fresh();
  rememberStart(start(1));
  rememberStart(start(2));
  assert.equal(stored().map((s) => s.movie), [2, 1]);
  rememberStart(start(1, { episode: 199, variant: 7 }));
  assert.equal(stored().map((s) => s.movie), [1, 2]);
  assert.equal(recallStart(1), start(1, { episode: 199, variant: 7 }));
  assert.equal(recallStart(2), start(2));
  assert.is(recallStart(3), undefined);
});

test('at most 10 titles: the oldest goes', () => {
  fresh();
  for (let movie = 1; movie <= 12; movie++) rememberStart(start(movie));
  assert.equal(stored().map((s) => s.movie), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
  assert.is(recallStart(2), undefined);
  assert.ok(recallStart(3));
});

test('at most 3 playlists and 4 segments kept, the first asked', () => {
  fresh();
  const urls = (n: number, kind: string) => Array.from({ length: n }, (_, i) => `${M}/${kind}${i}`);
  rememberStart(start(1, { playlists: urls(5, 'p'), segments: urls(9, 's') }));
  assert.equal(recallStart(1)!.playlists, urls(3, 'p'));
  assert.equal(recallStart(1)!.segments, urls(4, 's'));
});

test('nasty stored values: whatever is not what this build writes is skipped, the rest kept', async () => {
  // Not JSON is logged as storage that fails is.
  await quiet(() => {
    for (const raw of ['', 'null', '[1,2', '"x"', '{}', '42', '{"movie":1}', '[null,1,"a",[]]']) {
      fresh();
      win.localStorage.setItem(STARTS_KEY, raw);
      assert.is(recallStart(1), undefined, raw);
      rememberStart(start(1));
      assert.equal(stored(), [start(1)], `${raw}: replaced by a valid list`);
    }
  });
  const bad: Array<Partial<Record<keyof StartMemory, unknown>>> = [
    { movie: '1' },
    { movie: 1.5 },
    { episode: null },
    { episode: Number.MAX_SAFE_INTEGER + 2 },
    { variant: '7' },
    { variant: undefined },
    { master: 'javascript:alert(1)' },
    { master: 'data:application/x-mpegurl,#EXTM3U' },
    { master: '/relative/master.m3u8' },
    { master: `${M}/has space.m3u8` },
    { master: `${M}/${'x'.repeat(3000)}` },
    { at: -1 },
    { at: 'NaN' },
    { at: null },
    { at: 1e9 },
    { playlists: 'https://a.example/p.m3u8' },
    { playlists: [1] },
    { playlists: Array(4).fill(`${M}/p.m3u8`) },
    { segments: [null] },
    { segments: Array(5).fill(`${M}/s.m4s`) },
    { segments: { 0: `${M}/s.m4s`, length: 1 } },
  ];
  for (const over of bad) {
    fresh();
    win.localStorage.setItem(STARTS_KEY, JSON.stringify([{ ...start(1), ...over }, start(2)]));
    assert.is(recallStart(1), undefined, JSON.stringify(over).slice(0, 80));
    assert.equal(recallStart(2), start(2), 'a good entry beside a bad one is kept');
  }
  fresh();
  // An older build's longer list: only the first 10 entries are read.
  win.localStorage.setItem(STARTS_KEY, JSON.stringify(Array.from({ length: 50 }, (_, i) => start(i + 1))));
  assert.ok(recallStart(10));
  assert.is(recallStart(11), undefined);
});

test('storage that throws (a sandboxed frame, a full quota): never thrown; the start lasts this page, not the next', async () => {
  const throwing = {
    getItem() {
      throw new DOMException('denied', 'SecurityError');
    },
    setItem() {
      throw new DOMException('full', 'QuotaExceededError');
    },
  } as unknown as Storage;
  useStorage(throwing);
  freshMemory();
  const { result, warnings } = await quiet(() => {
    rememberStart(start(1));
    return recallStart(1);
  });
  assert.equal(result, start(1), "this page's memory has it");
  assert.ok(warnings.length >= 1, 'logged');
  Object.defineProperty(globalThis, 'localStorage', {
    get() {
      throw new DOMException('The document is sandboxed', 'SecurityError');
    },
    configurable: true,
  });
  freshMemory();
  const denied = await quiet(() => recallStart(1));
  assert.is(denied.result, undefined, 'a new page: starts are not kept in the cookie');
  fresh();
});

test.run();
