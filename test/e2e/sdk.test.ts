// The partner SDK (/player/embed.mjs) on a partner page of another origin: a small http server of its
// own (127.0.0.1 on another port), the player on the reference server. Everything goes through the
// SDK's handle; outcomes are read in the player frame (its <video>) and the server's request log.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Opened, open, poll, srv } from './harness';

// Two partner origins (two ports): the allow-list test refuses the second.
const partners: Server[] = [];
async function partnerServer(): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    // The classic script: window.EmbedPlayer, the player page next to the script.
    if (req.url === '/classic') {
      return void res.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title>
<script src="${srv().url}/player/embed.js"></script></head><body><div id="slot" style="width:640px"></div></body></html>`);
    }
    res.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title>
<script>
  // Counts the page's 'message' listeners, so destroy() can be shown to leave none.
  window.__listeners = 0;
  const add = window.addEventListener, remove = window.removeEventListener;
  window.addEventListener = function (t, f, o) { if (t === 'message') window.__listeners++; return add.call(this, t, f, o); };
  window.removeEventListener = function (t, f, o) { if (t === 'message') window.__listeners--; return remove.call(this, t, f, o); };
</script>
<script type="module">
  import * as sdk from '${srv().url}/player/embed.mjs';
  window.sdk = sdk;
</script></head>
<body style="margin:0"><div id="slot" style="width:640px"></div><div style="height:4000px"></div><div id="far" style="width:640px"></div></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  partners.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const [partnerA, partnerB] = [await partnerServer(), await partnerServer()];

interface Partner extends Opened {
  /** Console warnings of the page and its frames. */
  warnings: string[];
}

async function partner(origin = partnerA, globals?: Record<string, unknown>): Promise<Partner> {
  const p = await open('', { path: '/player/embed.d.ts', globals });
  const warnings: string[] = [];
  p.page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await p.page.goto(`${origin}/`);
  await p.page.waitForFunction(() => 'sdk' in window, null, { timeout: 15000 });
  return { ...p, warnings };
}

/** In the page: window.player from createPlayer(#slot or #far, options), every event logged in window.__events. */
async function create(page: Page, options: Record<string, unknown>, slot = 'slot'): Promise<void> {
  await page.evaluate(
    ({ options, slot }) => {
      const w = window as any;
      w.__events = [];
      w.player = w.sdk.createPlayer(document.getElementById(slot), options);
      for (const name of ['ready', 'play', 'pause', 'ended', 'timeupdate', 'volumechange', 'fullscreenchange', 'episodeChanged', 'episodeVariantChanged', 'timeProgressChanged', 'adStart', 'adEnd', 'error']) {
        w.player.on(name, (data: unknown) => w.__events.push({ name, data, at: Date.now() }));
      }
    },
    { options, slot },
  );
}

type Logged = { name: string; data: any; at: number };
const events = (page: Page, name?: string): Promise<Logged[]> =>
  page.evaluate((n) => ((window as any).__events as Logged[]).filter((e) => !n || e.name === n), name);
const waitEvent = (page: Page, name: string, timeout = 20000) =>
  poll(async () => `the SDK event ${name} (got ${(await events(page)).map((e) => e.name).join(', ')})`, async () => (await events(page, name)).length > 0, { timeout });

/** Calls player[method](...args) in the page: { value } or { error } as the promise settled. */
const call = (page: Page, method: string, ...args: unknown[]) =>
  page.evaluate(
    ({ method, args }) =>
      (window as any).player[method](...args).then(
        (value: unknown) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    { method, args },
  ) as Promise<{ value?: any; error?: { code: string; message: string } }>;

const playerFrame = async (page: Page): Promise<Frame> =>
  poll('the player frame', () => page.frames().find((f) => f.url().startsWith(`${srv().url}/player/`)));
const video = (f: Frame) => f.evaluate(() => { const v = document.querySelector('video')!; return { t: v.currentTime, paused: v.paused, volume: v.volume, muted: v.muted }; });
const playerPageRequests = () => srv().requests.filter((r) => r.path === '/player/');

test('every command, getter and event through the SDK, cross-origin; a command before ready is queued; ready once', async () => {
  const p = await partner();
  try {
    await create(p.page, { movieId: 2, season: 1, episode: 1 });
    // Asked before the player answered: queued, then sent.
    const early = p.page.evaluate(() => (window as any).player.play().then(() => 'played'));
    const info = await p.page.evaluate(() => (window as any).player.ready());
    assert.is(info.version, 1);
    for (const m of ['play', 'pause', 'seek', 'setVolume', 'mute', 'unmute', 'selectEpisode', 'getCurrentTime', 'getEpisode']) assert.ok(info.methods.includes(m), m);
    assert.is(await early, 'played');
    const f = await playerFrame(p.page);
    await f.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
    await waitEvent(p.page, 'play');
    await waitEvent(p.page, 'episodeChanged');
    assert.is((await events(p.page, 'episodeChanged'))[0].data.episode.id, 201);

    assert.equal(await call(p.page, 'pause'), { value: null });
    assert.ok((await video(f)).paused, 'the video is paused');
    await waitEvent(p.page, 'pause');
    assert.equal(await call(p.page, 'getPaused'), { value: true });

    const seek = await call(p.page, 'seek', 20);
    assert.ok(Math.abs(seek.value - 20) < 0.5, `seek resolves with the time: ${JSON.stringify(seek)}`);
    assert.ok(Math.abs((await video(f)).t - 20) < 0.5, 'the video is at 20 s');
    assert.ok(Math.abs((await call(p.page, 'getCurrentTime')).value - 20) < 0.5);
    assert.ok((await call(p.page, 'getDuration')).value > 20);

    assert.equal(await call(p.page, 'setVolume', 0.5), { value: null });
    assert.is((await video(f)).volume, 0.5);
    assert.equal(await call(p.page, 'getVolume'), { value: 0.5 });
    await poll('volumechange 0.5', async () => (await events(p.page, 'volumechange')).some((e) => e.data.volume === 0.5));
    assert.equal(await call(p.page, 'mute'), { value: null });
    assert.ok((await video(f)).muted);
    assert.equal(await call(p.page, 'getMuted'), { value: true });
    assert.equal(await call(p.page, 'unmute'), { value: null });
    assert.not.ok((await video(f)).muted);

    // timeupdate: at most 4 a second.
    assert.equal(await call(p.page, 'play'), { value: null });
    await f.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 22.5, null, { timeout: 20000 });
    const ticks = await events(p.page, 'timeupdate');
    assert.ok(ticks.length >= 3, `timeupdate events: ${ticks.length}`);
    assert.ok(typeof ticks[0].data.currentTime === 'number' && ticks[0].data.duration > 0);
    // Counted over the whole span, so a message the busy page delivered late does not count twice.
    const span = ticks[ticks.length - 1].at - ticks[0].at;
    assert.ok(ticks.length <= span / 250 + 2, `${ticks.length} timeupdate events in ${span} ms`);

    const picked = await call(p.page, 'selectEpisode', { season: 1, episode: 2 });
    assert.is(picked.value?.id, 202);
    assert.equal(await p.page.evaluate(() => (window as any).player.getEpisode().then((e: { id: number }) => e.id)), 202);
    await poll('episodeChanged 202', async () => (await events(p.page, 'episodeChanged')).some((e) => e.data.episode.id === 202));
    // Leaving an episode saves its progress, and the SPEC's message reaches the SDK as an event.
    await poll('timeProgressChanged', async () => (await events(p.page, 'timeProgressChanged')).some((e) => e.data.currentTime > 0 && e.data.duration > 0));
    assert.is((await call(p.page, 'selectEpisode', { id: 999999 })).error?.code, 'episode-not-found');
    assert.is((await call(p.page, 'selectEpisode', null)).error?.code, 'episode-not-found');
    assert.is((await call(p.page, 'seek', 'abc')).error?.code, 'bad-arguments');
    assert.is((await call(p.page, 'setVolume', 5)).error?.code, 'bad-arguments');

    // The last episode to its end: 'ended'.
    assert.is((await call(p.page, 'selectEpisode', { season: 2, episode: 3 })).value?.id, 206);
    // The new episode's own duration: once its source plays.
    await f.waitForFunction(() => { const v = document.querySelector('video')!; return !v.paused && v.currentTime > 0.5 && v.currentTime < 20; }, null, { timeout: 20000 });
    const duration = (await call(p.page, 'getDuration')).value;
    const landed = await call(p.page, 'seek', duration - 1);
    assert.ok(landed.value > duration - 2, `near the end: ${JSON.stringify(landed)} of ${duration}`);
    await call(p.page, 'play');
    await poll(async () => `the SDK event ended (errors: ${JSON.stringify(await events(p.page, 'error'))})`, async () => (await events(p.page, 'ended')).length > 0);

    // Fullscreen from the player's own button: the SDK reports it.
    await f.locator('.pl').hover({ position: { x: 40, y: 40 } });
    await f.getByRole('button', { name: 'Во весь экран' }).click({ timeout: 10000 });
    await poll('fullscreenchange', async () => (await events(p.page, 'fullscreenchange')).some((e) => e.data.fullscreen === true));

    assert.is((await events(p.page, 'ready')).length, 1, "'ready' fires once");
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('mute, setVolume and seek asked right after ready(), before anything plays: applied once the media is ready', async () => {
  // The content answers late, so the player says ready while its media has no source yet.
  srv().setFaults([{ match: /^\/catalog-api\/contents\/1(\?|$)/, delay: 2500, times: 1 }]);
  const p = await partner();
  try {
    await create(p.page, { movieId: 1 });
    const settled = await p.page.evaluate(async () => {
      const player = (window as any).player;
      await player.ready();
      const asked = [player.mute(), player.setVolume(0.4), player.seek(10)];
      return Promise.all(asked.map((c: Promise<unknown>) => c.then((value) => ({ value }), (error) => ({ error }))));
    });
    assert.equal(settled.slice(0, 2), [{ value: null }, { value: null }]);
    assert.ok(Math.abs((settled[2] as { value: number }).value - 10) < 0.5, `seek: ${JSON.stringify(settled[2])}`);
    const f = await playerFrame(p.page);
    const before = await video(f);
    assert.equal({ paused: before.paused, muted: before.muted, volume: before.volume }, { paused: true, muted: true, volume: 0.4 }, 'applied before playback');
    assert.equal(await call(p.page, 'play'), { value: null });
    await f.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 10.5, null, { timeout: 20000 });
    const playing = await video(f);
    assert.ok(playing.muted, 'it plays muted, as asked');
    assert.is(playing.volume, 0.4);
    assert.equal(await call(p.page, 'getMuted'), { value: true });
    assert.equal(p.errors, []);
  } finally {
    srv().clearFaults();
    await p.close();
  }
});

test('a content that cannot load: commands reject with its code and the SDK hears the error event', async () => {
  const p = await partner();
  try {
    await create(p.page, { movieId: 424242 });
    await p.page.evaluate(() => (window as any).player.ready());
    await waitEvent(p.page, 'error');
    const [error] = await events(p.page, 'error');
    assert.equal(error.data, { code: 'content-not-found', fatal: true, message: error.data.message });
    assert.is((await call(p.page, 'play')).error?.code, 'content-not-found');
  } finally {
    await p.close();
  }
});

test('foreign frames are ignored, hostile payloads to and from the SDK never throw, destroy() leaves no listener', async () => {
  const p = await partner();
  try {
    const before = await p.page.evaluate(() => (window as any).__listeners);
    await create(p.page, { movieId: 1 });
    await p.page.evaluate(() => (window as any).player.ready());
    assert.is(await p.page.evaluate(() => (window as any).__listeners), before + 1);
    const playerOrigin = srv().url;

    // Lookalike messages from the page itself, a sibling frame and a synthetic event with throwing getters.
    await p.page.evaluate((origin) => {
      const fake = { protocol: 'embed-player', version: 1, type: 'event', contentId: 1, payload: { name: 'pause', data: {} } };
      window.postMessage(fake, '*');
      window.postMessage({ ...fake, type: 'exitFullScreen', payload: {} }, '*');
      const sibling = document.createElement('iframe');
      sibling.srcdoc = `<script>parent.postMessage(${JSON.stringify(fake)}, '*'); parent.postMessage({ protocol: 'embed-player', version: 1, type: 'reply', id: 3, payload: { value: 1 } }, '*')</scr` + 'ipt>';
      document.body.append(sibling);
      const frame = (window as any).player.iframe as HTMLIFrameElement;
      const hostile = new Proxy({}, { get() { throw new Error('boom'); }, has() { throw new Error('boom'); } });
      for (const data of [hostile, null, 42, '{"protocol":', 'x'.repeat(100000), { protocol: 'embed-player', version: 1, type: 'reply', id: -1, payload: hostile }, { protocol: 'embed-player', version: 1, type: 'event', payload: { name: '__proto__', data: 1 } }]) {
        window.dispatchEvent(new MessageEvent('message', { data, source: frame.contentWindow, origin }));
      }
    }, playerOrigin);
    // Junk to the player: it answers what it can read with an error, and ignores the rest.
    await p.page.evaluate(() => {
      const w = window as any;
      w.__replies = [];
      w.__onReply = (e: MessageEvent) => e.data?.type === 'reply' && e.data.id >= 9000 && w.__replies.push(e.data);
      window.addEventListener('message', w.__onReply);
      const target = (w.player.iframe as HTMLIFrameElement).contentWindow!;
      const origin = new URL(w.player.iframe.src).origin;
      const base = { protocol: 'embed-player', version: 1, type: 'request' };
      for (const m of [
        { ...base, id: 9001, method: 'nope' },
        { ...base, id: 9002, method: '__proto__' },
        { ...base, id: 9003, method: 'constructor' },
        { ...base, id: 9004, method: 'seek', params: { valueOf: 1 } },
        { ...base, id: 'x', method: 'play' },
        { ...base, id: 9005, method: ['play'] },
        JSON.stringify({ ...base, id: 9006, method: 'getPaused' }),
        '{not json',
        { protocol: 'embed-player', version: 2, type: 'request', id: 9007, method: 'play' },
      ]) target.postMessage(m, origin);
    });
    const replies = await poll('the player\'s answers to junk', async () => {
      const r = await p.page.evaluate(() => (window as any).__replies as Array<{ id: number; payload: any }>);
      return r.length >= 6 ? r : undefined;
    });
    await p.page.evaluate(() => window.removeEventListener('message', (window as any).__onReply));
    const byId = Object.fromEntries(replies.map((r) => [r.id, r.payload]));
    assert.is(byId[9001].error.code, 'unknown-method');
    assert.is(byId[9002].error.code, 'unknown-method');
    assert.is(byId[9003].error.code, 'unknown-method');
    assert.is(byId[9004].error.code, 'bad-arguments');
    assert.is(byId[9005].error.code, 'unknown-method');
    assert.equal(byId[9006], { value: true }, 'the JSON text form is read too');
    assert.not.ok(byId[9007], 'another protocol version is not ours');
    // The player still works through the SDK, and no lookalike reached the partner's listeners.
    assert.equal(await call(p.page, 'getPaused'), { value: true });
    assert.equal(await events(p.page, 'pause'), []);
    assert.equal(await events(p.page, 'fullscreenchange'), []);

    const pendingPlay = p.page.evaluate(() => (window as any).player.seek(1e9).catch((e: { code: string }) => e.code));
    await p.page.evaluate(() => (window as any).player.destroy());
    assert.is(await pendingPlay, 'destroyed');
    assert.is(await p.page.evaluate(() => (window as any).__listeners), before, 'no message listener left');
    assert.is(await p.page.locator('iframe[src*="/player/"]').count(), 0, 'the frame is gone');
    assert.is((await call(p.page, 'play')).error?.code, 'destroyed');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('embed_origins: the player ignores commands from another origin and takes them from a listed one', async () => {
  const globals = { embed_origins: partnerA };
  const refused = await partner(partnerB, globals);
  try {
    await create(refused.page, { movieId: 1 });
    const f = await playerFrame(refused.page);
    await f.locator('.pl-big-play').waitFor({ timeout: 15000 });
    await refused.page.evaluate(() => {
      const w = window as any;
      w.player.ready().then(() => (w.__ready = true));
      w.player.play();
    });
    await poll(
      () => `the player's warning (warnings: ${refused.warnings.join(' | ')})`,
      () => refused.warnings.some((w) => w.includes('not in embed_origins') && w.includes(partnerB)),
    );
    assert.ok((await video(f)).paused, 'the video did not start');
    assert.is((await video(f)).t, 0);
    assert.not.ok(await refused.page.evaluate(() => (window as any).__ready), 'no answer to the hello');
  } finally {
    await refused.close();
  }
  const allowed = await partner(partnerA, globals);
  try {
    await create(allowed.page, { movieId: 1 });
    assert.equal(await call(allowed.page, 'play'), { value: null });
    const f = await playerFrame(allowed.page);
    await f.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
  } finally {
    await allowed.close();
  }
});

