// The partner SDK protocol: the message reader both sides use, the SDK's player address, and the
// player's side (request/reply matching, refusals, events only after hello, hostile payloads).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import { readMessage } from '../../../src/core/embed-protocol';
import type { PlayerParts } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import { playerAddress } from '../../../src/embed/sdk';
import { type Send, createRemote } from '../../../src/features/remote';
import { ep } from '../content/fixtures';

const env = { protocol: 'embed-player', version: 1 };
const tick = () => new Promise((r) => setTimeout(r, 0));

test('readMessage: our envelope as an object or JSON text; anything else is undefined, never a throw', () => {
  assert.equal(readMessage({ ...env, type: 'request', id: 3, method: 'play', params: 1 }), { type: 'request', id: 3, method: 'play', params: 1, payload: undefined });
  assert.is(readMessage(JSON.stringify({ ...env, type: 'hello', id: 1 }))?.type, 'hello');
  const hostile = new Proxy({}, { get() { throw new Error('boom'); } });
  for (const [i, junk] of [
    null, undefined, 42, 'x', '{bad', '[1]', [], hostile, 'x'.repeat(70000),
    { ...env, version: 2, type: 'hello' },
    { protocol: 'other', version: 1, type: 'hello' },
    { ...env, type: 7 },
  ].entries()) {
    assert.is(readMessage(junk), undefined, `junk ${i}`);
  }
  for (const id of [0, -1, 1.5, '3', NaN, Number.MAX_VALUE]) assert.is(readMessage({ ...env, type: 'reply', id })?.id, undefined, `id ${id}`);
  assert.is(readMessage({ ...env, type: 'request', id: 1, method: {} })?.method, undefined);
});

test('playerAddress: options become the SPEC §2 query, next to the SDK by default', () => {
  assert.is(
    playerAddress({ movieId: 2, season: 1, episode: 3, t: 30, autoplay: true, share: true, langOrder: ['en', 'ru'], userId: 'u 1', voiceAuthor: 'A&B', episodeVariantId: 9, episodeId: 5 }, 'https://p.example/player/embed.mjs'),
    'https://p.example/player/?movie_id=2&episode_id=5&season=1&episode=3&t=30&auto_play=1&enabled_share=1&user_id=u+1&voice_author=A%26B&episode_variant_id=9&lang_order=en&lang_order=ru',
  );
  assert.is(playerAddress({ movieId: 1, autoplay: false, playerUrl: '/p/' }, 'https://p.example/player/embed.js'), 'https://p.example/p/?movie_id=1');
});

/**
 * `attached`: the media is there (as when the UI attached it), else it comes with `attach()`;
 * `announced`: its source event reaches the remote (not when the features piece came after it).
 */
function setup({ attached = true, announced = true } = {}) {
  const store = createStore();
  const bus = createBus();
  const asked: string[] = [];
  let playWorks = true;
  // As the controller's requests: before the media is attached, volume, mute and seeks do nothing.
  let media = false;
  const attach = (announce = true) => {
    media = true;
    if (announce) bus.emit('media:source', { url: 'https://cdn.example/a.m3u8', engine: 'hls' });
  };
  const requests = {
    play: () => {
      asked.push('play');
      store.playRequested.value = true;
      setTimeout(() => (playWorks ? (store.paused.value = false) : (store.playRequested.value = false)), 1);
    },
    pause: () => asked.push('pause'),
    seek: (t: number) => media && setTimeout(() => ((store.currentTime.value = t), bus.emit('media:seeked', { from: 0, to: t })), 1),
    setVolume: (v: number) => media && (store.volume.value = v),
    // The player's own toggle: at volume 0 it unmutes at 0.25.
    toggleMute: () => {
      if (!media) return;
      asked.push('toggleMute');
      if (store.muted.value || store.volume.value === 0) {
        if (store.volume.value === 0) store.volume.value = 0.25;
        store.muted.value = false;
      } else store.muted.value = true;
    },
    selectEpisode: (e: ReturnType<typeof ep>) => (store.isAvailable.value ? ((store.episode.value = e), true) : false),
  };
  bus.on('parent:command', ({ actionType }) => actionType === 'pause' && (store.paused.value = true));
  const sent: Array<{ type: string; id?: number; payload: any; to: string }> = [];
  const send: Send = (type, { id, payload }, to) => sent.push({ type, id, payload, to });
  const remote = createRemote({ store, bus, requests, config: { langOrder: [] } } as unknown as PlayerParts, send);
  const request = (id: number, method: unknown, params?: unknown) => remote.receive({ ...env, type: 'request', id, method, params }, 'https://partner.example');
  const reply = async (id: number) => {
    for (let i = 0; i < 50 && !sent.some((s) => s.type === 'reply' && s.id === id); i++) await new Promise((r) => setTimeout(r, 2));
    return sent.find((s) => s.type === 'reply' && s.id === id)?.payload;
  };
  if (attached) attach(announced);
  return { store, bus, asked, sent, remote, request, reply, attach, refusePlay: () => (playWorks = false) };
}

