// The partner SDK (/player/embed.mjs) on a partner page of another origin (a small http server of its
// own): commands, getters and events through the SDK's handle, outcomes read in the player frame.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from './journey';
import * as assert from 'uvu/assert';
import { poll } from '../e2e/harness';
import type { RefServer, Tab } from './driver';
import { clickUntil, openMenuPage, srv, startExtraServer, timeAbove, video, within } from './harness';
import { START_IDLE_MS } from '../../src/playback/deadlines';

let partner: Server;
let partnerUrl = '';
let ads: RefServer;

/** Every event of the SDK's declarations, logged by the partner page. */
const EVENTS = [
  'ready', 'play', 'pause', 'ended', 'timeupdate', 'volumechange', 'fullscreenchange', 'episodeChanged', 'episodeVariantChanged', 'timeProgressChanged',
  'qualityChanged', 'audioTrackChanged', 'subtitlesChanged', 'playbackRateChanged', 'adStart', 'adSkipped', 'adClick', 'adEnd', 'error',
  'introSkipped', 'creditsReached',
];

test.before(async () => {
  ads = await startExtraServer('localhost');
  // The partner's page: createPlayer with the options of its own query (?movieId=1, or a series' first episode by default).
  partner = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title>
<script type="module">
  import * as sdk from '${srv().url}/player/embed.mjs';
  window.__events = [];
  const q = new URLSearchParams(location.search);
  const options = q.has('movieId') ? { movieId: Number(q.get('movieId')) } : { movieId: 2, season: 1, episode: 1 };
  window.player = sdk.createPlayer(document.getElementById('slot'), options);
  for (const name of ${JSON.stringify(EVENTS)}) window.player.on(name, (data) => window.__events.push({ name, data }));
  window.call = (method, ...args) => window.player[method](...args).then((value) => ({ value }), (error) => ({ error }));
</script></head><body style="margin:0"><div id="slot" style="width:640px"></div></body></html>`);
  });
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/`;
});
test.after(async () => {
  srv().setAdListUrl(undefined);
  await ads?.close();
  await new Promise<void>((r) => partner.close(() => r()));
});

type Result = { value?: any; error?: { code: string } };
const call = (tab: Tab, method: string, ...args: unknown[]) =>
  tab.evaluate(([m, a]: [string, unknown[]]) => (window as any).call(m, ...a), [method, args] as [string, unknown[]]) as Promise<Result>;
const events = (tab: Tab, name: string) => tab.evaluate((n: string) => ((window as any).__events as Array<{ name: string; data: any }>).filter((e) => e.name === n).map((e) => e.data), name);
const waitEvent = (tab: Tab, name: string, test: (data: any) => boolean = () => true) =>
  poll(async () => `the SDK event ${name} (got ${JSON.stringify(await events(tab, name))})`, async () => (await events(tab, name)).some(test), { timeout: 20000 });
/** Calls `method` and expects its refusal with `code`. */
const refused = async (tab: Tab, code: string, method: string, ...args: unknown[]) => {
  const r = await call(tab, method, ...args);
  assert.is(r.error?.code, code, `${method}(${JSON.stringify(args)}): ${JSON.stringify(r)}`);
};
const frameHeight = (player: Tab, height: number) =>
  player.waitFor((h: number) => document.querySelector('video')!.videoHeight === h, height, 30000, `${height}-line frames`);

/** The partner page's player ready, played by the viewer's click in the frame (after a reload: the new page's). */
async function started(page: Tab): Promise<Tab> {
  await page.waitFor(() => 'player' in window && !(window as any).__left, undefined, 15000, 'the SDK loaded');
  await page.evaluate(() => (window as any).player.ready().then(() => true));
  const player = page.frame('/player/');
  await player.click('.pl-big-play');
  await timeAbove(player, 1);
  return player;
}

