// The partner SDK's tracks on the player's side: quality, audio, subtitles, speed and the series, each
// command confirmed by what the engine reports (a fake engine here, answering a tick later), each refusal
// with its docs/errors.md code, each change (the SDK's or the menu's) an event; and the ad's details.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBus } from '../../../src/core/bus';
import type { Descriptor } from '../../../src/core/entities';
import type { PlayerParts } from '../../../src/core/player-api';
import { createStore } from '../../../src/core/store';
import { type Send, createRemote } from '../../../src/features/remote';
import { ep } from '../content/fixtures';

const env = { protocol: 'embed-player', version: 1 };
const later = (fn: () => void) => setTimeout(fn, 1);

const LEVELS = [
  { id: 0, width: 426, height: 240, bitrate: 3e4, codec: '' },
  { id: 1, width: 640, height: 360, bitrate: 6e4, codec: '' },
  { id: 2, width: 1280, height: 720, bitrate: 1e5, codec: '' },
];
const AUDIO = [
  { id: 0, label: 'Русский', language: 'ru' },
  { id: 1, label: 'English', language: 'en' },
  { id: 2, label: 'Русский AC3', language: 'ru' },
];
const SUBS = [{ id: 0, label: 'Русские', language: 'rus' }];

/** A loaded stream (`loaded`: its duration known) and an engine that confirms each request a tick later. */
function setup({ loaded = true } = {}) {
  const store = createStore();
  const bus = createBus();
  const asked: unknown[][] = [];
  store.qualities.value = LEVELS;
  store.level.value = 0;
  store.audioTracks.value = AUDIO;
  store.audioTrack.value = 0;
  store.textTracks.value = SUBS;
  const load = () => (store.duration.value = 100);
  if (loaded) load();
  const requests = {
    setQuality: (level: number) => {
      asked.push(['setQuality', level]);
      // As media-controls.ts: the choice at once, the level once its fragment plays.
      store.quality.value = level;
      if (level >= 0) later(() => (store.level.value = level));
    },
    setAudioTrack: (id: number) => (asked.push(['setAudioTrack', id]), later(() => (store.audioTrack.value = id))),
    setTextTrack: (id: number) => (asked.push(['setTextTrack', id]), later(() => (store.textTrack.value = id))),
    setPlaybackRate: (rate: number) => (asked.push(['setPlaybackRate', rate]), later(() => (store.playbackRate.value = rate))),
  };
  const sent: Array<{ type: string; id?: number; payload: any }> = [];
  const send: Send = (type, { id, payload }) => sent.push({ type, id, payload });
  const remote = createRemote({ store, bus, requests, config: { langOrder: [] } } as unknown as PlayerParts, send);
  remote.receive({ ...env, type: 'hello', id: 1 }, 'https://partner.example');
  let next = 100;
  const call = async (method: string, params?: unknown) => {
    const id = next++;
    remote.receive({ ...env, type: 'request', id, method, params }, 'https://partner.example');
    for (let i = 0; i < 100 && !sent.some((s) => s.type === 'reply' && s.id === id); i++) await new Promise((r) => setTimeout(r, 2));
    return sent.find((s) => s.type === 'reply' && s.id === id)?.payload;
  };
  const events = (name: string) => sent.filter((s) => s.type === 'event' && s.payload.name === name).map((s) => s.payload.data);
  return { store, bus, asked, remote, call, events, load, sent };
}

test('getters: qualities highest first with the level playing and auto; the audio tracks the viewer may choose (AC3 left out); subtitles; speed', async () => {
  const s = setup();
  assert.equal(await s.call('getQualities'), {
    value: { height: 240, auto: true, levels: [{ height: 720, width: 1280, bitrate: 1e5 }, { height: 360, width: 640, bitrate: 6e4 }, { height: 240, width: 426, bitrate: 3e4 }] },
  });
  assert.equal(await s.call('getAudioTracks'), { value: [{ label: 'Русский', language: 'ru', active: true }, { label: 'English', language: 'en', active: false }] });
  assert.equal(await s.call('getSubtitles'), { value: [{ label: 'Русские', language: 'rus', active: false }] });
  assert.equal(await s.call('getPlaybackRate'), { value: 1 });
  s.remote.dispose();
});

