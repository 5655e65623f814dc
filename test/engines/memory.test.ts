// The viewer's memory in a cross-site frame (issue 54): the partner's pages on http://localhost:N (a
// small server of this file's own), the player on http://127.0.0.1:M: two different sites, so the
// frame is a third party with each engine's default privacy settings. Three embed kinds: a plain
// <iframe>, the SDK, and the SDK keeping the record in the partner's own storage (memory: 'partner'),
// the last on two pages of the partner's. Each journey plays film 1 in one tab, sets the volume, the
// English voice-over and the large subtitle size, saves a known place, loads the partner's page again
// (no autoplay) and reads what the viewer sees: the resume prompt's text, the volume slider, the
// voice-over and the subtitle size checked in the menu.
//
// What keeps the memory in each engine, as measured on these launchers (docs/embedding.md "What the
// viewer's browser remembers"):
// - Chromium blocks third-party storage (the frame's localStorage throws SecurityError, a
//   `SameSite=None; Secure` cookie is dropped): the plain iframe and the SDK remember through the
//   partitioned cookie (`SameSite=None; Secure; Partitioned`), the partner kind through the partner's
//   record handed in the frame's address.
// - Firefox keeps the frame's localStorage and cookies, partitioned by the top-level site.
// - WebKit keeps the frame's localStorage, partitioned; it keeps no third-party cookie at all, not even
//   a partitioned one.
// So every kind remembers in every engine: none of the nine is a "cannot by design".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from './journey';
import * as assert from 'uvu/assert';
import { PARTNER_KEY, PROGRESS_KEY } from '../../src/core/memory-protocol';
import { poll } from '../e2e/harness';
import type { Tab } from './driver';
import { clickUntil, engineName, openMenuPage, srv, timeAbove, video, wake, within } from './harness';

/** Generous: a loaded 2-core machine runs two engines side by side. */
const T = 30000;
/** SPEC §9: a save at most every 10 s; past this since the last one, the next change of place is saved at once. */
const SAVE_GAP_MS = 10_000 + 800;

let partner: Server;
let partnerUrl = '';

type Kind = 'iframe' | 'sdk' | 'partner';

/**
 * A partner page: film 1 in a frame of `kind`. Every save the player reports (timeProgressChanged, the
 * SPEC §7 message it posts to its parent in every kind) is kept with the parent's clock.
 */
function page(kind: Kind): string {
  const player = `${srv().url}/player/`;
  const embed =
    kind === 'iframe'
      ? `<iframe id="player" src="${player}?movie_id=1" width="640" height="360" style="border:0" allow="autoplay; fullscreen; picture-in-picture"></iframe>`
      : `<div id="slot" style="width:640px"></div>
<script type="module">
  import { createPlayer } from '${player}embed.mjs';
  window.player = createPlayer(document.getElementById('slot'), { movieId: 1${kind === 'partner' ? ", memory: 'partner'" : ''} });
</script>`;
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Партнёр</title>
<script>
  window.__saves = [];
  addEventListener('message', (e) => {
    const m = e.data;
    if (e.origin === ${JSON.stringify(new URL(player).origin)} && m && m.protocol === 'embed-player' && m.type === 'timeProgressChanged')
      window.__saves.push({ at: Date.now(), t: m.payload.currentTime });
  });
</script></head><body style="margin:0">${embed}</body></html>`;
}

test.before(async () => {
  partner = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const kind: Kind | undefined = path === '/iframe/' ? 'iframe' : path === '/sdk/' ? 'sdk' : /^\/partner\/[ab]\/$/.test(path) ? 'partner' : undefined;
    if (!kind) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page(kind));
  });
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  // localhost, not 127.0.0.1: another site than the player's (two ports of one host are one site).
  partnerUrl = `http://localhost:${(partner.address() as AddressInfo).port}`;
});
test.after(() => new Promise<void>((r) => partner.close(() => r())));

/** Every whole second of progress in a memory record's JSON (SPEC §3 episodesTimeProgress, however deep). */
function progressIn(json: string): number[] {
  const found: number[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'number') found.push(Math.floor(v));
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  try {
    walk((JSON.parse(json) as Record<string, unknown>)?.[PROGRESS_KEY]);
  } catch {
    // not JSON (yet)
  }
  return found;
}

const frameOf = (parent: Tab) => parent.frame('/player/');

type Save = { at: number; t: number };
const saves = (parent: Tab) => parent.evaluate(() => (window as unknown as { __saves: Save[] }).__saves);

/** Does `act` until `done` holds in `tab` (a control clicked while the bar hid again lands on the picture). */
async function until<A>(tab: Tab, act: () => Promise<void>, done: (arg: A) => unknown, arg: A, what: string, tries = 3): Promise<void> {
  for (let i = 1; ; i++) {
    await act();
    try {
      await tab.waitFor(done, arg, 6000, what);
      return;
    } catch (err) {
      if (i >= tries) throw err;
    }
  }
}

