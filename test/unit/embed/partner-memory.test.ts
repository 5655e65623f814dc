// Partner memory on the partner's page (src/embed/partner-memory.ts): the record handed to the frame in
// its address, and the frame's updates stored, only from the player's origin and this frame's window,
// merged newest-wins and capped; hostile input and failing storage logged, never thrown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  MUTED_KEY,
  PARTNER_BYTES,
  PARTNER_KEY,
  PARTNER_TITLES,
  PROGRESS_KEY,
  VOLUME_KEY,
  WRITTEN_KEY,
  capRecord,
  type MemoryRecord,
} from '../../../src/core/memory-protocol';
import { partnerMemory } from '../../../src/embed/module';
import { createPlayer } from '../../../src/embed/sdk';

const PLAYER = 'https://player.example';
const PAGE = 'https://partner.example/shows/page.html';
const EMPTY = `#memory=${encodeURIComponent('{}')}`;

/** A cross-origin window, as a player frame's is from the partner's page. */
const frameWindow = () => ({
  postMessage() {},
  get location(): Location {
    throw new DOMException('cross-origin', 'SecurityError');
  },
});

/** Elements enough for createPlayer to build its box and frame. */
function element(localName: string) {
  const el = {
    localName,
    src: '',
    style: {} as Record<string, string>,
    children: [] as unknown[],
    contentWindow: localName === 'iframe' ? frameWindow() : null,
    append: (...c: unknown[]) => void el.children.push(...c),
    replaceChildren: (...c: unknown[]) => void el.children.splice(0, el.children.length, ...c),
    remove() {},
  };
  return el;
}

type Mode = { get?: boolean; set?: boolean; access?: boolean };

/** The partner's page: its localStorage (failing as `mode` says), its message listeners, its console. */
function page(stored?: string) {
  const g = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(['addEventListener', 'removeEventListener', 'document'].map((k) => [k, g[k]]));
  const savedStorage = Object.getOwnPropertyDescriptor(g, 'localStorage');
  const savedWarn = console.warn;
  const items = new Map<string, string>(stored === undefined ? [] : [[PARTNER_KEY, stored]]);
  const mode: Mode = {};
  let writes = 0;
  const storage = {
    getItem(key: string) {
      if (mode.get) throw new DOMException('denied', 'SecurityError');
      return items.get(key) ?? null;
    },
    setItem(key: string, value: string) {
      if (mode.set) throw new DOMException('full', 'QuotaExceededError');
      writes++;
      items.set(key, String(value));
    },
  };
  // Chromium throws on reading `localStorage` itself where a frame or page may not use storage.
  Object.defineProperty(g, 'localStorage', {
    configurable: true,
    get() {
      if (mode.access) throw new DOMException('denied', 'SecurityError');
      return storage;
    },
  });
  const handlers = new Set<(e: unknown) => void>();
  g.addEventListener = (type: string, fn: (e: unknown) => void) => type === 'message' && handlers.add(fn);
  g.removeEventListener = (_: string, fn: (e: unknown) => void) => handlers.delete(fn);
  g.document = { baseURI: PAGE, createElement: element };
  const warnings: unknown[][] = [];
  console.warn = (...a: unknown[]) => void warnings.push(a);
  return {
    mode,
    handlers,
    warnings,
    writes: () => writes,
    record: () => JSON.parse(items.get(PARTNER_KEY) ?? 'null') as MemoryRecord | null,
    raw: () => items.get(PARTNER_KEY),
    deliver: (data: unknown, source: unknown, origin = PLAYER) => handlers.forEach((h) => h({ data, source, origin })),
    restore() {
      Object.assign(g, saved);
      if (savedStorage) Object.defineProperty(g, 'localStorage', savedStorage);
      else delete g.localStorage;
      console.warn = savedWarn;
    },
  };
}

const update = (payload: unknown) => ({ protocol: 'embed-player', version: 1, type: 'memory', payload, contentId: 1 });
const build = (options: Record<string, unknown> = { memory: 'partner' }) =>
  createPlayer(element('div') as unknown as HTMLElement, { movieId: 1, playerUrl: `${PLAYER}/player/`, ...options }, PAGE);
