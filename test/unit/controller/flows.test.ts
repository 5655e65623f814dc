// Whole flows through createPlayer, in happy-dom: the catalogue served through a stubbed fetch, lazy
// pieces through a fake loader (the real features piece where a flow needs it), and a real <video>
// whose play()/pause() answer with media events (test/unit/fakes.ts).
import { act } from 'preact/test-utils';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HlsContext, PieceModules } from '../../../src/core/player-api';
import type { PlayerError } from '../../../src/core/errors';
import { screenOf } from '../../../src/core/errors';
import * as features from '../../../src/features/index';
import { MUTED_KEY, PROGRESS_KEY } from '../../../src/core/memory-protocol';
import { readStored, writeStored } from '../storage/memory-kit';
import { mountPlayer } from '../../../src/ui/player';
import { ORIGIN, fakeClock, filmRoutes, flush, quiet, seriesRoutes, stage, stubVideo } from '../fakes';

const src = (path: string) => `${ORIGIN}${path}`;
/**
 * The calls the media got after the last source change, repeats in a row collapsed: a play asked
 * for again before the element confirmed the first one is the same play (one play event).
 */
const sinceSource = (calls: string[]) =>
  calls.slice(calls.map((c) => c.startsWith('src ')).lastIndexOf(true)).filter((c, i, all) => c !== all[i - 1]);

test('binge: the end of an episode selects the next one and plays it, from its saved position', async () => {
  const s = stage('?movie_id=2', { routes: seriesRoutes(), pieces: { features } });
  writeStored(PROGRESS_KEY, { 204: 33 });
  await s.player.start();
  await flush();
  const { store, requests } = s.player;
  assert.is(store.episode.value?.id, 202);
  assert.is(s.v.video.getAttribute('src'), src('/m/202.m3u8'));
  requests.play();
  await flush();
  assert.ok(store.started.value && !store.paused.value, 'playing');
  s.v.tick(30);
  assert.equal(readStored(PROGRESS_KEY), { 204: 33, 202: 30 });
  const changed: number[] = [];
  s.player.bus.on('content:episode-changed', ({ episode }) => changed.push(episode.id));
  const plays: string[] = [];
  s.player.bus.on('media:play', ({ cause }) => plays.push(cause));
  s.v.end();
  assert.is(store.episode.value?.id, 204, 'the next episode, across seasons');
  assert.ok(store.playRequested.value, 'a play is requested');
  await flush();
  assert.equal(changed, [204]);
  assert.is(store.sourceUrl.value, src('/m/204.m3u8'));
  assert.equal(sinceSource(s.v.calls), [`src ${src('/m/204.m3u8')}`, 'seek 33', 'play'], 'resumes where the viewer left it, and plays');
  assert.ok(store.started.value && !store.paused.value && !store.ended.value, 'playing again');
  assert.not.ok(store.playRequested.value, 'the media confirmed it');
  assert.equal(plays, ['user'], 'one play');
  assert.equal(readStored(PROGRESS_KEY), { 204: 33 }, 'the episode watched to its end is forgotten');
  s.player.destroy();
});

test('binge: the last episode stays where it ended', async () => {
  const s = stage('?movie_id=2&season=2', { routes: seriesRoutes(), pieces: { features } });
  await s.player.start();
  await flush();
  s.player.requests.play();
  await flush();
  const before = s.v.calls.length;
  s.v.end();
  await flush();
  assert.is(s.player.store.episode.value?.id, 204);
  assert.equal(s.v.calls.slice(before), []);
  assert.ok(s.player.store.ended.value);
  s.player.destroy();
});

test('an episode switch while playing keeps playing on the new source', async () => {
  const s = stage('?movie_id=2', { routes: seriesRoutes() });
  await s.player.start();
  await flush();
  const { store, requests } = s.player;
  requests.play();
  await flush();
  assert.ok(requests.selectEpisode(store.episodes.value[0]));
  assert.ok(store.playRequested.value, 'play requested at once');
  await flush();
  assert.is(store.episode.value?.id, 201);
  assert.equal(sinceSource(s.v.calls), [`src ${src('/m/201.m3u8')}`, 'play']);
  assert.ok(!store.paused.value && store.started.value);
  s.player.destroy();
});