const audioChecked = (player: Tab) =>
  player.evaluate(() => document.querySelector('.pl-menu[data-menu-page="audio-tracks"] [data-menu-item]:not([data-menu-item^="gain:"])[aria-checked="true"]')?.textContent?.trim() ?? '');

const frameStorage = (player: Tab) =>
  player.evaluate(() => {
    try {
      localStorage.getItem('x');
      return 'localStorage';
    } catch (err) {
      return `throws ${(err as Error).name}`;
    }
  });

interface Watched {
  /** What the resume prompt must say: the last save's whole seconds. */
  at: number;
  /** The volume slider's value as set. */
  volume: string;
}

/**
 * In the partner page `parent`: plays film 1 with a click, pauses, sets the volume on the slider (about
 * 30 %), English in the audio page and the large size on the subtitles page; then, once a save is due again, moves 10 s on with the control
 * bar, which saves that place at once: the place every backend then holds, whatever the page's
 * unload still writes (nothing: the place does not change after it) or fails to post.
 */
async function watch(parent: Tab): Promise<Watched> {
  const player = frameOf(parent);
  await player.waitForSelector('.pl-big-play', T);
  if (engineName() === 'chromium')
    assert.match(await frameStorage(player), /^throws SecurityError/, "this Chromium blocks the third-party frame's storage (its default)");
  await player.click('.pl-big-play');
  await timeAbove(player, 1.2, T);
  await parent.waitFor(() => (window as unknown as { __saves: Save[] }).__saves.length > 0, undefined, T, 'the first save (timeProgressChanged)');
  await until(player, async () => {
    await wake(player);
    await player.click('[data-action="play"]');
  }, () => document.querySelector('video')!.paused, undefined, 'paused from the control bar');

  // The slider at about 30 %: a real click, the value the slider then shows is the one to come back.
  await until(player, async () => {
    await wake(player);
    const r = await player.evaluate(() => {
      const b = document.querySelector('input.pl-volume')!.getBoundingClientRect();
      return { x: b.left + b.width * 0.3, y: b.top + b.height / 2 };
    });
    await player.clickAt(Math.round(r.x), Math.round(r.y));
  }, () => { const v = document.querySelector('video')!; return v.volume > 0 && v.volume < 0.8 && !v.muted; }, undefined, 'the volume set on the slider');
  const volume = await player.evaluate(() => document.querySelector<HTMLInputElement>('input.pl-volume')!.value);
  assert.ok(Math.abs((await video(player)).volume - Number(volume)) < 0.001, `the slider (${volume}) says the volume`);

  srv().clearRequests();
  await openMenuPage(player, 'audio-tracks');
  await player.click('.pl-menu [data-menu-item="1"]');
  await player.waitForGone('.pl-menu');
  await poll('the English audio asked for', () => srv().requests.some((r) => r.path.includes('/audio/eng/')), { timeout: T });
  await clickUntil(player, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
  await player.click('.pl-menu [data-menu-item="size:large"]');
  await player.waitForGone('.pl-menu');

  await parent.waitFor((gap: number) => Date.now() - (window as unknown as { __saves: Save[] }).__saves.at(-1)!.at > gap, SAVE_GAP_MS, T, 'a save due again');
  const before = (await saves(parent)).length;
  // The click is retried only while the place has not moved (a second one would move it 10 s more).
  const from = (await video(player)).t;
  await until(player, async () => {
    await wake(player);
    await player.click('[data-action="forward"]');
  }, (t: number) => document.querySelector('video')!.currentTime > t + 5, from, 'the place 10 s on');
  await parent.waitFor((n: number) => (window as unknown as { __saves: Save[] }).__saves.length > n, before, T, 'the place 10 s on saved');
  const saved = (await saves(parent)).at(-1)!;
  const at = Math.floor(saved.t);
  assert.ok(at >= 10 && at < 50, `saved at ${saved.t}`);
  const v = await video(player);
  assert.ok(v.paused && Math.floor(v.t) === at, `still paused at the saved place: ${JSON.stringify(v)} vs ${saved.t}`);
  return { at, volume };
}

/** After the partner's page loaded again: the prompt, the slider, Continue, the voice-over, the subtitle size. */
async function remembered(parent: Tab, { at, volume }: Watched): Promise<void> {
  const player = frameOf(parent);
  await player.waitForSelector('.pl-resume', T);
  assert.is(await player.text('.pl-resume__text'), `Вы остановились на 0:00:${String(at).padStart(2, '0')}`);
  assert.ok((await video(player)).paused, 'no autoplay');
  await player.waitForSelector('input.pl-volume', T);
  assert.is(await player.evaluate(() => document.querySelector<HTMLInputElement>('input.pl-volume')!.value), volume, 'the volume slider');
  await player.click('.pl-resume__continue');
  await timeAbove(player, at + 0.3, T);
  const v = await video(player);
  assert.ok(v.t < at + 10, `continued from the saved place: ${v.t}`);
  assert.ok(Math.abs(v.volume - Number(volume)) < 0.001 && !v.muted, `plays at the remembered volume: ${JSON.stringify(v)}`);
  await openMenuPage(player, 'audio-tracks');
  // The remembered voice-over is asked for when the stream's tracks arrive: waited for, not assumed.
  await poll(async () => `the English voice-over checked (checked: '${await audioChecked(player)}')`, async () => (await audioChecked(player)) === 'English', { timeout: T });
  await player.press('Escape');
  await player.waitForGone('.pl-menu', T);
  await clickUntil(player, '[data-action="subtitles"]', '.pl-menu[data-menu-page="subs"]');
  const size = await player.evaluate(() => document.querySelector('.pl-menu [data-menu-item^="size:"][aria-checked="true"]')?.textContent?.trim());
  assert.is(size, 'Крупный', 'the subtitle size');
}

/**
 * Everything the player's frame kept itself in this partition (its localStorage, where the engine lets
 * it have one, and its cookies, the partitioned record among them) forgotten, so that what comes back
 * on the partner's next page can only come from the partner's record. The player frame goes first (its
 * unload writes what it still has); then a frame of the player's origin that runs no player (a plain
 * file beside the page, on the page's path) clears the storage.
 */
async function forgetFrameMemory(parent: Tab): Promise<void> {
  const file = `${srv().url}/player/embed.d.ts?forget`;
  await parent.evaluate((src: string) => {
    document.querySelector('iframe')!.remove();
    const f = document.createElement('iframe');
    f.src = src;
    document.body.append(f);
  }, file);
  const blank = parent.frame('embed.d.ts?forget');
  await blank.waitFor(() => document.readyState === 'complete', undefined, T, 'a plain frame of the player origin');
  const forget = () => {
    let local = 'blocked';
    try {
      localStorage.clear();
      local = `${localStorage.length} keys`;
    } catch {
      // Chromium: the third-party frame has no localStorage at all.
    }
    for (const c of document.cookie.split(';')) {
      const name = c.split('=')[0].trim();
      for (const path of ['/', '/player/', '/player'])
        for (const attrs of ['; SameSite=None; Secure; Partitioned', '; SameSite=None; Secure', ''])
          if (name) document.cookie = `${name}=; Max-Age=0; Path=${path}${attrs}`;
    }
    return { cookies: document.cookie, local };
  };
  const left = await blank.evaluate(forget);
  assert.is(left.cookies, '', `the frame's cookies forgotten: ${JSON.stringify(left)}`);
  assert.match(left.local, /^(0 keys|blocked)$/);
  // Read again a moment later: the player frame's unload wrote nothing back since.
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(await blank.evaluate(forget), left, "the frame's memory stays forgotten");
}

test('a plain <iframe> on another site: prompt, volume and voice-over come back after the page loads again', async () => {
  await within('', async (parent) => {
    const watched = await watch(parent);
    srv().clearRequests();
    await parent.goto(`${partnerUrl}/iframe/`);
    await remembered(parent, watched);
    // The memory cookie (Chromium's backend here) rides on no request but the page's own: the API and
    // media are off its path, and the assets beside the page come from the HTTP cache. (A Secure
    // cookie over http://127.0.0.1 is not sent at all: it is read by the page's script alone.)
    const carrying = srv().requests.filter((r) => String(r.headers.cookie ?? '').includes('player-memory='));
    assert.ok(carrying.every((r) => r.path === '/player/'), `the memory cookie on ${carrying.map((r) => r.path).join(', ')}`);
  }, { path: `${partnerUrl}/iframe/` });
});

test('the SDK on another site: prompt, volume and voice-over come back after the page loads again', async () => {
  await within('', async (parent) => {
    await parent.waitFor(() => 'player' in window, undefined, T, 'the SDK loaded');
    const watched = await watch(parent);
    await parent.goto(`${partnerUrl}/sdk/`);
    await remembered(parent, watched);
  }, { path: `${partnerUrl}/sdk/` });
});

test("the SDK with the partner's memory: what was watched on one of the partner's pages comes back on another, from the partner's record alone", async () => {
  await within('', async (parent) => {
    await parent.waitFor(() => 'player' in window, undefined, T, 'the SDK loaded');
    const watched = await watch(parent);
    // The partner's own record holds the saved place before the page is left.
    const stored = () => parent.evaluate((k: string) => localStorage.getItem(k) ?? '', PARTNER_KEY);
    await poll(async () => `the partner's record with ${watched.at} s (${await stored()})`, async () => progressIn(await stored()).includes(watched.at), { timeout: T });
    await forgetFrameMemory(parent);
    await parent.goto(`${partnerUrl}/partner/b/`);
    // Page B handed that record to its frame in the frame's address.
    const handed = await parent.waitFor(() => {
      const src = document.querySelector('iframe')?.src ?? '';
      return src.includes('#memory=') ? decodeURIComponent(src.split('#memory=')[1]) : '';
    }, undefined, T, "the frame's address with #memory=");
    assert.ok(progressIn(handed).includes(watched.at), `the record handed to the frame: ${handed}`);
    await remembered(parent, watched);
  }, { path: `${partnerUrl}/partner/a/` });
});

test.run();
