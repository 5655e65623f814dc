// The SDK's side of the protocol on an existing player frame: hello, the queue before ready, replies
// matched to their requests in any order, foreign and hostile messages, destroy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENTS, METHODS } from '../../../src/core/embed-protocol';
import type { Player, PlayerEvents } from '../../../src/embed/embed';
import { createPlayer } from '../../../src/embed/sdk';

// The protocol's lists and the public types name the same members, both ways (a compile-time check:
// `npm run typecheck` fails when one gains a member the other lacks).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Requests = Exclude<keyof Player, 'iframe' | 'ready' | 'on' | 'destroy'>;
type Streamed = Exclude<keyof PlayerEvents, 'ready' | 'fullscreenchange' | 'episodeChanged' | 'episodeVariantChanged' | 'timeProgressChanged'>;
const methodsMatch: Same<Requests, (typeof METHODS)[number]> = true;
const eventsMatch: Same<Streamed, (typeof EVENTS)[number]> = true;

const PLAYER = 'https://player.example';
const env = { protocol: 'embed-player', version: 1, contentId: 1 };
const INFO = { version: 1, methods: ['play'], events: ['play'], instance: 0.5 };

function setup() {
  const g = globalThis as Record<string, unknown>;
  const sent: Array<{ data: any; origin: string }> = [];
  // A cross-origin window: reading its location throws, as a browser's does.
  const win = {
    postMessage: (data: unknown, origin: string) => sent.push({ data, origin }),
    get location(): Location {
      throw new DOMException('cross-origin', 'SecurityError');
    },
  };
  // No HTMLIFrameElement of this realm, as WebKit gives a page an iframe whose wrapper another window
  // made (a same-origin player read its frameElement first): the SDK goes by the tag.
  const frame = { localName: 'iframe', src: `${PLAYER}/player/?movie_id=1`, contentWindow: win, remove() {} };
  const handlers = new Set<(e: unknown) => void>();
  const saved = { addEventListener: g.addEventListener, removeEventListener: g.removeEventListener };
  g.addEventListener = (_: string, fn: (e: unknown) => void) => handlers.add(fn);
  g.removeEventListener = (_: string, fn: (e: unknown) => void) => handlers.delete(fn);
  const player = createPlayer(frame as unknown as HTMLElement, {}, 'https://partner.example/');
  const deliver = (data: unknown, source: unknown = win, origin = PLAYER) => handlers.forEach((h) => h({ data, source, origin }));
  const restore = () => Object.assign(g, saved);
  return { player, sent, win, handlers, deliver, restore };
}

const settled = <T>(p: Promise<T>) => p.then((value) => ({ value }), (error) => ({ error }));
const tick = () => new Promise((r) => setTimeout(r, 0));

test('hello at once to a loaded frame; calls wait for ready, then go out with their own ids', async () => {
  const s = setup();
  try {
    assert.equal(s.sent.map((m) => [m.data.type, m.data.id, m.origin]), [['hello', 1, PLAYER]]);
    const play = settled(s.player.play());
    assert.is(s.sent.length, 1, 'queued before ready');
    s.deliver({ ...env, type: 'reply', id: 1, payload: { value: INFO } });
    assert.equal(await s.player.ready(), { version: 1, methods: ['play'], events: ['play'] });
    assert.equal(s.sent.slice(1).map((m) => [m.data.type, m.data.method, m.origin]), [['request', 'play', PLAYER]]);
    const playId = s.sent[1].data.id;

    const time = settled(s.player.getCurrentTime());
    const paused = settled(s.player.getPaused());
    const [timeId, pausedId] = s.sent.slice(2).map((m) => m.data.id);
    // Out of order, a duplicate, an unknown id: each promise gets its own answer once.
    s.deliver({ ...env, type: 'reply', id: pausedId, payload: { value: true } });
    s.deliver({ ...env, type: 'reply', id: timeId, payload: { value: 12 } });
    s.deliver({ ...env, type: 'reply', id: timeId, payload: { value: 99 } });
    s.deliver({ ...env, type: 'reply', id: 777, payload: { value: 1 } });
    s.deliver({ ...env, type: 'reply', id: playId, payload: { error: { code: 'autoplay-refused', message: 'no' } } });
    assert.equal(await time, { value: 12 });
    assert.equal(await paused, { value: true });
    assert.equal(await play, { error: { code: 'autoplay-refused', message: 'no' } });
  } finally {
    s.player.destroy();
    s.restore();
  }
});

