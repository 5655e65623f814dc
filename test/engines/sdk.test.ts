// The partner SDK (/player/embed.mjs) on a partner page of another origin (a small http server of its
// own): commands, getters and events through the SDK's handle, outcomes read in the player frame.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { poll } from '../e2e/harness';
import type { Tab } from './driver';
import { srv, timeAbove, video, within } from './harness';

let partner: Server;
let partnerUrl = '';

test.before(async () => {
  partner = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title>
<script type="module">
  import * as sdk from '${srv().url}/player/embed.mjs';
  window.__events = [];
  window.player = sdk.createPlayer(document.getElementById('slot'), { movieId: 2, season: 1, episode: 1 });
  for (const name of ['ready', 'play', 'pause', 'timeupdate', 'volumechange', 'episodeChanged', 'timeProgressChanged', 'error'])
    window.player.on(name, (data) => window.__events.push({ name, data }));
  window.call = (method, ...args) => window.player[method](...args).then((value) => ({ value }), (error) => ({ error }));
</script></head><body style="margin:0"><div id="slot" style="width:640px"></div></body></html>`);
  });
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/`;
});
test.after(() => new Promise<void>((r) => partner.close(() => r())));

type Result = { value?: any; error?: { code: string } };
const call = (tab: Tab, method: string, ...args: unknown[]) =>
  tab.evaluate(([m, a]: [string, unknown[]]) => (window as any).call(m, ...a), [method, args] as [string, unknown[]]) as Promise<Result>;
const events = (tab: Tab, name: string) => tab.evaluate((n: string) => ((window as any).__events as Array<{ name: string; data: any }>).filter((e) => e.name === n).map((e) => e.data), name);
const waitEvent = (tab: Tab, name: string, test: (data: any) => boolean = () => true) =>
  poll(`the SDK event ${name}`, async () => (await events(tab, name)).some(test), { timeout: 20000 });

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
    assert.is((await call(page, 'selectEpisode', { season: 1, episode: 2 })).value?.id, 202);
    await waitEvent(page, 'episodeChanged', (d) => d.episode.id === 202);
    await waitEvent(page, 'timeProgressChanged', (d) => d.currentTime > 0 && d.duration > 0);
    assert.is((await call(page, 'seek', 'abc')).error?.code, 'bad-arguments');
    assert.is((await call(page, 'selectEpisode', { id: 999999 })).error?.code, 'episode-not-found');
    assert.is((await events(page, 'ready')).length, 1, "'ready' once");
  }, { path: partnerUrl });
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