/** The record a frame address carries. */
const carried = (src: string): unknown => JSON.parse(decodeURIComponent(src.split('#memory=')[1]));

/** `count` episodes written at 1…count (episode i at time i, position i × 10). */
function episodes(count: number, from = 1): MemoryRecord {
  const progress: Record<string, number> = {};
  const written: Record<string, number> = {};
  for (let i = from; i < from + count; i++) {
    progress[i] = i * 10;
    written[i] = i;
  }
  return { [PROGRESS_KEY]: progress, [WRITTEN_KEY]: written };
}

test('the frame address carries the stored record, capped, after the query', () => {
  const stored = { ...episodes(PARTNER_TITLES + 15), [VOLUME_KEY]: 0.4, [MUTED_KEY]: true, junk: 'x' };
  const p = page(JSON.stringify(stored));
  try {
    const player = build();
    const src = player.iframe!.src;
    assert.ok(src.startsWith(`${PLAYER}/player/?movie_id=1#memory=`), src);
    assert.is(src.split('#memory=')[1], encodeURIComponent(JSON.stringify(capRecord(stored))));
    const record = carried(src) as MemoryRecord;
    assert.is(Object.keys(record[PROGRESS_KEY] as object).length, PARTNER_TITLES);
    assert.is(record[VOLUME_KEY], 0.4);
    assert.not.ok('junk' in record);
    assert.equal(p.warnings, []);
    player.destroy();
    // Without the option: no fragment and no listener of the partner's store.
    const plain = build({});
    assert.is(plain.iframe!.src, `${PLAYER}/player/?movie_id=1`);
    assert.is(p.handlers.size, 1);
    plain.destroy();
  } finally {
    p.restore();
  }
});

test('no record, a malformed one, storage that throws: `#memory={}`, never a throw; malformed warns once', () => {
  const none = page();
  try {
    const player = build();
    assert.ok(player.iframe!.src.endsWith(`?movie_id=1${EMPTY}`));
    assert.equal(none.warnings, []);
    player.destroy();
  } finally {
    none.restore();
  }
  for (const junk of ['{', '[1,2]', 'null', '"text"', '42']) {
    const p = page(junk);
    try {
      const player = build();
      assert.ok(player.iframe!.src.endsWith(EMPTY), junk);
      assert.is(p.warnings.length, 1, junk);
      player.destroy();
    } finally {
      p.restore();
    }
  }
  // Parsed, but too deep to serialise again (JSON.stringify recurses): counted as none.
  const deep = page(`{"${VOLUME_KEY}":${'['.repeat(200000)}${']'.repeat(200000)}}`);
  try {
    const player = build();
    assert.ok(player.iframe!.src.endsWith(EMPTY));
    player.destroy();
  } finally {
    deep.restore();
  }
  for (const failing of [{ get: true }, { access: true }] as Mode[]) {
    const p = page(JSON.stringify({ [VOLUME_KEY]: 0.2 }));
    Object.assign(p.mode, failing);
    try {
      const player = build();
      assert.ok(player.iframe!.src.endsWith(EMPTY), JSON.stringify(failing));
      player.destroy();
    } finally {
      p.restore();
    }
  }
});

test('updates only from the player origin and this frame window; two players on one page each take their own', () => {
  const p = page();
  try {
    const a = build();
    const b = build();
    const mine = a.iframe!.contentWindow;
    p.deliver(update({ [VOLUME_KEY]: 0.1 }), mine, 'https://evil.example');
    p.deliver(update({ [VOLUME_KEY]: 0.2 }), frameWindow());
    p.deliver(update({ [VOLUME_KEY]: 0.3 }), null);
    p.deliver(update({ [VOLUME_KEY]: 0.4 }), mine, 'null');
    assert.is(p.writes(), 0);
    p.deliver(update({ [VOLUME_KEY]: 0.5 }), mine);
    assert.is(p.writes(), 1, 'stored once, by the player whose frame it is');
    assert.is(p.record()![VOLUME_KEY], 0.5);
    p.deliver(update({ [VOLUME_KEY]: 0.6 }), b.iframe!.contentWindow);
    assert.is(p.writes(), 2);
    assert.is(p.record()![VOLUME_KEY], 0.6);
    // Not memory, not ours: nothing stored, nothing logged.
    p.deliver({ ...update({}), type: 'timeProgressChanged' }, mine);
    p.deliver({ type: 'memory', payload: { [VOLUME_KEY]: 0.9 } }, mine);
    p.deliver(JSON.stringify(update({ [VOLUME_KEY]: 0.7 })), mine);
    assert.is(p.record()![VOLUME_KEY], 0.7, 'an envelope as JSON text is read as the player protocol reads it');
    assert.is(p.writes(), 3);
    assert.equal(p.warnings, []);
    a.destroy();
    b.destroy();
  } finally {
    p.restore();
  }
});