test('events: only from the frame at the player origin, known names only; a throwing listener stops no other', async () => {
  const s = setup();
  const error = console.error;
  const logged: unknown[] = [];
  console.error = (...a: unknown[]) => logged.push(a);
  try {
    const got: string[] = [];
    s.player.on('play', () => {
      throw new Error('partner bug');
    });
    s.player.on('play', () => got.push('play'));
    s.player.on('fullscreenchange', ({ fullscreen }) => got.push(`fullscreen ${fullscreen}`));
    const off = s.player.on('pause', () => got.push('pause'));
    const event = (name: string) => ({ ...env, type: 'event', payload: { name, data: {} } });
    s.deliver(event('play'), {}, PLAYER);
    s.deliver(event('play'), s.win, 'https://evil.example');
    s.deliver(event('__proto__'));
    s.deliver(event('play'));
    s.deliver({ ...env, type: 'enterFullScreen', payload: {} });
    off();
    s.deliver(event('pause'));
    assert.equal(got, ['play', 'fullscreen true']);
    // The SPEC's own messages become events with their payloads as they are.
    const spec: unknown[] = [];
    for (const name of ['episodeChanged', 'episodeVariantChanged', 'timeProgressChanged'] as const) s.player.on(name, (d) => spec.push([name, d]));
    s.deliver({ ...env, type: 'episodeChanged', payload: { episode: { id: 7 } } });
    s.deliver({ ...env, type: 'episodeVariantChanged', payload: { episodeVariant: { id: 2 } } });
    s.deliver({ ...env, type: 'timeProgressChanged', payload: { currentTime: 10, duration: 60 } });
    s.deliver({ ...env, type: 'exitFullScreen', payload: {} });
    assert.equal(spec, [
      ['episodeChanged', { episode: { id: 7 } }],
      ['episodeVariantChanged', { episodeVariant: { id: 2 } }],
      ['timeProgressChanged', { currentTime: 10, duration: 60 }],
    ]);
    assert.is(got.at(-1), 'fullscreen false');
    assert.is(logged.length, 1, 'the throwing listener is logged');
  } finally {
    console.error = error;
    s.player.destroy();
    s.restore();
  }
});

test('every method of the protocol is a request of that name with its one argument; the new events reach their listeners', async () => {
  assert.ok(methodsMatch && eventsMatch);
  const s = setup();
  try {
    s.deliver({ ...env, type: 'reply', id: 1, payload: { value: INFO } });
    await s.player.ready();
    const args: Record<string, unknown> = { setQuality: 720, setAudioTrack: 'English', setSubtitles: 'off', setPlaybackRate: 1.5 };
    for (const method of METHODS) {
      void settled((s.player[method] as (a?: unknown) => Promise<unknown>)(args[method]));
      const m = s.sent.at(-1)!.data;
      assert.equal([m.type, m.method, m.params], ['request', method, args[method]], method);
    }
    const got: unknown[] = [];
    for (const name of EVENTS) s.player.on(name, (d) => got.push([name, d]));
    const data = { height: 720, auto: false };
    for (const name of EVENTS) s.deliver({ ...env, type: 'event', payload: { name, data } });
    assert.equal(got, EVENTS.map((name) => [name, data]));
    s.deliver({ ...env, type: 'event', payload: { name: 'qualitychanged', data } });
    s.deliver({ ...env, type: 'event', payload: { name: 'qualityChanged', data: null } });
    assert.equal(got.at(-1), ['qualityChanged', {}], 'an unknown name is dropped; missing data is {}');
    assert.is(got.length, EVENTS.length + 1);
  } finally {
    s.player.destroy();
    s.restore();
  }
});

test('hostile payloads never throw: proxies, junk replies, odd error shapes', async () => {
  const s = setup();
  const warn = console.warn;
  console.warn = () => {};
  try {
    const hostile = new Proxy({}, { get() { throw new Error('boom'); }, has() { throw new Error('boom'); } });
    s.deliver({ ...env, type: 'reply', id: 1, payload: { value: INFO } });
    const p = settled(s.player.getVolume());
    const id = s.sent.at(-1)!.data.id;
    for (const data of [hostile, null, '{', 'x'.repeat(100000), { ...env, type: 'reply', id, payload: hostile }, { ...env, type: 'reply', id: 1, payload: { value: hostile } }]) {
      s.deliver(data);
    }
    s.deliver({ ...env, type: 'reply', id, payload: { error: { code: { evil: 1 }, message: 42 } } });
    const result = (await p) as { error: { code: string; message: string } };
    assert.is(typeof result.error.code, 'string');
    assert.is(result.error.message, '42');
  } finally {
    console.warn = warn;
    s.player.destroy();
    s.restore();
  }
});

test('destroy: the message listener goes, pending and later calls reject with destroyed', async () => {
  const s = setup();
  s.deliver({ ...env, type: 'reply', id: 1, payload: { value: INFO } });
  const pending = settled(s.player.seek(10));
  const before = settled(s.player.ready());
  s.player.destroy();
  assert.is(s.handlers.size, 0);
  assert.equal(((await pending) as { error: { code: string } }).error.code, 'destroyed');
  assert.ok('value' in (await before), 'ready stays resolved');
  assert.equal(((await settled(s.player.play())) as { error: { code: string } }).error.code, 'destroyed');
  await tick();
  s.restore();
});

test('a target that is no iframe, or none, without a movie id: a TypeError, before any listener or frame', () => {
  const g = globalThis as Record<string, unknown>;
  const saved = { addEventListener: g.addEventListener };
  let listened = 0;
  g.addEventListener = () => void listened++;
  try {
    for (const target of [{ localName: 'div' }, { localName: 'IFRAME' }, {}, null]) {
      assert.throws(() => createPlayer(target as unknown as HTMLElement, {}, 'https://partner.example/'), (e: Error) => e instanceof TypeError && e.message === 'createPlayer: movieId must be a positive integer');
    }
    assert.is(listened, 0);
  } finally {
    Object.assign(g, saved);
  }
});

test.run();