test('an episode switch while paused stays paused', async () => {
  const s = stage('?movie_id=2', { routes: seriesRoutes() });
  await s.player.start();
  await flush();
  const { store, requests } = s.player;
  requests.play();
  await flush();
  requests.pause();
  await flush();
  assert.ok(store.paused.value);
  assert.ok(requests.selectEpisode(store.episodes.value[0]));
  assert.not.ok(store.playRequested.value);
  await flush();
  assert.equal(sinceSource(s.v.calls), [`src ${src('/m/201.m3u8')}`], 'no play on the new source');
  assert.ok(store.paused.value);
  assert.not.ok(store.started.value, 'the new source has not started');
  s.player.destroy();
});

test('a variant switch reloads the same episode at the time asked, and keeps playing', async () => {
  const variants = [
    { id: 2021, title: 'Оригинал', filepath: '/m/202-orig.m3u8' },
    { id: 2022, title: 'Дубляж', filepath: '/m/202-dub.m3u8' },
  ];
  const routes = seriesRoutes({ '/catalog-api/episodes': [{ id: 202, contentId: 2, title: 'B', order: 2, season: { id: 21, order: 1 }, m3u8MasterFilePath: '/m/202.m3u8', episodeVariants: variants }] });
  const s = stage('?movie_id=2', { routes, pieces: { features } });
  await s.player.start();
  await flush();
  const { store, requests } = s.player;
  assert.is(s.v.video.getAttribute('src'), src('/m/202-orig.m3u8'));
  requests.play();
  await flush();
  assert.ok(requests.selectVariant(2022, 12));
  await flush();
  assert.is(store.activeVariantId.value, 2022);
  assert.equal(sinceSource(s.v.calls), [`src ${src('/m/202-dub.m3u8')}`, 'seek 12', 'play']);
  assert.equal(readStored('episodeVariants'), { 2: 2022 }, 'remembered for the content');
  assert.not.ok(requests.selectVariant(9999));
  s.player.destroy();
});

test('seeks through the player: the first at once, the last of a quick burst 100 ms later; seekBy adds up', async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes() });
  await s.player.start();
  await flush();
  const clock = fakeClock().install();
  try {
    const { requests } = s.player;
    const seeks = () => s.v.calls.filter((c) => c.startsWith('seek '));
    requests.seek(10);
    requests.seek(30);
    assert.equal(seeks(), ['seek 10']);
    clock.advance(100);
    assert.equal(seeks(), ['seek 10', 'seek 30']);
    requests.seekBy(10);
    requests.seekBy(10);
    assert.equal(seeks(), ['seek 10', 'seek 30'], 'within 100 ms of the last');
    clock.advance(100);
    assert.equal(seeks(), ['seek 10', 'seek 30', 'seek 50'], 'both steps, from the pending target');
    requests.seek(Number.NaN);
    clock.advance(1000);
    assert.is(seeks().length, 3, 'not a number: nothing');
    assert.is(s.player.store.currentTime.value, 50);
  } finally {
    clock.restore();
    s.player.destroy();
  }
});

test('a seek still waiting when the episode changes is dropped (it belonged to the old source)', async () => {
  const s = stage('?movie_id=2', { routes: seriesRoutes() });
  await s.player.start();
  await flush();
  const clock = fakeClock().install();
  try {
    s.player.requests.seek(10);
    s.player.requests.seek(20);
    s.player.requests.selectEpisode(s.player.store.episodes.value[2]);
    clock.advance(1000);
  } finally {
    clock.restore();
  }
  await flush();
  assert.equal(
    s.v.calls.filter((c) => c.startsWith('seek ') || c.startsWith('src ')),
    [`src ${src('/m/202.m3u8')}`, 'seek 10', `src ${src('/m/204.m3u8')}`],
  );
  s.player.destroy();
});