test('hostile, oversized and malformed payloads: ignored with a log line, never thrown, the record untouched', () => {
  const before = JSON.stringify({ [VOLUME_KEY]: 0.3 });
  const p = page(before);
  try {
    const player = build();
    const win = player.iframe!.contentWindow;
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const hostile = new Proxy({}, { ownKeys() { throw new Error('boom'); }, get() { throw new Error('boom'); } });
    const oversized = { [PROGRESS_KEY]: { 1: 'x'.repeat(2 * PARTNER_BYTES) } };
    const payloads = [null, undefined, 'text', 42, true, [1, 2], circular, hostile, oversized, { big: 10n }, { toJSON() { throw new Error('boom'); } }];
    for (const payload of payloads) p.deliver(update(payload), win);
    assert.is(p.writes(), 0);
    assert.is(p.raw(), before);
    assert.is(p.warnings.length, payloads.length, 'one line each');
    // Just within the bound: taken, then capped.
    const within = { [PROGRESS_KEY]: { 1: 'x'.repeat(PARTNER_BYTES + 100) }, [WRITTEN_KEY]: { 1: 5 }, [VOLUME_KEY]: 0.8 };
    p.deliver(update(within), win);
    assert.is(p.writes(), 1);
    assert.equal(p.record(), capRecord(within));
    assert.ok(p.raw()!.length <= PARTNER_BYTES);
    player.destroy();
  } finally {
    p.restore();
  }
});

test('a full or blocked storage: logged once per player, never thrown; a malformed stored value is replaced', () => {
  const p = page('{not json');
  try {
    const player = build();
    const win = player.iframe!.contentWindow;
    p.warnings.length = 0;
    p.mode.set = true;
    p.deliver(update({ [VOLUME_KEY]: 0.5 }), win);
    p.deliver(update({ [VOLUME_KEY]: 0.6 }), win);
    const stored = p.warnings.filter((w) => String(w[1]).includes('could not be stored'));
    assert.is(stored.length, 1);
    assert.is((stored[0][2] as DOMException).name, 'QuotaExceededError');
    p.mode.set = false;
    p.deliver(update({ [VOLUME_KEY]: 0.7 }), win);
    assert.is(p.record()![VOLUME_KEY], 0.7, 'the malformed value gives way to the frame record');
    p.mode.access = true;
    p.deliver(update({ [VOLUME_KEY]: 0.8 }), win);
    player.destroy();
  } finally {
    p.restore();
  }
});

test('two tabs writing in turn: each episode keeps its newest position; the cap applies to what is stored', () => {
  const p = page();
  try {
    // Two tabs of the partner's site share its storage: two players here.
    const tab1 = build();
    const tab2 = build();
    p.deliver(update({ [PROGRESS_KEY]: { 1: 300, 2: 40 }, [WRITTEN_KEY]: { 1: 1000, 2: 900 }, [VOLUME_KEY]: 0.2 }), tab1.iframe!.contentWindow);
    // Tab 2 loaded earlier: its episode 1 is older; it has just written episode 2 and forgotten episode 3.
    p.deliver(
      update({ [PROGRESS_KEY]: { 1: 120, 2: 95 }, [WRITTEN_KEY]: { 1: 500, 2: 1100, 3: 1100 }, [VOLUME_KEY]: 0.9 }),
      tab2.iframe!.contentWindow,
    );
    const record = p.record()!;
    assert.equal(record[PROGRESS_KEY], { 1: 300, 2: 95 });
    assert.equal(record[WRITTEN_KEY], { 1: 1000, 2: 1100, 3: 1100 });
    assert.is(record[VOLUME_KEY], 0.9, 'the latest update\'s volume');
    // Many titles: the newest PARTNER_TITLES kept (the forgotten 3 and 1, 2 among the oldest go).
    p.deliver(update(episodes(PARTNER_TITLES, 2000)), tab1.iframe!.contentWindow);
    const capped = p.record()!;
    assert.is(Object.keys(capped[WRITTEN_KEY] as object).length, PARTNER_TITLES);
    assert.not.ok('1' in (capped[PROGRESS_KEY] as object));
    tab1.destroy();
    tab2.destroy();
  } finally {
    p.restore();
  }
});