test('adStart and adEnd around a preroll; pause() pauses the ad too', async () => {
  const p = await partner(partnerA, { env_ad_list_url: '/ad-list.json?pre=nonskippable&mid=' });
  try {
    await create(p.page, { movieId: 1, autoplay: true });
    await waitEvent(p.page, 'adStart');
    assert.equal((await events(p.page, 'adStart'))[0].data, { id: 'nonskippable-1', type: 'preroll', position: 1, duration: 6, skipOffset: null });
    const f = await playerFrame(p.page);
    await f.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 0.5, null, { timeout: 20000 });
    assert.equal(await call(p.page, 'pause'), { value: null });
    assert.ok(await f.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused), 'the ad is paused');
    assert.equal(await call(p.page, 'play'), { value: null });
    await waitEvent(p.page, 'adEnd', 30000);
    await f.waitForFunction(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime > 1, null, { timeout: 20000 });
    assert.is((await events(p.page, 'adStart')).length, 1, 'one ad, one adStart (a pause and resume is no new ad)');
  } finally {
    await p.close();
  }
});

test("loading 'lazy' makes no frame off screen, and makes it when the container comes near", async () => {
  const p = await partner();
  try {
    srv().clearRequests();
    await create(p.page, { movieId: 1, loading: 'lazy' }, 'far');
    // The SDK's box is laid out (16:9) and observed; nothing is fetched for it while it is far away.
    await p.page.waitForFunction(() => (document.getElementById('far')!.firstElementChild as HTMLElement)?.offsetHeight === 360);
    assert.is(await p.page.locator('#far iframe').count(), 0);
    assert.equal(playerPageRequests(), []);
    await p.page.evaluate(() => document.getElementById('far')!.scrollIntoView());
    await p.page.locator('#far iframe').waitFor({ timeout: 10000 });
    await p.page.evaluate(() => (window as any).player.ready());
    assert.is(playerPageRequests().length, 1);
  } finally {
    await p.close();
  }
});