test('hello: answered at its origin with the methods and events; only then are events streamed', async () => {
  const s = setup();
  s.bus.emit('media:play', { cause: 'api' });
  assert.equal(s.sent, [], 'no SDK, no events');
  assert.ok(s.remote.receive({ ...env, type: 'hello', id: 1 }, 'https://partner.example'));
  assert.is(s.sent[0].type, 'reply');
  assert.is(s.sent[0].id, 1);
  assert.is(s.sent[0].to, 'https://partner.example');
  assert.ok(s.sent[0].payload.value.methods.includes('selectEpisode'));
  s.bus.emit('media:play', { cause: 'api' });
  s.bus.emit('media:volume', { volume: 0.5, muted: true });
  assert.equal(s.sent.slice(1).map((m) => m.payload), [{ name: 'play', data: {} }, { name: 'volumechange', data: { volume: 0.5, muted: true } }]);
  s.remote.dispose();
});

test('loaded while a pre-roll plays (autoplay waits for its first frame): a hello hears adStart, and adEnd follows', () => {
  const store = createStore();
  const bus = createBus();
  const ad = { id: 'pre-1', type: 'preroll', position: 1, duration: 6, perc: 0, skipOffset: 2 } as const;
  store.adState.value = 'ready';
  store.currentAd.value = ad;
  const sent: Array<{ type: string; payload: any }> = [];
  const remote = createRemote({ store, bus, requests: {}, config: { langOrder: [] } } as unknown as PlayerParts, (type, { payload }) => sent.push({ type, payload }));
  remote.receive({ ...env, type: 'hello', id: 1 }, 'https://partner.example');
  assert.equal(sent.filter((m) => m.type === 'event').map((m) => m.payload), [
    { name: 'adStart', data: { id: 'pre-1', type: 'preroll', position: 1, duration: 6, skipOffset: 2 } },
  ]);
  bus.emit('ad:ended', { ad });
  assert.equal(sent.at(-1)?.payload, { name: 'adEnd', data: {} });
  remote.dispose();
});

test('timeupdate: at most one per 250 ms', () => {
  const s = setup();
  s.remote.receive({ ...env, type: 'hello', id: 1 }, 'https://partner.example');
  for (let t = 1; t <= 20; t++) s.store.currentTime.value = t / 10;
  assert.is(s.sent.filter((m) => m.payload?.name === 'timeupdate').length, 1);
  s.remote.dispose();
});

test('requests: each reply carries its request id; getters at once, commands once confirmed', async () => {
  const s = setup();
  s.store.currentTime.value = 12;
  s.request(5, 'getCurrentTime');
  s.request(6, 'play');
  s.request(7, 'setVolume', 0.25);
  assert.equal(await s.reply(5), { value: 12 });
  assert.equal(await s.reply(7), { value: null });
  assert.equal(await s.reply(6), { value: null });
  assert.is(s.store.paused.value, false);
  s.request(8, 'pause');
  assert.equal(await s.reply(8), { value: null });
  s.store.duration.value = 100;
  s.request(9, 'seek', 40);
  assert.equal(await s.reply(9), { value: 40 });
  s.request(10, 'mute');
  assert.equal(await s.reply(10), { value: null });
  assert.ok(s.store.muted.value);
  s.remote.dispose();
});

test('mute, setVolume and seek asked before the media is ready wait for it, then apply and resolve', async () => {
  const s = setup({ attached: false });
  s.store.volume.value = 0.8;
  s.request(1, 'mute');
  s.request(2, 'setVolume', 0.5);
  s.request(3, 'seek', 40);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(s.sent, [], 'nothing answered while the media is not there');
  assert.equal(s.asked, []);
  s.attach();
  assert.equal(await s.reply(1), { value: null });
  assert.equal(await s.reply(2), { value: null });
  assert.ok(s.store.muted.value, 'muted');
  assert.is(s.store.volume.value, 0.5);
  assert.not.ok(s.sent.some((m) => m.id === 3), 'a seek also waits for the duration');
  s.store.duration.value = 100;
  assert.equal(await s.reply(3), { value: 40 });
  s.remote.dispose();
});