test('the partner SDK cross-origin: ready, a click plays, every command and getter, the events', async () => {
  assert.is.not(new URL(partnerUrl).origin, new URL(srv().url).origin);
  await within('', async (page) => {
    await page.waitFor(() => 'player' in window, undefined, 15000, 'the SDK loaded');
    const info = await page.evaluate(() => (window as any).player.ready() as Promise<{ version: number; methods: string[] }>);
    assert.is(info.version, 1);
    const player = page.frame('/player/');
    // The viewer's click: sound is allowed from here on in every engine.
    await player.click('.pl-big-play');
    await timeAbove(player, 1);
    await waitEvent(page, 'play');
    await waitEvent(page, 'episodeChanged', (d) => d.episode.id === 201);

    assert.equal(await call(page, 'pause'), { value: null });
    assert.ok((await video(player)).paused);
    await waitEvent(page, 'pause');
    assert.equal(await call(page, 'getPaused'), { value: true });
    const seek = await call(page, 'seek', 20);
    assert.ok(Math.abs(seek.value - 20) < 0.5, `seek resolves with the time: ${JSON.stringify(seek)}`);
    assert.ok(Math.abs((await call(page, 'getCurrentTime')).value - 20) < 0.5);
    assert.ok((await call(page, 'getDuration')).value > 20);
    assert.equal(await call(page, 'setVolume', 0.5), { value: null });
    assert.is((await video(player)).volume, 0.5);
    await waitEvent(page, 'volumechange', (d) => d.volume === 0.5);
    assert.equal(await call(page, 'mute'), { value: null });
    assert.equal(await call(page, 'getMuted'), { value: true });
    assert.equal(await call(page, 'unmute'), { value: null });
    assert.not.ok((await video(player)).muted);
    assert.equal(await call(page, 'play'), { value: null });
    await timeAbove(player, 21);
    assert.ok((await events(page, 'timeupdate')).length >= 1, 'timeupdate events');
    const seasons = (await call(page, 'getSeasons')).value;
    assert.equal(seasons.map((x: { id: number; order: number }) => [x.id, x.order]), [[21, 1], [22, 2]]);
    const episodes = (await call(page, 'getEpisodes')).value;
    assert.equal(episodes.map((e: { id: number }) => e.id), [201, 202, 203, 204, 205, 206], 'the series in order');
    assert.equal(episodes[2].episodeVariants.map((v: { id: number }) => v.id), [2031, 2032]);
    assert.is((await call(page, 'selectEpisode', { season: 1, episode: 2 })).value?.id, 202);
    await waitEvent(page, 'episodeChanged', (d) => d.episode.id === 202);
    await waitEvent(page, 'timeProgressChanged', (d) => d.currentTime > 0 && d.duration > 0);
    assert.is((await call(page, 'seek', 'abc')).error?.code, 'bad-arguments');
    assert.is((await call(page, 'selectEpisode', { id: 999999 })).error?.code, 'episode-not-found');
    assert.is((await events(page, 'ready')).length, 1, "'ready' once");
  }, { path: partnerUrl });
});

test("intro and credits through the SDK cross-origin: introSkipped on 'Пропустить заставку', creditsReached with the episode and the next", async () => {
  await within('', async (page) => {
    const player = await started(page);
    // The demo series' markers (server/catalogue.json): the intro from 2 s to 17 s, the credits from 48 s.
    await player.waitForSelector('.pl-skip-intro', 20000);
    await player.click('.pl-skip-intro');
    await waitEvent(page, 'introSkipped', (d) => d.to === 17 && d.from < 17);
    assert.ok((await video(player)).t >= 16.5, 'the video at the intro\'s end');
    const episode = (await call(page, 'getEpisode')).value as { id: number };
    await player.evaluate(() => void (document.querySelector('video')!.currentTime = 48.5));
    await waitEvent(page, 'creditsReached', (d) => d.episode.id === episode.id && d.next?.id === episode.id + 1);
    assert.is((await events(page, 'creditsReached')).length, 1, 'once an episode');
  }, { path: partnerUrl });
});

