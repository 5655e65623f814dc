// The viewer's memory in the frame (storage/memory.ts, remember.ts), backend by backend: what each
// reads at the page's start, what a change writes, and what happens when the browser throws,
// refuses, or hands in something hostile.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AUDIO_KEY, MEMORY_HASH, PROGRESS_KEY, VOLUME_KEY, WRITTEN_KEY } from '../../../src/core/memory-protocol';
import { attachPartnerMemory } from '../../../src/features/partner-memory';
import { attachStorageAccess } from '../../../src/features/storage-access';
import { MEMORY_COOKIE, openMemory, recall, recallMap } from '../../../src/storage/memory';
import { COOKIE_BYTES, cookieValue, remember, rememberEntry, rememberProgress } from '../../../src/storage/remember';
import { installDom } from '../dom';
import type { PlayerParts } from '../../../src/core/player-api';
import { freshMemory } from './memory-kit';

const g = globalThis as Record<string, unknown>;
let win = installDom();

/** A new page at `url`: its own DOM, storage, address and history; `storage` 'throws' like a blocked frame's. */
function page(url = 'https://player.example/player/?movie_id=1', storage: 'works' | 'throws' | Storage = 'works') {
  win = installDom(url);
  const local = storage === 'works' ? win.localStorage : storage;
  Object.defineProperty(g, 'localStorage', {
    get: () => {
      if (local === 'throws') throw new DOMException('Access is denied for this document.', 'SecurityError');
      return local;
    },
    configurable: true,
  });
  Object.defineProperty(g, 'location', { value: win.location, configurable: true, writable: true });
  Object.defineProperty(g, 'history', { value: win.history, configurable: true, writable: true });
  freshMemory();
  return win;
}

