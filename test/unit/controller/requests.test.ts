import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayback } from '../../../src/controller/playback';
import { createRequests } from '../../../src/controller/requests';
import { createLaterRequests } from '../../../src/controller/later-requests';
import { createBus } from '../../../src/core/bus';
import type { Episode } from '../../../src/core/entities';
import { playerError } from '../../../src/core/errors';
import { createStore } from '../../../src/core/store';
import { ep } from '../content/fixtures';
import { installDom } from '../dom';
import { fakeClock, fakeMedia, flush, quiet } from '../fakes';

const episodes = [ep(201, 1, 1), ep(202, 1, 2), ep(204, 2, 1, { episodeVariants: [{ id: 2041, title: 'A', filepath: '/a.m3u8' }, { id: 2042, title: 'B', filepath: '/b.m3u8' }] })];

/**
 * The requests over a real store and playback, a fake provider (Media) and a fake clock; the lazy
 * piece `requests` is already here unless `laterLoaded` is false (then it comes with `arrive()`).
 */
function setup({ attach = true, adHolds = false, laterLoaded = true } = {}) {
  const dom = installDom();
  const root = dom.document.createElement('div') as unknown as HTMLElement;
  const store = createStore();
  store.episodes.value = episodes;
  store.episode.value = episodes[0];
  const clock = fakeClock();
  const { media, calls, answerPlays } = fakeMedia(store);
  const log: string[] = [];
  let holds = adHolds;
  const playback = createPlayback(store, { mediaSource: false, nativeHls: true }, false, () => holds);
  const later = createLaterRequests({
    store,
    bus: createBus(),
    fullscreenMode: 'stretched',
    container: () => root,
    media: playback.media,
    ready: playback.ready,
    setSource: (url, startAt) => log.push(`source ${url} @${startAt}`),
  });
  let loaded = laterLoaded;
  let arrive = () => {};
  const laterLoad = new Promise<typeof later>((resolve) => (arrive = () => ((loaded = true), resolve(later))));
  if (laterLoaded) arrive();
  const requests = createRequests({
    store,
    playback,
    later: () => (loaded ? later : undefined),
    loadLater: () => laterLoad,
    adHolds: () => holds,
    loadEpisode: (e: Episode, startAt?: number) => {
      log.push(`load ${e.id}${startAt === undefined ? '' : ` @${startAt}`}`);
      store.episode.value = e;
    },
    variantChanged: (e, id) => {
      if (!e.episodeVariants?.some((v) => v.id === id)) return false;
      log.push(`variant ${id}`);
      return true;
    },
    retry: () => log.push('retry'),
  });
  if (attach) playback.attach(media);
  return { store, requests, playback, media, calls, answerPlays, log, clock, arrive, release: () => (holds = false) };
}

test('play: marks the request; the media confirms it; a refused play clears the request', async () => {
  const s = setup();
  s.playback.setSource('https://h/a.m3u8', 0);
  await flush();
  s.calls.length = 0;
  s.answerPlays(false);
  s.requests.play('api');
  assert.ok(s.store.playRequested.value);
  await flush();
  assert.equal(s.calls, ['play api']);
  assert.not.ok(s.store.playRequested.value, 'refused: no longer asked for');
  s.requests.play();
  await flush();
  assert.equal(s.calls, ['play api', 'play user'], 'the cause defaults to the viewer');
  assert.not.ok(s.store.paused.value);
});

test('play waits for a source and for the ads, then starts; an error on screen refuses it', async () => {
  const s = setup({ adHolds: true });
  s.requests.play();
  assert.ok(s.store.playRequested.value);
  assert.equal(s.calls, [], 'no source yet');
  s.playback.setSource('https://h/a.m3u8', 0);
  await flush();
  assert.equal(s.calls, ['load https://h/a.m3u8 @0'], 'an ad holds the content');
  s.release();
  s.playback.startIfAsked('ad');
  await flush();
  assert.equal(s.calls.slice(1), ['play ad'], 'the break ended: the content plays');
  const t = setup();
  t.store.error.value = playerError('media-load-failed', 'x');
  t.requests.play();
  assert.not.ok(t.store.playRequested.value);
  assert.equal(t.calls, []);
});

test('togglePlay: plays until the first start whatever the state says; afterwards toggles from the element', async () => {
  const s = setup();
  s.playback.setSource('https://h/a.m3u8', 0);
  await flush();
  s.calls.length = 0;
  // Not started yet (a play that was refused, say): a press always means play.
  s.store.paused.value = false;
  s.requests.togglePlay();
  await flush();
  assert.equal(s.calls, ['play user']);
  assert.ok(s.store.started.value);
  s.requests.togglePlay('api');
  assert.equal(s.calls, ['play user', 'pause api']);
  // The element's own state counts, not the store's (which follows a task later).
  s.store.paused.value = false;
  s.requests.togglePlay();
  await flush();
  assert.equal(s.calls, ['play user', 'pause api', 'play user']);
});

test('togglePlay before the <video> is attached: plays (the request waits), never pauses', () => {
  const s = setup({ attach: false });
  s.store.started.value = true;
  s.store.paused.value = true;
  s.requests.togglePlay();
  assert.ok(s.store.playRequested.value);
  s.store.paused.value = false;
  s.requests.togglePlay();
  assert.not.ok(s.store.playRequested.value, 'from the store: playing, so pause');
});

test('pause clears a pending play and pauses the media', () => {
  const s = setup();
  s.requests.play();
  s.requests.pause('api');
  assert.not.ok(s.store.playRequested.value);
  assert.equal(s.calls, ['pause api']);
});

