import { batch } from '@preact/signals';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Fields } from '../../../src/analytics/fields';
import { TIMEUPDATE_MS, createTracker } from '../../../src/analytics/tracker';
import type { Content, Episode } from '../../../src/core/entities';
import { type AdHistoryItem, type PastEvent, createBus } from '../../../src/core/bus';
import { playerError, vastError } from '../../../src/core/errors';
import { createStore } from '../../../src/core/store';

const content: Content = {
  id: 1,
  title: 'Тестовый фильм',
  posterUrl: 'https://h/p.jpg',
  contentType: { slug: 'film' },
  kinopoiskId: 1001,
  year: 2024,
  countries: [{ slug: 'ru' }],
  languages: [{ code: 'ru' }],
  rating: { kinopoisk: { value: 7.8 }, imdb: { value: 7.5, url: 'https://www.imdb.com/title/tt0000001/' } },
  hasMultipleEpisodes: false,
};
const episode: Episode = { id: 101, contentId: 1, title: 'Тестовый фильм', order: 1, m3u8MasterFilePath: '/m.m3u8' };

/** A fake clock whose timers run as time is advanced. */
function fakeClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => (timers.set(++seq, { at: now + ms, fn }), seq),
    clearTimer: (id: unknown) => void timers.delete(id as number),
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = end;
    },
  };
}