/** Runs fn with console.warn and console.info caught. */
function logged<T>(fn: () => T): { result: T; lines: string[] } {
  const { warn, info } = console;
  const lines: string[] = [];
  console.warn = console.info = (...a: unknown[]) => lines.push(a.map(String).join(' '));
  try {
    return { result: fn(), lines };
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

const hash = (record: unknown) => `#${MEMORY_HASH}=${encodeURIComponent(JSON.stringify(record))}`;

test.after.each(() => {
  delete g.location;
  delete g.history;
  freshMemory();
});

test('localStorage: every key read once a page; a junk value is no value; a change is written at once', () => {
  const w = page();
  w.localStorage.setItem(VOLUME_KEY, '0.4');
  w.localStorage.setItem(AUDIO_KEY, '{"7":"English"}');
  w.localStorage.setItem(PROGRESS_KEY, '{bad json');
  assert.is(openMemory().backend, 'local');
  assert.is(recall(VOLUME_KEY), 0.4);
  assert.equal(recallMap(AUDIO_KEY), { 7: 'English' });
  assert.equal(recallMap(PROGRESS_KEY), {});
  rememberProgress(101, { 101: 25 }, 1000);
  remember(VOLUME_KEY, 0.7);
  assert.is(w.localStorage.getItem(PROGRESS_KEY), '{"101":25}');
  assert.is(w.localStorage.getItem(WRITTEN_KEY), '{"101":1000}');
  assert.is(w.localStorage.getItem(VOLUME_KEY), '0.7');
  // Another writer of the same storage meanwhile is not read again: the page's record is the one.
  w.localStorage.setItem(VOLUME_KEY, '0.1');
  assert.is(recall(VOLUME_KEY), 0.7);
});

test('a choice is stamped when made: the caps keep the latest chosen titles, whatever their ids', () => {
  page();
  rememberEntry(AUDIO_KEY, 7, 'Русский', 1);
  rememberEntry(AUDIO_KEY, 8, 'English', 2);
  rememberEntry(AUDIO_KEY, 7, 'English', 3);
  for (let id = 100; id < 110; id++) rememberEntry(AUDIO_KEY, id, 'Старое', 0);
  assert.equal(recallMap('player-chosen-at')[7], 3);
  const short = JSON.parse(cookieValue(openMemory().record));
  assert.equal(short.a, { 7: 'English', 8: 'English', 100: 'Старое', 101: 'Старое', 102: 'Старое' }, 'the two chosen last, then the rest');
});

test('a full quota: the write is logged and lost to the storage, the page keeps it', () => {
  const full = {
    getItem: () => null,
    setItem() {
      throw new DOMException('quota', 'QuotaExceededError');
    },
    removeItem() {},
  } as unknown as Storage;
  page(undefined, full);
  const { lines } = logged(() => remember(VOLUME_KEY, 0.3));
  assert.ok(lines.some((l) => l.includes('refused the write')), lines.join('\n'));
  assert.is(recall(VOLUME_KEY), 0.3);
});

test('blocked localStorage: the partitioned cookie is read and written, on the page path only', () => {
  const w = page('https://player.example/player/?movie_id=1', 'throws');
  w.document.cookie = `${MEMORY_COOKIE}=${encodeURIComponent(JSON.stringify({ v: 0.25, m: true, a: { 1: 'English' }, p: { 101: 42 }, t: { 101: 5 } }))}; path=/player/`;
  const { result: memory } = logged(() => openMemory());
  assert.is(memory.backend, 'cookie');
  assert.equal([recall(VOLUME_KEY), recall('player-muted'), recallMap(AUDIO_KEY), recallMap(PROGRESS_KEY)], [0.25, true, { 1: 'English' }, { 101: 42 }]);
  remember(VOLUME_KEY, 0.5);
  const stored = JSON.parse(decodeURIComponent(w.document.cookie.split('; ').find((c) => c.startsWith(`${MEMORY_COOKIE}=`))!.slice(MEMORY_COOKIE.length + 1)));
  assert.is(stored.v, 0.5);
  assert.equal(stored.p, { 101: 42 });
  assert.is(openMemory().backend, 'cookie');
});

test('the cookie keeps what fits: the newest titles, no starts, within its bytes even in Cyrillic', () => {
  const progress: Record<string, number> = {};
  const written: Record<string, number> = {};
  const audio: Record<string, string> = {};
  for (let i = 1; i <= 40; i++) {
    progress[i] = i * 10;
    written[i] = i;
    audio[i] = 'Многоголосый закадровый перевод студии номер ' + i;
  }
  const value = cookieValue({ [PROGRESS_KEY]: progress, [WRITTEN_KEY]: written, [AUDIO_KEY]: audio, [VOLUME_KEY]: 0.5, 'player-starts': [{ movie: 1 }] });
  assert.ok(encodeURIComponent(value).length <= COOKIE_BYTES, `${encodeURIComponent(value).length} bytes`);
  const short = JSON.parse(value);
  assert.is(short.v, 0.5);
  assert.is(short.s, undefined, 'no starts');
  const kept = Object.keys(short.p ?? {}).map(Number);
  assert.ok(kept.length >= 1 && kept.every((id) => id > 40 - kept.length), `the newest: ${kept}`);
});

test("cookies refused too: this page's life only, said once in the console", () => {
  const w = page(undefined, 'throws');
  Object.defineProperty(w.document, 'cookie', { get: () => '', set: () => {}, configurable: true });
  const { lines } = logged(() => {
    remember(VOLUME_KEY, 0.2);
    remember(VOLUME_KEY, 0.3);
  });
  assert.is(openMemory().backend, 'page');
  assert.is(recall(VOLUME_KEY), 0.3);
  assert.is(lines.filter((l) => l.includes('last only as long as this page')).length, 1, lines.join('\n'));
});

test("the partner's record from the hash: merged (newest progress wins), then off the address", () => {
  const w = page(`https://player.example/player/?movie_id=1${hash({ [PROGRESS_KEY]: { 101: 30, 102: 50 }, [WRITTEN_KEY]: { 101: 2000, 102: 10 }, [VOLUME_KEY]: 0.6 })}`);
  w.localStorage.setItem(PROGRESS_KEY, JSON.stringify({ 101: 10, 102: 70, 103: 5 }));
  w.localStorage.setItem(WRITTEN_KEY, JSON.stringify({ 101: 1000, 102: 20 }));
  w.localStorage.setItem(VOLUME_KEY, '0.9');
  const memory = openMemory();
  assert.ok(memory.partner);
  assert.equal(recallMap(PROGRESS_KEY), { 101: 30, 102: 70, 103: 5 });
  assert.is(recall(VOLUME_KEY), 0.6, "the partner's choice wins");
  assert.is(w.location.hash, '', 'the record is off the address');
  assert.is(w.location.search, '?movie_id=1');
});

test('a malformed or hostile partner record: ignored with a log, nothing polluted, playback state intact', () => {
  page(`https://player.example/player/?movie_id=1#${MEMORY_HASH}=%7Bnot-json`);
  const { result } = logged(() => openMemory());
  assert.ok(result.partner, 'the partner asked for it: an empty record');
  assert.equal(recallMap(PROGRESS_KEY), {});
  page(`https://player.example/player/?movie_id=1${hash({ __proto__: { polluted: 1 }, [PROGRESS_KEY]: 'x', [AUDIO_KEY]: [1, 2], [VOLUME_KEY]: 'loud' })}`);
  assert.not.throws(() => openMemory());
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(recallMap(PROGRESS_KEY), {});
  assert.equal(recallMap(AUDIO_KEY), {});
  assert.not.throws(() => rememberProgress(101, { 101: 3 }));
});

function framed(parentOrigin: string | undefined) {
  const posted: Array<{ message: any; origin: string }> = [];
  const parent = { postMessage: (message: unknown, origin: string) => posted.push({ message, origin }) };
  const fake = {
    parent,
    location: { ancestorOrigins: parentOrigin ? [parentOrigin] : [] },
    document: { referrer: '' },
  } as unknown as Window;
  return { posted, fake };
}

test('the partner store gets the whole record after each change, one message a task, only to its own origin', async () => {
  page(`https://player.example/player/?movie_id=1${hash({})}`);
  const { posted, fake } = framed('https://partner.example');
  const off = attachPartnerMemory({ config: { movieId: 1 } } as unknown as PlayerParts, fake);
  rememberProgress(101, { 101: 12 }, 5);
  remember(VOLUME_KEY, 0.4);
  await Promise.resolve();
  assert.is(posted.length, 1);
  assert.is(posted[0].origin, 'https://partner.example');
  assert.is(posted[0].message.type, 'memory');
  assert.equal(posted[0].message.payload[PROGRESS_KEY], { 101: 12 });
  assert.is(posted[0].message.payload[VOLUME_KEY], 0.4);
  off();
  remember(VOLUME_KEY, 0.5);
  await Promise.resolve();
  assert.is(posted.length, 1, 'nothing after dispose');
});

test("the partner's origin unknown: nothing posted (never to '*'), said in the console", async () => {
  page(`https://player.example/player/?movie_id=1${hash({})}`);
  const { posted, fake } = framed(undefined);
  const { lines } = logged(() => attachPartnerMemory({ config: { movieId: 1 } } as unknown as PlayerParts, fake));
  remember(VOLUME_KEY, 0.4);
  await Promise.resolve();
  assert.is(posted.length, 0);
  assert.ok(lines.some((l) => l.includes('origin is unknown')));
});

test('no partner asked: nothing posted', async () => {
  page();
  const { posted, fake } = framed('https://partner.example');
  attachPartnerMemory({ config: { movieId: 1 } } as unknown as PlayerParts, fake)();
  remember(VOLUME_KEY, 0.4);
  await Promise.resolve();
  assert.is(posted.length, 0);
});

function accessWindow(answer: () => Promise<unknown>) {
  const listeners: Array<(e: unknown) => void> = [];
  let asked = 0;
  const doc = {
    requestStorageAccess: (types: unknown) => {
      asked++;
      assert.equal(types, { localStorage: true });
      return answer();
    },
    addEventListener: (_: string, fn: (e: unknown) => void) => listeners.push(fn),
    removeEventListener: (_: string, fn: (e: unknown) => void) => listeners.splice(listeners.indexOf(fn), 1),
  };
  const fake = {
    document: { ...doc, referrer: 'https://partner.example/page' },
    parent: {},
    origin: 'https://player.example',
    location: { hostname: 'player.example', ancestorOrigins: ['https://partner.example'] },
    localStorage: win.localStorage,
  } as unknown as Window;
  const click = (isTrusted: boolean, onPlay = true) => [...listeners].forEach((fn) => fn({ isTrusted, target: { closest: () => (onPlay ? {} : null) } }));
  return { fake, click, asked: () => asked, listeners };
}

test('storage access: asked once, in the first real click on Play, and the record is kept in the granted storage too', async () => {
  page(undefined, 'throws');
  logged(() => remember(VOLUME_KEY, 0.35));
  // A Storage of its own, without a new DOM (which would take the global document over).
  const items = new Map<string, string>();
  const granted = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  } as unknown as Storage;
  const w = accessWindow(() => Promise.resolve({ localStorage: granted }));
  attachStorageAccess(w.fake);
  w.click(false);
  w.click(true, false);
  assert.is(w.asked(), 0, 'not for a script-made click, nor a click elsewhere');
  w.click(true);
  w.click(true);
  assert.is(w.asked(), 1, 'once');
  assert.is(w.listeners.length, 0);
  const info = console.info;
  console.info = () => {};
  await new Promise((r) => setTimeout(r)).finally(() => (console.info = info));
  assert.is(granted.getItem(VOLUME_KEY), '0.35', 'the page record moved');
  remember(VOLUME_KEY, 0.45);
  assert.is(granted.getItem(VOLUME_KEY), '0.45', 'and later changes go there');
  assert.is(openMemory().backend, 'cookie', 'and to the cookie, which the next page reads');
  assert.ok(win.document.cookie.includes('%22v%22%3A0.45'), win.document.cookie);
});

test("storage access not asked where the frame's own localStorage works (Firefox's and WebKit's partitioned one)", () => {
  page();
  const w = accessWindow(() => Promise.resolve(undefined));
  attachStorageAccess(w.fake);
  w.click(true);
  assert.is(w.asked(), 0);
});

test('storage access refused, or not offered, or the page not framed: playback state intact, logged', async () => {
  page(undefined, 'throws');
  const w = accessWindow(() => Promise.reject(new DOMException('no', 'NotAllowedError')));
  attachStorageAccess(w.fake);
  const info = console.info;
  const lines: unknown[] = [];
  console.info = (...a: unknown[]) => lines.push(a);
  try {
    w.click(true);
    await new Promise((r) => setTimeout(r));
  } finally {
    console.info = info;
  }
  assert.is(w.asked(), 1);
  assert.is(lines.length, 1, 'logged');
  assert.is.not(openMemory().backend, 'local');
  const top = { document: { requestStorageAccess: () => assert.unreachable() } } as unknown as Window;
  (top as unknown as { parent: unknown }).parent = top;
  assert.not.throws(() => attachStorageAccess(top)());
  const none = { document: {}, parent: {} } as unknown as Window;
  assert.not.throws(() => attachStorageAccess(none)());
  // A sandboxed frame (opaque origin) and a frame of its parent's own host are not asked for.
  for (const over of [{ origin: 'null' }, { location: { hostname: 'player.example', ancestorOrigins: ['https://player.example'] } }]) {
    const w2 = accessWindow(() => Promise.resolve(undefined));
    attachStorageAccess({ ...w2.fake, ...over } as unknown as Window);
    assert.is(w2.listeners.length, 0);
  }
});

test.run();