test('an existing iframe only listens: its address stays, its updates are stored', () => {
  const p = page(JSON.stringify({ [VOLUME_KEY]: 0.3 }));
  try {
    const frame = element('iframe');
    frame.src = `${PLAYER}/player/?movie_id=1${EMPTY}`;
    const player = createPlayer(frame as unknown as HTMLElement, { memory: 'partner' }, PAGE);
    assert.is(frame.src, `${PLAYER}/player/?movie_id=1${EMPTY}`);
    p.deliver(update({ [MUTED_KEY]: true }), frame.contentWindow);
    assert.equal([p.record()![VOLUME_KEY], p.record()![MUTED_KEY]], [0.3, true]);
    player.destroy();
  } finally {
    p.restore();
  }
});

test('destroy and the helper dispose remove the listener: later updates are not stored', () => {
  const p = page();
  try {
    const player = build();
    const win = player.iframe!.contentWindow;
    assert.is(p.handlers.size, 2, 'the SDK protocol and partner memory');
    player.destroy();
    assert.is(p.handlers.size, 0);
    p.deliver(update({ [VOLUME_KEY]: 0.5 }), win);
    assert.is(p.writes(), 0);
  } finally {
    p.restore();
  }
});

test('partnerMemory(iframe, src): the address with the record (relative to the page, a fragment replaced), then the same store', () => {
  const p = page(JSON.stringify({ [VOLUME_KEY]: 0.25 }));
  try {
    const frame = element('iframe');
    const stop = partnerMemory(frame as unknown as HTMLIFrameElement, '/player/?movie_id=2#old');
    assert.is(frame.src.split('#')[0], 'https://partner.example/player/?movie_id=2');
    assert.equal(carried(frame.src), capRecord({ [VOLUME_KEY]: 0.25 }));
    assert.is(p.handlers.size, 1);
    // Relative to the page, the player is on the page's origin: a message from elsewhere is not its.
    p.deliver(update({ [VOLUME_KEY]: 0.5 }), frame.contentWindow);
    assert.is(p.writes(), 0);
    p.deliver(update({ [VOLUME_KEY]: 0.5 }), frame.contentWindow, 'https://partner.example');
    assert.is(p.record()![VOLUME_KEY], 0.5);
    stop();
    assert.is(p.handlers.size, 0);

    const other = element('iframe');
    const dispose = partnerMemory(other as unknown as HTMLIFrameElement, `${PLAYER}/player/?movie_id=3`);
    p.deliver(update({ [VOLUME_KEY]: 0.75 }), frame.contentWindow);
    p.deliver(update({ [VOLUME_KEY]: 0.75 }), other.contentWindow, 'https://partner.example');
    assert.is(p.record()![VOLUME_KEY], 0.5, 'another frame, another origin');
    p.deliver(update({ [VOLUME_KEY]: 0.75 }), other.contentWindow);
    assert.is(p.record()![VOLUME_KEY], 0.75);
    dispose();
  } finally {
    p.restore();
  }
});

test('EmbedPlayer (the classic script) offers the helper too', async () => {
  const p = page();
  // The classic script reads its own address as it runs.
  (globalThis as unknown as { document: Record<string, unknown> }).document.currentScript = { src: `${PLAYER}/player/embed.js` };
  try {
    const classic = await import('../../../src/embed/classic');
    assert.is(classic.partnerMemory, partnerMemory);
    assert.is(typeof classic.createPlayer, 'function');
  } finally {
    p.restore();
  }
});

test.run();