test('playNext: selects the next episode (across seasons) and plays it; false at the end or when not allowed', () => {
  const s = setup();
  s.store.episode.value = episodes[1];
  assert.ok(s.requests.playNext());
  assert.equal(s.log, ['load 204']);
  assert.ok(s.store.playRequested.value, 'it plays');
  s.log.length = 0;
  assert.not.ok(s.requests.playNext(), 'the last episode stays where it is');
  assert.equal(s.log, []);
  const u = setup();
  u.store.isAvailable.value = false;
  assert.not.ok(u.requests.playNext(), 'content not available (SPEC §5)');
  u.store.isAvailable.value = true;
  u.store.error.value = playerError('media-load-failed', 'x');
  assert.not.ok(u.requests.playNext(), 'an error on screen');
  assert.equal(u.log, []);
  assert.not.ok(u.store.playRequested.value);
});

test('selectEpisode: only while available and without error; clears the variant; keeps playing only if it was', () => {
  const s = setup();
  s.store.activeVariantId.value = 2041;
  assert.ok(s.requests.selectEpisode(episodes[1], 30));
  assert.equal(s.log, ['load 202 @30']);
  assert.is(s.store.activeVariantId.value, null, 'the next episode chooses its own variant');
  assert.not.ok(s.store.playRequested.value, 'paused: stays paused');
  s.store.paused.value = false;
  s.requests.selectEpisode(episodes[0]);
  assert.ok(s.store.playRequested.value, 'playing: keeps playing');
  const ended = setup();
  ended.store.ended.value = true;
  ended.requests.selectEpisode(episodes[1]);
  assert.ok(ended.store.playRequested.value, 'at the end of an episode: the next one plays');
  const blocked = setup();
  blocked.store.isAvailable.value = false;
  assert.not.ok(blocked.requests.selectEpisode(episodes[1]));
  assert.equal(blocked.log, []);
});

test('selectVariant: only a variant of the current episode; reloads the same episode', () => {
  const s = setup();
  s.store.episode.value = episodes[2];
  assert.not.ok(s.requests.selectVariant(9999));
  assert.ok(s.requests.selectVariant(2042, 12));
  assert.equal(s.log, ['variant 2042', 'load 204 @12']);
  s.store.error.value = playerError('media-load-failed', 'x');
  assert.not.ok(s.requests.selectVariant(2041));
  const none = setup();
  none.store.episode.value = null;
  assert.not.ok(none.requests.selectVariant(2041));
});

test('setAudioTrack: a stream track goes to the media; with several descriptor sources it switches the source at the current time', () => {
  const s = setup();
  s.requests.setAudioTrack(1);
  assert.equal(s.calls, ['audio 1']);
  s.store.descriptor.value = {
    sources: [
      { label: 'Русский', link: 'https://h/rus.m3u8', isDefault: true },
      { label: 'English', link: 'https://h/eng.m3u8', isDefault: false },
    ],
    subtitles: [],
  };
  s.store.sourceUrl.value = 'https://h/rus.m3u8';
  s.store.currentTime.value = 42;
  s.requests.setAudioTrack(0);
  s.requests.setAudioTrack(7);
  assert.equal(s.log, [], 'the source playing, or one that does not exist: nothing');
  s.store.paused.value = false;
  s.requests.setAudioTrack(1);
  assert.equal(s.log, ['source https://h/eng.m3u8 @42']);
  assert.ok(s.store.playRequested.value, 'playing: resumes on the new source');
});

test('bad numbers are ignored: rate, gain, volume (with a warning); volume above 0 unmutes', async () => {
  const s = setup();
  const { warnings } = await quiet(() => {
    s.requests.setPlaybackRate(0);
    s.requests.setPlaybackRate(-1);
    s.requests.setPlaybackRate(Number.NaN);
    s.requests.setAudioGain(Number.POSITIVE_INFINITY);
    s.requests.setAudioGain(0);
    s.requests.setVolume(Number('abc'));
  });
  assert.equal(s.calls, []);
  assert.equal(warnings.map((w) => w[0]), ['[player] volume is not a number']);
  s.requests.setPlaybackRate(1.5);
  s.requests.setAudioGain(2);
  s.store.muted.value = true;
  s.requests.setVolume(0.5);
  assert.equal(s.calls, ['rate 1.5', 'gain 2', 'volume 0.5', 'muted false']);
});

test("SPEC §8 'media not ready': requests before the <video> is attached are logged, not thrown", async () => {
  const s = setup({ attach: false });
  const { warnings } = await quiet(() => {
    s.requests.setQuality(1);
    s.requests.setTextTrack(-1);
    s.requests.toggleMute();
    s.requests.togglePip();
    s.requests.airplay();
  });
  assert.equal(warnings.map((w) => w[0]), Array(5).fill('[player] media not ready'));
  assert.is(await s.requests.cast(), false, 'no cast without media');
});

test('fullscreen goes to the container at once, within the click user activation; retry to its owner', () => {
  const s = setup();
  s.requests.toggleFullscreen();
  assert.ok(s.store.fullscreen.value, 'stretched here: the store says so synchronously');
  s.requests.retry();
  assert.equal(s.log, ['retry']);
});

test('a request the lazy piece answers, made before it arrived, runs when it arrives, in order', async () => {
  const s = setup({ laterLoaded: false });
  s.playback.setSource('https://h/a.m3u8', 0);
  await flush();
  s.calls.length = 0;
  s.requests.setVolume(0.5);
  s.requests.seek(12);
  await flush();
  assert.equal(s.calls, [], 'nothing yet');
  s.arrive();
  await flush();
  assert.equal(s.calls, ['volume 0.5', 'seek 12']);
});

test.run();