test('setQuality: a height resolves once that level plays, auto once the engine chooses; events only for what plays', async () => {
  const s = setup();
  assert.equal(await s.call('setQuality', 720), { value: null });
  assert.equal([s.store.level.value, s.store.quality.value], [2, 2]);
  assert.equal(s.events('qualityChanged'), [{ height: 720, auto: false }], 'not 240 fixed while the switch was on its way');
  assert.equal(await s.call('setQuality', 'auto'), { value: null });
  assert.is(s.store.quality.value, -1);
  // The engine's own choice in auto, and a viewer's pick in the menu, are reported the same way.
  s.store.level.value = 1;
  s.store.quality.value = 0;
  s.store.level.value = 0;
  assert.equal(s.events('qualityChanged'), [{ height: 720, auto: false }, { height: 720, auto: true }, { height: 360, auto: true }, { height: 240, auto: false }]);
  s.remote.dispose();
});

test('setAudioTrack by label: the engine switches, the store confirms; the menu’s switch is the same event', async () => {
  const s = setup();
  assert.equal(await s.call('setAudioTrack', 'English'), { value: null });
  assert.equal(s.asked, [['setAudioTrack', 1]]);
  s.store.audioTrack.value = 0;
  assert.equal(s.events('audioTrackChanged'), [{ label: 'English', language: 'en' }, { label: 'Русский', language: 'ru' }]);
  s.remote.dispose();
});

test('setAudioTrack with a descriptor of several sources: the source of that label, confirmed once it is loaded again', async () => {
  const s = setup();
  const descriptor = { sources: [{ label: 'Оригинал', link: 'https://cdn.example/a.m3u8', isDefault: true }, { label: 'Дубляж', link: 'https://cdn.example/b.m3u8', isDefault: false }], subtitles: [] } as Descriptor;
  s.store.descriptor.value = descriptor;
  s.store.sourceUrl.value = descriptor.sources[0].link;
  assert.equal((await s.call('getAudioTracks')).value, [{ label: 'Оригинал', language: '', active: true }, { label: 'Дубляж', language: '', active: false }]);
  // The controller's switch: a new source, its duration unknown until it loads.
  const pending = s.call('setAudioTrack', 'Дубляж');
  await new Promise((r) => setTimeout(r, 5));
  s.store.sourceUrl.value = descriptor.sources[1].link;
  await new Promise((r) => setTimeout(r, 5));
  assert.not.ok(s.sent.some((m) => m.type === 'reply' && m.id === 101), 'the new address with the old duration is no confirmation');
  s.store.duration.value = 0;
  await new Promise((r) => setTimeout(r, 5));
  s.store.duration.value = 100;
  assert.equal(await pending, { value: null });
  assert.equal(s.asked.at(-1), ['setAudioTrack', 1], 'the source index');
  s.remote.dispose();
});

test('setSubtitles: a language code (ru and rus alike) or off, confirmed by the engine; events both ways', async () => {
  const s = setup();
  assert.equal(await s.call('setSubtitles', 'ru'), { value: null });
  assert.is(s.store.textTrack.value, 0);
  assert.equal(await s.call('setSubtitles', 'off'), { value: null });
  assert.is(s.store.textTrack.value, -1);
  assert.equal(s.events('subtitlesChanged'), [{ language: 'rus', label: 'Русские' }, { language: 'off', label: null }]);
  s.remote.dispose();
});

test('setPlaybackRate: one of the SPEC §9 options, confirmed by the media; the event carries the rate', async () => {
  const s = setup();
  assert.equal(await s.call('setPlaybackRate', 1.5), { value: null });
  assert.equal(await s.call('getPlaybackRate'), { value: 1.5 });
  assert.equal(s.events('playbackRateChanged'), [{ playbackRate: 1.5 }]);
  s.remote.dispose();
});

test('commands asked before the stream is loaded wait for it; getSeasons and getEpisodes wait for the catalogue', async () => {
  const s = setup({ loaded: false });
  const quality = s.call('setQuality', 360);
  const rate = s.call('setPlaybackRate', 2);
  const episodes = s.call('getEpisodes');
  const seasons = s.call('getSeasons');
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(s.asked, [], 'nothing asked of a media without its stream');
  s.load();
  s.store.episodes.value = [ep(201, 1, 1), ep(202, 1, 2)];
  s.store.seasons.value = [{ id: 1, order: 1 }];
  s.store.loading.value = false;
  assert.equal(await quality, { value: null });
  assert.equal(await rate, { value: null });
  assert.equal((await episodes).value.map((e: { id: number }) => e.id), [201, 202]);
  assert.equal(await seasons, { value: [{ id: 1, order: 1 }] });
  s.remote.dispose();
});