test('tracks from the SDK on film 1: quality, audio, subtitles and speed, each resolved once the media plays it, each refusal; the audio is remembered; the menus raise the same events', async () => {
  await within('', async (page) => {
    const player = await started(page);
    const q = (await call(page, 'getQualities')).value;
    assert.equal(q.levels.map((l: { height: number }) => l.height), [720, 360, 240]);
    assert.ok(q.auto, 'auto at first');
    // Paused, the chosen rendition is loaded at once (its frames show as it plays on); playing, from the next fragment.
    assert.equal(await call(page, 'pause'), { value: null });
    assert.equal(await call(page, 'setQuality', 720), { value: null });
    assert.equal((await call(page, 'getQualities')).value.height, 720);
    await waitEvent(page, 'qualityChanged', (d) => d.height === 720 && d.auto === false);
    assert.equal(await call(page, 'play'), { value: null });
    await frameHeight(player, 720);
    assert.equal(await call(page, 'setQuality', 240), { value: null });
    await frameHeight(player, 240);
    await waitEvent(page, 'qualityChanged', (d) => d.height === 240 && d.auto === false);
    assert.equal(await call(page, 'setQuality', 'auto'), { value: null });
    await waitEvent(page, 'qualityChanged', (d) => d.auto === true);
    await refused(page, 'quality-not-found', 'setQuality', 1080);
    await refused(page, 'bad-arguments', 'setQuality', '720p');

    const audio = (await call(page, 'getAudioTracks')).value;
    assert.equal(audio, [{ label: 'Русский', language: 'ru', active: true }, { label: 'English', language: 'en', active: false }]);
    srv().clearRequests();
    assert.equal(await call(page, 'setAudioTrack', 'English'), { value: null });
    assert.ok(srv().requests.some((r) => r.path.includes('/audio/eng/') && r.path.endsWith('.m4s')), 'an English audio segment was loaded');
    assert.equal((await call(page, 'getAudioTracks')).value.find((t: { active: boolean }) => t.active).label, 'English');
    await waitEvent(page, 'audioTrackChanged', (d) => d.label === 'English' && d.language === 'en');
    await refused(page, 'audio-track-not-found', 'setAudioTrack', 'Deutsch');

    assert.equal((await call(page, 'getSubtitles')).value, [{ label: 'Русские', language: 'ru', active: false }]);
    assert.equal(await call(page, 'setSubtitles', 'rus'), { value: null });
    await player.evaluate(() => void (document.querySelector('video')!.currentTime = 5));
    await player.waitFor(() => document.querySelector('.pl-subs__cue')?.textContent === 'Субтитры: 00:04 – 00:08', undefined, 20000, 'the 4-8 s cue');
    await waitEvent(page, 'subtitlesChanged', (d) => d.language === 'ru' && d.label === 'Русские');
    await refused(page, 'subtitles-not-found', 'setSubtitles', 'de');
    assert.equal(await call(page, 'setSubtitles', 'off'), { value: null });
    await player.waitFor(() => !document.querySelector('.pl-subs__cue'), undefined, 20000, 'no cue');
    await waitEvent(page, 'subtitlesChanged', (d) => d.language === 'off' && d.label === null);

    assert.equal(await call(page, 'setPlaybackRate', 1.5), { value: null });
    assert.is((await video(player)).rate, 1.5);
    assert.equal(await call(page, 'getPlaybackRate'), { value: 1.5 });
    await waitEvent(page, 'playbackRateChanged', (d) => d.playbackRate === 1.5);
    await refused(page, 'bad-arguments', 'setPlaybackRate', 3);

    // The partner's English is the viewer's own: the page again, the film starts in English.
    await page.evaluate(() => void ((window as any).__left = true));
    await page.reload();
    const again = await started(page);
    await poll('English from the viewer\'s memory', async () => (await call(page, 'getAudioTracks')).value?.find((t: { active: boolean }) => t.active)?.label === 'English', { timeout: 20000 });

    // The viewer's picks in the player's own menus are the same events.
    await openMenuPage(again, 'quality');
    await again.click('.pl-menu [data-menu-item="0"]');
    await waitEvent(page, 'qualityChanged', (d) => d.height === 240 && d.auto === false);
    await openMenuPage(again, 'audio-tracks');
    await again.click('.pl-menu [data-menu-item="0"]');
    await waitEvent(page, 'audioTrackChanged', (d) => d.label === 'Русский');
    await openMenuPage(again, 'playback-rate');
    await again.click('.pl-menu [data-menu-item="2"]');
    await waitEvent(page, 'playbackRateChanged', (d) => d.playbackRate === 2);
    await clickUntil(again, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
    await again.click('.pl-menu [data-menu-item="0"]');
    await waitEvent(page, 'subtitlesChanged', (d) => d.language === 'ru');
  }, { path: `${partnerUrl}?movieId=1` });
});

test("film 4's master descriptor: its two sources are the audio choice (the SDK switches source, the time kept, through a page that does not run for 17 s), its English subtitle file a language beside the stream's", async () => {
  await within('', async (page) => {
    const player = await started(page);
    await poll('the descriptor\'s sources as audio tracks', async () => (await call(page, 'getAudioTracks')).value?.length === 2, { timeout: 20000 });
    assert.equal((await call(page, 'getAudioTracks')).value, [{ label: 'Русский', language: '', active: true }, { label: 'English', language: '', active: false }]);
    assert.equal(await call(page, 'pause'), { value: null });
    const before = (await video(player)).t;
    srv().clearRequests();
    assert.equal(await call(page, 'setAudioTrack', 'English'), { value: null });
    assert.ok(srv().requests.some((r) => r.path === '/media/desc/eng.m3u8'), 'the English source was loaded');
    // The page does not run for longer than the start's budget (START_IDLE_MS), as WebKitGTK's main thread
    // may not while GStreamer tears one source down: what came meanwhile counts, no 'start timeout'.
    await player.evaluate((ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    }, START_IDLE_MS + 2000);
    // Generous: WebKitGTK's page can stop answering WebDriver for many seconds while GStreamer tears one source down.
    await player.waitFor((t: number) => Math.abs(document.querySelector('video')!.currentTime - t) < 1, before, 45000, `the English source at ${before} s (SPEC §4)`);
    await waitEvent(page, 'audioTrackChanged', (d) => d.label === 'English');
    assert.ok((await call(page, 'getSubtitles')).value.some((t: { language: string }) => t.language === 'en'), 'the descriptor\'s English file');
    assert.equal(await call(page, 'setSubtitles', 'en'), { value: null });
    await player.evaluate(() => void (document.querySelector('video')!.currentTime = 5));
    await player.waitFor(() => document.querySelector('.pl-subs__cue')?.textContent === 'Subtitles: 00:04 – 00:08', undefined, 20000, 'the English 4-8 s cue');
    await waitEvent(page, 'subtitlesChanged', (d) => d.language === 'en' && d.label === 'English');
  }, { path: `${partnerUrl}?movieId=4` });
});

test('ads through the SDK: adStart with the ad\'s id, duration and skip offset, adClick on the click-through, adSkipped then adEnd', async () => {
  srv().setAdListUrl(`${ads.url}/ad-list.json?pre=skippable&mid=`);
  try {
    await within('', async (page) => {
      await page.waitFor(() => 'player' in window, undefined, 15000, 'the SDK loaded');
      await page.evaluate(() => (window as any).player.ready().then(() => true));
      const player = page.frame('/player/');
      await player.click('.pl-big-play');
      await waitEvent(page, 'adStart');
      assert.equal(await events(page, 'adStart'), [{ id: 'skippable-1', type: 'preroll', position: 1, duration: 6, skipOffset: 2 }]);
      await player.waitForSelector('.pl-ad__skip:not([disabled])', 20000);
      await player.click('.pl-ad__click');
      await waitEvent(page, 'adClick');
      assert.equal(await events(page, 'adClick'), [{ id: 'skippable-1', type: 'preroll', position: 1, href: `${ads.url}/ads/landing?ad=skippable` }]);
      await player.click('.pl-ad__skip:not([disabled])');
      await waitEvent(page, 'adSkipped');
      assert.equal(await events(page, 'adSkipped'), [{ id: 'skippable-1', type: 'preroll', position: 1 }]);
      await waitEvent(page, 'adEnd');
      assert.is((await events(page, 'adEnd')).length, 1);
    }, { path: `${partnerUrl}?movieId=1` });
  } finally {
    srv().setAdListUrl(undefined);
  }
});

test('the partner SDK takes a same-origin player frame that read its frameElement first', async () => {
  // The player's bootstrap reads window.frameElement (a same-origin embedder's data attributes). In
  // WebKit the iframe's wrapper is then made in the frame's realm, and the parent's
  // `instanceof HTMLIFrameElement` is false for its own iframe: the SDK must go by the tag.
  await within('', async (page) => {
    // Parsed from HTML, so the parent's script touches the iframe only after the player did.
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<iframe id="own" src="/player/?movie_id=1" width="640" height="360"></iframe>'));
    // Waited for through window.frames, not the driver's frame switch: that looks the element up first.
    await page.waitFor(() => window.frames[0]?.document.readyState === 'complete' && !!window.frames[0].document.querySelector('.pl-big-play'), undefined, 20000, 'the player frame');
    const taken = await page.evaluate(async () => {
      const sdk = await import('/player/embed.mjs' as string);
      const frame = document.getElementById('own')!;
      const p = sdk.createPlayer(frame);
      const info = await p.ready();
      return { same: p.iframe === frame, version: info.version, paused: await p.getPaused() };
    });
    assert.equal(taken, { same: true, version: 1, paused: true });
  }, { path: '/player/embed.d.ts?host' });
});

test.run();