test("loading 'facade': poster and title from one catalogue call, no player page until the click, then it plays", async () => {
  const p = await partner();
  try {
    srv().clearRequests();
    await create(p.page, { movieId: 1, loading: 'facade' });
    const button = p.page.getByRole('button', { name: 'Смотреть: Тестовый фильм' });
    await button.waitFor({ timeout: 10000 });
    assert.match(await button.evaluate((b) => (b as HTMLElement).style.backgroundImage), /\/media\/posters\/film-1\.jpg/);
    assert.equal(srv().requests.filter((r) => r.path.startsWith('/catalog-api/')).map((r) => r.path), ['/catalog-api/contents/1']);
    assert.equal(srv().requests.filter((r) => r.path.startsWith('/player/') && r.path !== '/player/embed.mjs'), [], 'no player code before the click');
    await button.click();
    const f = await playerFrame(p.page);
    await f.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
    assert.is(playerPageRequests().length, 1);
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('the SDK files are served cross-origin: JavaScript for both scripts, text for the types', async () => {
  for (const [file, type] of [['embed.mjs', 'text/javascript'], ['embed.js', 'text/javascript'], ['embed.d.ts', 'text/plain']]) {
    const res = await fetch(`${srv().url}/player/${file}`, { headers: { Origin: partnerA } });
    assert.is(res.status, 200, file);
    assert.ok(res.headers.get('content-type')!.startsWith(type), `${file}: ${res.headers.get('content-type')}`);
    assert.is(res.headers.get('access-control-allow-origin'), '*', file);
  }
  const types = await (await fetch(`${srv().url}/player/embed.d.ts`)).text();
  assert.ok(types.includes('export declare function createPlayer'));
});

test('the classic script: window.EmbedPlayer.createPlayer finds the player page next to it', async () => {
  const p = await open('', { path: '/player/embed.d.ts' });
  try {
    await p.page.goto(`${partnerA}/classic`);
    const info = await p.page.evaluate(() => {
      const player = window.EmbedPlayer.createPlayer(document.getElementById('slot')!, { movieId: 1 });
      return player.ready().then(() => ({ src: player.iframe!.src }));
    });
    assert.is(info.src, `${srv().url}/player/?movie_id=1`);
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test('the demo page drives its player through the SDK and logs the events', async () => {
  const p = await open('', { path: '/' });
  try {
    const f = p.page.frame({ name: 'player' })!;
    await poll('ready in the demo log', async () => (await p.page.textContent('#log'))!.includes('← ready'));
    await p.page.click('#send-play');
    await f.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, null, { timeout: 20000 });
    await poll('play() confirmed in the log', async () => (await p.page.textContent('#log'))!.includes('✓ play()'));
    assert.match((await p.page.textContent('#status'))!, /^Время: \d+\.\d \/ \d+\.\d с$/);
    await p.page.click('#send-pause');
    await f.waitForFunction(() => document.querySelector('video')!.paused);
    await poll('the pause event in the log', async () => (await p.page.textContent('#log'))!.includes('← pause'));
    await p.page.click('#send-rate');
    await poll('setPlaybackRate confirmed and its event in the log', async () => {
      const text = (await p.page.textContent('#log'))!;
      return text.includes('✓ setPlaybackRate(1.5)') && text.includes('← playbackRateChanged');
    });
    assert.is(await f.evaluate(() => document.querySelector('video')!.playbackRate), 1.5);
    await p.page.click('#send-tracks');
    await poll('the track lists in the log', async () => (await p.page.textContent('#log'))!.includes('"label": "English"'));
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test.after(async () => {
  await Promise.all(partners.map((s) => new Promise((r) => s.close(r))));
});

test.run();