test('refusals: each with its code, nothing asked of the engine', async () => {
  const s = setup();
  s.store.textTracks.value = [];
  const cases: Array<[string, unknown, string]> = [
    ['setQuality', 1080, 'quality-not-found'],
    ['setQuality', 0, 'bad-arguments'],
    ['setQuality', -720, 'bad-arguments'],
    ['setQuality', 720.5, 'bad-arguments'],
    ['setQuality', '720', 'bad-arguments'],
    ['setQuality', 'Auto', 'bad-arguments'],
    ['setQuality', NaN, 'bad-arguments'],
    ['setQuality', { height: 720 }, 'bad-arguments'],
    ['setAudioTrack', 'Deutsch', 'audio-track-not-found'],
    ['setAudioTrack', 'english', 'audio-track-not-found'],
    ['setAudioTrack', '', 'bad-arguments'],
    ['setAudioTrack', 1, 'bad-arguments'],
    ['setAudioTrack', 'x'.repeat(65), 'bad-arguments'],
    ['setAudioTrack', ['English'], 'bad-arguments'],
    ['setSubtitles', 'ru', 'subtitles-not-found'],
    ['setSubtitles', null, 'bad-arguments'],
    ['setSubtitles', { toString: () => 'ru' }, 'bad-arguments'],
    ['setPlaybackRate', 3, 'bad-arguments'],
    ['setPlaybackRate', 0, 'bad-arguments'],
    ['setPlaybackRate', '1.5', 'bad-arguments'],
    ['setPlaybackRate', 1.1, 'bad-arguments'],
    ['setPlaybackRate', Infinity, 'bad-arguments'],
  ];
  for (const [method, params, code] of cases) {
    const reply = await s.call(method, params);
    assert.is(reply?.error?.code, code, `${method}(${String(params).slice(0, 20)})`);
    assert.type(reply.error.message, 'string');
  }
  assert.equal(s.asked, []);
  s.remote.dispose();
});

test('a fatal error rejects a waiting track command with its code', async () => {
  const s = setup({ loaded: false });
  const pending = s.call('setAudioTrack', 'English');
  await new Promise((r) => setTimeout(r, 5));
  s.store.error.value = { category: 'media', code: 'media-load-failed', fatal: true, message: 'gone' };
  assert.equal((await pending).error, { code: 'media-load-failed', message: 'gone' });
  s.remote.dispose();
});

test('no change is reported while a new source loads, nor the same track once it is back', async () => {
  const s = setup();
  await s.call('setSubtitles', 'ru');
  // A new episode: the stream's lists go, then come back with the same audio; subtitles stay off there.
  s.store.duration.value = 0;
  s.store.audioTrack.value = -1;
  s.store.textTrack.value = -1;
  s.store.level.value = -1;
  s.store.audioTrack.value = 0;
  s.store.level.value = 0;
  s.store.duration.value = 50;
  assert.equal(s.events('audioTrackChanged'), []);
  assert.equal(s.events('qualityChanged'), []);
  assert.equal(s.events('subtitlesChanged'), [{ language: 'rus', label: 'Русские' }, { language: 'off', label: null }]);
  s.remote.dispose();
  s.store.playbackRate.value = 2;
  assert.equal(s.events('playbackRateChanged'), [], 'nothing after dispose');
});

test('ads: adStart with id, type, position, duration and skip offset (null when not skippable); adSkipped then adEnd; adClick with its address', () => {
  const s = setup();
  const ad = { id: 'skippable-1', type: 'preroll' as const, position: 1, duration: 6, perc: 0, skipOffset: 2 };
  s.bus.emit('ad:play', { ad });
  s.bus.emit('ad:click', { ad, href: 'https://ads.example/landing' });
  s.bus.emit('ad:skip', { ad });
  s.bus.emit('ad:play', { ad: { ...ad, id: 'mid', type: 'midroll', position: 2, skipOffset: NaN } });
  s.bus.emit('ad:ended', { ad });
  s.bus.emit('ad:play', { ad: { id: 'x', type: 'midroll', position: 3, duration: 0, perc: 50 } });
  const seen = s.events;
  assert.equal(seen('adStart'), [
    { id: 'skippable-1', type: 'preroll', position: 1, duration: 6, skipOffset: 2 },
    { id: 'mid', type: 'midroll', position: 2, duration: 6, skipOffset: null },
    { id: 'x', type: 'midroll', position: 3, duration: 0, skipOffset: null },
  ]);
  assert.equal(seen('adClick'), [{ id: 'skippable-1', type: 'preroll', position: 1, href: 'https://ads.example/landing' }]);
  assert.equal(seen('adSkipped'), [{ id: 'skippable-1', type: 'preroll', position: 1 }]);
  assert.is(seen('adEnd').length, 2, 'after the skip, and after the mid-roll');
  s.remote.dispose();
});

test.run();