test('a media already reporting a duration is ready (this piece came after its source); mute at volume 0 mutes', async () => {
  const s = setup({ announced: false });
  s.store.volume.value = 0;
  s.request(1, 'mute');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(s.sent, []);
  s.store.duration.value = 60;
  assert.equal(await s.reply(1), { value: null });
  assert.ok(s.store.muted.value, 'muted');
  assert.equal(s.asked, ['toggleMute', 'toggleMute'], "the player's toggle unmutes at 0.25 first, the second mutes");
  s.remote.dispose();
});

test('refusals: unknown methods, bad arguments, missing episodes, an unavailable content, a refused play', async () => {
  const s = setup();
  s.store.loading.value = false;
  s.store.episodes.value = [ep(201, 1, 1), ep(202, 1, 2)];
  const cases: Array<[unknown, unknown, string]> = [
    ['nope', undefined, 'unknown-method'],
    ['__proto__', undefined, 'unknown-method'],
    ['hasOwnProperty', undefined, 'unknown-method'],
    [{ toString: 1 }, undefined, 'unknown-method'],
    ['seek', -1, 'bad-arguments'],
    ['seek', 'abc', 'bad-arguments'],
    ['setVolume', 2, 'bad-arguments'],
    ['selectEpisode', { season: 9 }, 'episode-not-found'],
    ['selectEpisode', null, 'episode-not-found'],
    ['selectEpisode', { id: '201' }, 'episode-not-found'],
  ];
  cases.forEach(([method, params], i) => s.request(100 + i, method, params));
  for (const [i, [, , code]] of cases.entries()) assert.is((await s.reply(100 + i))?.error?.code, code, `case ${i}`);

  s.request(200, 'selectEpisode', { season: 1, episode: 2 });
  assert.is((await s.reply(200)).value.id, 202);
  s.store.isAvailable.value = false;
  s.request(201, 'selectEpisode', { id: 201 });
  assert.is((await s.reply(201)).error.code, 'content-not-available');

  s.refusePlay();
  s.request(202, 'play');
  assert.is((await s.reply(202)).error.code, 'autoplay-refused');
  s.remote.dispose();
});

test('a fatal error rejects a waiting command with its code; dispose rejects what still waits', async () => {
  const s = setup();
  // selectEpisode waits for the content to load (store.loading is true at first).
  s.request(1, 'selectEpisode', { id: 201 });
  await tick();
  s.store.error.value = { category: 'content', code: 'content-not-found', fatal: true, message: 'gone' };
  assert.equal((await s.reply(1)).error, { code: 'content-not-found', message: 'gone' });
  s.store.error.value = null;
  s.request(2, 'selectEpisode', { id: 201 });
  await tick();
  s.remote.dispose();
  assert.is((await s.reply(2)).error.code, 'destroyed');
});

test('hostile messages are refused without a throw', async () => {
  const s = setup();
  const hostile = new Proxy({}, { get() { throw new Error('boom'); } });
  assert.not.ok(s.remote.receive(hostile, 'https://x.example'));
  assert.not.ok(s.remote.receive('{"protocol":"embed-player"', 'https://x.example'));
  assert.ok(s.remote.receive({ ...env, type: 'request', id: 1, method: 'getPaused', params: hostile }, 'null'));
  await s.reply(1);
  assert.equal(s.sent.at(-1), { type: 'reply', id: 1, payload: { value: true }, to: '*' }, "an opaque ('null') origin is answered at '*'");
  const warn = console.warn;
  const logged: unknown[][] = [];
  console.warn = (...a: unknown[]) => logged.push(a);
  try {
    for (let i = 0; i < 3; i++) assert.ok(s.remote.receive({ ...env, type: 'whatever' }, 'https://x.example'));
    assert.ok(s.remote.receive({ ...env, type: 'request', id: '7', method: 'play' }, 'https://x.example'));
    for (let i = 0; i < 50; i++) s.remote.receive({ ...env, type: `junk${i}` }, 'https://x.example');
  } finally {
    console.warn = warn;
  }
  assert.equal(logged.slice(0, 2).map((a) => a[1]), ['whatever', 'request'], 'a log line for each kind, once');
  assert.is(logged.length, 8, 'a flood is not logged without end');
  assert.not.ok(s.sent.some((m) => m.type === 'reply' && m.id === undefined), 'a request without an id is not answered');
  s.remote.dispose();
});

test.run();