test('autoplay: refused with sound, it plays muted and offers to unmute; the fallback is not remembered', async () => {
  const s = stage('?movie_id=1&auto_play=1', { routes: filmRoutes(), pieces: { features } });
  s.v.refuse('NotAllowedError');
  const { warnings } = await quiet(async () => {
    await s.player.start();
    await flush();
  });
  const { store } = s.player;
  assert.equal(s.v.calls, [`src ${src('/media/hls/master.m3u8')}`, 'play', 'muted true', 'play muted']);
  assert.ok(store.mutedAutoplay.value, 'the unmute offer');
  assert.ok(store.muted.value && !store.paused.value && store.started.value, 'playing muted');
  assert.ok(warnings.some((w) => w[0] === '[player] autoplay blocked'), "SPEC §8 'autoplay blocked'");
  assert.is(readStored(MUTED_KEY), undefined, 'the browser’s choice is not the viewer’s');
  s.player.requests.toggleMute();
  await flush();
  assert.not.ok(store.mutedAutoplay.value, 'unmuted: the offer goes');
  assert.not.ok(store.muted.value);
  s.player.destroy();
});

test('autoplay: refused even muted, it gives up unmuted and waits for the viewer', async () => {
  const s = stage('?movie_id=1&auto_play=1', { routes: filmRoutes() });
  s.v.refuse('NotAllowedError', 'NotAllowedError');
  await quiet(async () => {
    await s.player.start();
    await flush();
  });
  const { store } = s.player;
  assert.equal(s.v.calls, [`src ${src('/media/hls/master.m3u8')}`, 'play', 'muted true', 'play muted', 'muted false']);
  assert.not.ok(store.mutedAutoplay.value);
  assert.not.ok(store.muted.value);
  assert.ok(store.paused.value && !store.started.value);
  s.player.requests.play();
  await flush();
  assert.ok(store.started.value, "the viewer's play works");
  s.player.destroy();
});

test('autoplay: a play cut short for another reason (AbortError) is not an autoplay refusal: no muting', async () => {
  const s = stage('?movie_id=1&auto_play=1', { routes: filmRoutes() });
  s.v.refuse('AbortError');
  await s.player.start();
  await flush();
  assert.equal(s.v.calls, [`src ${src('/media/hls/master.m3u8')}`, 'play']);
  assert.not.ok(s.player.store.mutedAutoplay.value);
  s.player.destroy();
});

test('without auto_play nothing plays until asked', async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes() });
  await s.player.start();
  await flush();
  assert.equal(s.v.calls, [`src ${src('/media/hls/master.m3u8')}`]);
  s.player.destroy();
});

test('the controls piece failing to load stops neither playback nor the features: progress is saved on pagehide, binge moves on', async () => {
  const s = stage('?movie_id=2', { routes: seriesRoutes(), pieces: { features, controls: new Error('controls piece 404') }, attach: false });
  const { player } = s;
  const host = s.win.document.createElement('div') as unknown as HTMLElement;
  s.win.document.body.appendChild(host as never);
  let unmount = () => {};
  const { errors } = await quiet(async () => {
    act(() => void (unmount = mountPlayer(player, host)));
    await player.start();
    await flush();
    act(() => {});
  });
  assert.ok(errors.some((e) => String(e[0]).includes('piece controls failed to load')), 'the failure is logged');
  const v = stubVideo(host.querySelector('video')!, s.win);
  const bigPlay = host.querySelector<HTMLButtonElement>('.pl-big-play');
  assert.ok(bigPlay, 'the frame still offers to play');
  act(() => bigPlay!.click());
  await flush();
  assert.ok(player.store.started.value, 'plays without the controls');
  v.tick(2);
  v.tick(7.5);
  assert.equal(readStored(PROGRESS_KEY), { 202: 2 }, 'the 10 s throttle holds the second tick');
  s.win.dispatchEvent(new s.win.Event('pagehide'));
  s.win.dispatchEvent(new s.win.Event('pageshow'));
  assert.equal(readStored(PROGRESS_KEY), { 202: 7 }, 'saved on pagehide');
  v.end();
  await flush();
  assert.is(player.store.episode.value?.id, 204, 'binge moved on');
  assert.equal(sinceSource(v.calls), [`src ${src('/m/204.m3u8')}`, 'play']);
  act(() => unmount());
});