function setup(duration = 100) {
  const bus = createBus();
  const store = createStore();
  const clock = fakeClock();
  const sent: Array<{ name: string; fields: Fields }> = [];
  store.content.value = content;
  store.episode.value = episode;
  store.duration.value = duration;
  const tracker = createTracker({
    bus,
    store,
    userId: 'u-9',
    deviceType: 'desktop',
    send: (name, fields) => sent.push({ name, fields }),
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  /** The media confirming playback, as providers/media.ts does. */
  const play = () => {
    bus.emit('media:play', { cause: 'user' });
    batch(() => {
      store.paused.value = false;
      store.started.value = true;
    });
    bus.emit('media:playing', { currentTime: store.currentTime.peek() });
  };
  const pause = () => {
    store.paused.value = true;
    bus.emit('media:pause', { cause: 'user' });
  };
  /** Plays `seconds` of wall time in 250 ms timeupdates at the current rate. */
  const run = (seconds: number) => {
    for (let i = 0; i < seconds * 4; i++) {
      clock.advance(250);
      store.currentTime.value += 0.25 * store.playbackRate.peek();
    }
  };
  const seekTo = (t: number) => {
    const from = store.currentTime.peek();
    store.waiting.value = true;
    store.currentTime.value = t;
    store.waiting.value = false;
    bus.emit('media:seeked', { from, to: t });
  };
  const names = () => sent.map((s) => s.name);
  const last = (name: string) => [...sent].reverse().find((s) => s.name === `videoplayer_${name}`)?.fields;
  return { bus, store, clock, sent, tracker, play, pause, run, seekTo, names, last };
}

test('play and pause carry the SPEC §7 fields', () => {
  const t = setup();
  t.play();
  t.run(4);
  t.pause();
  assert.equal(t.names(), ['videoplayer_play', 'videoplayer_pause']);
  const play = t.last('play')!;
  assert.is(play.video_id, 1);
  assert.is(play.video_title, 'Тестовый фильм');
  assert.is(play.player_type, 'embedded');
  assert.is(play.user_id, 'u-9');
  assert.is(play.play_cause, 'user');
  assert.is(play.current_time, 0);
  const pause = t.last('pause')!;
  assert.is(pause.current_time, 4);
  assert.is(pause.real_time_played_sec, 4);
  assert.is(pause.video_time_played_sec, 4);
  assert.is(pause.duration, 100);
});

test('real vs video time: at 2x the video time doubles; seeks and pauses do not count', () => {
  const t = setup(1000);
  t.play();
  t.store.playbackRate.value = 2;
  t.run(10);
  t.seekTo(500);
  t.run(5);
  t.pause();
  t.clock.advance(30_000);
  t.play();
  t.run(5);
  t.pause();
  const f = t.last('pause')!;
  assert.is(f.real_time_played_sec, 20);
  assert.is(f.video_time_played_sec, 40);
  assert.is(f.current_time, 520);
  assert.is(t.last('seek')!.seek_from, 20);
  assert.is(t.last('seek')!.seek_to, 500);
});

test('progress milestones fire once each, only when played through, 100 at the end', () => {
  const t = setup(100);
  t.play();
  t.run(30); // 0 → 30: 10, 25
  t.seekTo(5);
  t.run(25); // 5 → 30 again: nothing new
  t.seekTo(60); // jumps over 50: not watched
  t.run(20); // 60 → 80: 75
  t.seekTo(94);
  t.run(6); // 94 → 100: 95
  t.pause();
  t.bus.emit('media:ended', { currentTime: 100 });
  const progress = t.sent.filter((s) => s.name === 'videoplayer_progress').map((s) => s.fields.video_percent);
  assert.equal(progress, [10, 25, 75, 95, 100]);
  assert.not.ok(t.names().includes('videoplayer_pause'), 'the pause at the end is not the viewer’s');
  t.bus.emit('content:episode-changed', { episode: { ...episode, id: 102 } });
  t.store.currentTime.value = 0;
  t.play();
  t.run(11);
  assert.is(t.sent.filter((s) => s.name === 'videoplayer_progress').length, 6, 'a new episode starts over');
});

test('the 60 s time update counts real playing time only', () => {
  const t = setup(3600);
  t.play();
  t.run(59);
  assert.not.ok(t.names().includes('videoplayer_timeupdate'));
  t.run(1);
  assert.is(t.names().filter((n) => n === 'videoplayer_timeupdate').length, 1);
  assert.is(t.last('timeupdate')!.real_time_played_sec, 60);
  t.run(30);
  t.pause();
  t.clock.advance(10 * TIMEUPDATE_MS);
  assert.is(t.names().filter((n) => n === 'videoplayer_timeupdate').length, 1, 'nothing while paused');
  t.play();
  t.store.waiting.value = true;
  t.clock.advance(5 * TIMEUPDATE_MS);
  assert.is(t.names().filter((n) => n === 'videoplayer_timeupdate').length, 1, 'nothing while buffering');
  t.store.waiting.value = false;
  t.run(30);
  const updates = t.sent.filter((s) => s.name === 'videoplayer_timeupdate');
  assert.is(updates.length, 2);
  assert.is(updates[1].fields.real_time_played_sec, 120);
  t.tracker.destroy();
  t.clock.advance(10 * TIMEUPDATE_MS);
  assert.is(t.sent.filter((s) => s.name === 'videoplayer_timeupdate').length, 2, 'destroy stops the timer');
});

test('mute/unmute, fullscreen, quality change, fps drop, network type, buffering errors (throttled), fatal errors', () => {
  const t = setup();
  t.store.qualities.value = [
    { id: 0, width: 426, height: 240, bitrate: 300_000, codec: 'avc1' },
    { id: 1, width: 1280, height: 720, bitrate: 2_500_000, codec: 'avc1' },
  ];
  t.store.level.value = 1;
  t.bus.emit('media:volume', { volume: 1, muted: false });
  t.bus.emit('media:volume', { volume: 1, muted: true });
  t.bus.emit('media:volume', { volume: 0.5, muted: true });
  t.bus.emit('media:volume', { volume: 0.5, muted: false });
  t.bus.emit('player:fullscreen', { active: true });
  t.store.quality.value = 0;
  t.store.quality.value = -1;
  t.bus.emit('media:stats', { bandwidth: 20_000_000 });
  t.bus.emit('media:stats', { dropped: 40, decoded: 100 });
  t.store.currentTime.value = 10;
  t.store.bufferedEnd.value = 12.5;
  // The engine's recoverable errors are player:error with fatal false, the hls.js details as message.
  const stalled = () => t.bus.emit('player:error', { error: playerError('media-recoverable', 'bufferStalledError') });
  stalled();
  t.clock.advance(1000);
  stalled();
  t.clock.advance(10_000);
  stalled();
  t.bus.emit('player:error', { error: playerError('media-load-failed', 'manifestLoadError') });
  assert.equal(t.names(), [
    'videoplayer_mute',
    'videoplayer_unmute',
    'videoplayer_fullscreen',
    'videoplayer_quality_change',
    'videoplayer_quality_change',
    'videoplayer_fps_drop',
    'videoplayer_buffering_error',
    'videoplayer_buffering_error',
    'videoplayer_error',
  ]);
  assert.is(t.sent[2].fields.fullscreen, 1);
  assert.is(t.sent[3].fields.video_quality, '240p');
  assert.is(t.sent[4].fields.video_quality, 'auto');
  assert.is(t.sent[5].fields.dropped_frames, 40);
  assert.is(t.sent[5].fields.network_type, '4g', '20 Mb/s from the engine = 2500 kB/s');
  const buffering = t.last('buffering_error')!;
  assert.is(buffering.error_type, 'bufferStalledError');
  assert.is(buffering.buffer_length, 2.5);
  assert.is(buffering.video_quality, '720p', 'the rendition playing');
  assert.is(t.last('error')!.error_type, 'media:manifestLoadError');
});

test('ad events with the ad arrays; ad timeupdate at most once a second; share and menu clicks', () => {
  const t = setup();
  const ad: AdHistoryItem = { id: 'vast-1', type: 'preroll', position: 1, duration: 15, perc: 0 };
  t.bus.emit('ad:init', { type: 'preroll' });
  t.bus.emit('ad:loaded', { ad });
  t.bus.emit('ad:play', { ad });
  for (let i = 0; i < 8; i++) {
    t.bus.emit('ad:timeupdate', { ad, currentTime: i * 0.25 });
    t.clock.advance(250);
  }
  t.bus.emit('ad:pause', { ad });
  t.bus.emit('ad:click', { ad, href: 'https://advertiser.example/landing' });
  t.bus.emit('ad:skip', { ad });
  t.bus.emit('ad:ended', { ad });
  const mid: AdHistoryItem = { id: 'vast-2', type: 'midroll', position: 2, duration: 30, perc: 50 };
  t.bus.emit('ad:play', { ad: mid });
  t.bus.emit('player:error', { error: vastError(403, 'Not found supported mediaFile') });
  t.bus.emit('ui:share', { target: 'telegram', withTime: true });
  t.bus.emit('ui:menu-click', { page: 'quality', item: '720p' });
  assert.equal(t.names(), [
    'videoplayer_ad_init',
    'videoplayer_ad_loaded',
    'videoplayer_ad_play',
    'videoplayer_ad_timeupdate',
    'videoplayer_ad_timeupdate',
    'videoplayer_ad_pause',
    'videoplayer_ad_banner_click',
    'videoplayer_ad_skip_btn_click',
    'videoplayer_ad_ended',
    'videoplayer_ad_play',
    'videoplayer_ad_error',
    'videoplayer_share',
    'videoplayer_menu_click',
  ]);
  assert.equal(t.sent[1].fields.ad_id, ['vast-1']);
  assert.is(t.sent[6].fields.href, 'https://advertiser.example/landing');
  const last = t.sent[9].fields;
  assert.equal(last.ad_id, ['vast-1', 'vast-2']);
  assert.equal(last.ad_type, ['preroll', 'midroll']);
  assert.equal(last.ad_duration_sec, [15, 30]);
  assert.equal(last.ad_position_perc, [0, 50]);
  assert.equal(last.ad_position, [1, 2]);
  assert.is(t.sent[10].fields.error_type, '403', 'the IAB VAST code of the ad error');
  assert.is(t.sent[10].fields.error_message, 'Not found supported mediaFile');
  assert.is(t.last('share')!.share_target, 'telegram');
  assert.is(t.last('share')!.share_with_time, 1);
  assert.is(t.last('menu_click')!.menu_page, 'quality');
  assert.is(t.last('menu_click')!.menu_item, '720p');
});

test('skip_intro and credits_next carry the SPEC §7 fields of the episode playing, with what was skipped and where it moves on', () => {
  const t = setup();
  t.play();
  t.run(3);
  t.bus.emit('ui:skip-intro', { from: 3.04, to: 17 });
  const skip = t.last('skip_intro')!;
  assert.is(skip.skip_from, 3);
  assert.is(skip.skip_to, 17);
  assert.is(skip.video_id, 1);
  assert.is(skip.player_type, 'embedded');
  assert.is(skip.current_time, 3);
  const next = { ...episode, id: 999, order: 2 };
  t.bus.emit('ui:credits', { episode, next });
  assert.is(t.last('credits_next'), undefined, 'reaching the credits is no analytics event');
  t.bus.emit('ui:credits-next', { next });
  const moved = t.last('credits_next')!;
  assert.is(moved.next_episode_id, 999);
  assert.is(moved.video_id, 1);
  assert.is(moved.duration, 100);
});

test('events seen before analytics loaded are replayed with their own time', () => {
  const t = setup();
  t.store.currentTime.value = 3;
  const past: PastEvent[] = [
    { event: 'media:play', payload: { cause: 'autoplay' }, at: 0, time: 0 },
    { event: 'media:volume', payload: { volume: 1, muted: true }, at: 10, time: 0 },
    { event: 'content:loaded', payload: {}, at: 0, time: 0 },
  ];
  t.tracker.replay(past);
  assert.equal(t.names(), ['videoplayer_play', 'videoplayer_mute']);
  assert.is(t.sent[0].fields.current_time, 0, 'the time of the event, not of the replay');
  assert.is(t.sent[0].fields.play_cause, 'autoplay');
});

test('a replay sends only the newest ad timeupdate; the live ones after it keep a second of real time apart', () => {
  const t = setup();
  const ad: AdHistoryItem = { id: 'vast-1', type: 'preroll', position: 1, duration: 6, perc: 0 };
  const past: PastEvent[] = [
    { event: 'ad:init', payload: { type: 'preroll' }, at: 0, time: 0 },
    { event: 'ad:play', payload: { ad }, at: 10, time: 0 },
    ...[1, 2, 3, 4, 5].map((s): PastEvent => ({ event: 'ad:timeupdate', payload: { ad, currentTime: s }, at: s * 1000, time: 0 })),
  ];
  t.clock.advance(5500);
  t.tracker.replay(past);
  assert.equal(t.names(), ['videoplayer_ad_init', 'videoplayer_ad_play', 'videoplayer_ad_timeupdate']);
  assert.is(t.last('ad_timeupdate')!.ad_current_time, 5, 'the newest position');
  t.bus.emit('ad:timeupdate', { ad, currentTime: 5.25 });
  assert.is(t.names().length, 3, 'not within a second of the replayed one');
  t.clock.advance(1000);
  t.bus.emit('ad:timeupdate', { ad, currentTime: 6 });
  assert.is(t.names().length, 4);
});

test.run();