/** A fake hls piece: records what it was handed and lets the test speak for hls.js. */
function fakeHls() {
  const seen: { url?: string; startAt?: number; ctx?: HlsContext; prefetched?: unknown; destroyed: number } = { destroyed: 0 };
  const mod: PieceModules['hls'] = {
    async attachHls(_video, url, startAt, ctx, prefetched) {
      Object.assign(seen, { url, startAt, ctx, prefetched });
      return { destroy: () => void seen.destroyed++, holds: () => false, setQuality: () => {}, setAudioTrack: () => {}, setTextTrack: () => {} };
    },
  };
  return { mod, seen };
}

test('hls engine: the source goes to the hls piece with the prefetched playlists; recoverable errors pass by, a fatal one shows the screen', async () => {
  const hls = fakeHls();
  const s = stage('?movie_id=1', { routes: filmRoutes(), pieces: { hls: hls.mod }, engine: 'hls' });
  const errors: PlayerError[] = [];
  s.player.bus.on('player:error', ({ error }) => errors.push(error));
  await s.player.start();
  await flush();
  assert.ok(s.asked.includes('hls'));
  assert.is(hls.seen.url, src('/media/hls/master.m3u8'));
  assert.ok(hls.seen.prefetched instanceof Map, 'the playlists fetched early are handed over');
  hls.seen.ctx!.onRecoverable('bufferStalledError');
  assert.equal(errors.map((e) => [e.code, e.fatal, e.message]), [['media-recoverable', false, 'bufferStalledError']]);
  assert.is(s.player.store.error.value, null, 'no screen for an error hls.js recovers from');
  await quiet(() => hls.seen.ctx!.onFatal({ details: 'manifestLoadError', type: 'networkError', url: src('/media/hls/master.m3u8') }));
  const fatal = s.player.store.error.value!;
  assert.is(fatal.code, 'media-load-failed');
  assert.is(screenOf(fatal), 'generic');
  assert.is(fatal.data?.address, src('/media/hls/master.m3u8'));
  assert.match(fatal.message, /manifestLoadError/);
  assert.ok(s.v.calls.includes('pause'), 'a fatal error pauses the content');
  s.player.destroy();
  assert.is(hls.seen.destroyed, 1, 'destroy lets go of the engine');
});

test('hls engine: the hls piece failing to load ends in the generic screen, not a stuck spinner', async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes(), pieces: { hls: new Error('hls piece 404') }, engine: 'hls' });
  await quiet(async () => {
    await s.player.start();
    await flush();
  });
  const e = s.player.store.error.value!;
  assert.is(e.code, 'media-load-failed');
  assert.is(screenOf(e), 'generic');
  assert.match(e.message, /hls module failed to load/);
  s.player.destroy();
});

test('a native source that fails to load shows the generic screen with its address', async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes() });
  await s.player.start();
  await flush();
  await quiet(() => s.v.fail(4, 'MEDIA_ERR_SRC_NOT_SUPPORTED'));
  const e = s.player.store.error.value!;
  assert.equal([e.code, e.fatal, screenOf(e), e.data?.address], ['media-load-failed', true, 'generic', src('/media/hls/master.m3u8')]);
  s.player.destroy();
});

test('nothing can play the stream (no MediaSource, no native HLS): the generic screen', async () => {
  const s = stage('?movie_id=1', { routes: filmRoutes(), engine: 'none' });
  await quiet(async () => {
    await s.player.start();
    await flush();
  });
  assert.is(s.player.store.error.value?.code, 'media-unsupported');
  assert.is(screenOf(s.player.store.error.value!), 'generic');
  s.player.destroy();
});

test('unavailable content: the placeholder plays, then the blocked screen; binge never moves on', async () => {
  const s = stage('?movie_id=2', { routes: seriesRoutes({ '/catalog-api/contents/2/available': { available: false } }), pieces: { features } });
  await s.player.start();
  await flush();
  assert.is(s.v.video.getAttribute('src'), src('/player/placeholder.mp4'));
  s.player.requests.play();
  await flush();
  const e = s.player.store.error.value!;
  assert.is(e.code, 'content-blocked');
  assert.is(screenOf(e), 'blocked');
  s.v.end();
  await flush();
  assert.is(s.player.store.episode.value?.id, 202);
  s.player.destroy();
});

test.run();
