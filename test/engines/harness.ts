// The journeys' shared setup: one reference server and one engine (ENGINE=chromium|firefox|webkit)
// per process, a fresh tab (own storage) for each journey.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: the server is plain JS with JSDoc types
import { startServer } from '../../server/index.mjs';
import { serversQuiet, watchRequests } from '../server-quiet';
import { type Engine, type EngineName, ENGINES, type RefServer, type Tab, type Viewport, isUnresponsive, launch, tabOf } from './driver';

let server: RefServer | undefined;
let current: Engine | undefined;

export function engineName(): EngineName {
  const name = (process.env.ENGINE ?? 'chromium') as EngineName;
  if (!ENGINES.includes(name)) throw new Error(`ENGINE=${name}: one of ${ENGINES.join(', ')}`);
  return name;
}

/**
 * The server and the engine. An engine that fails to start is started once more (a browser start, not a
 * journey: a journey that fails is reported as it is, test/engines/all.ts).
 */
export async function boot(): Promise<Engine> {
  server = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  watchRequests(server.requests);
  const name = engineName();
  current = await launch(name).catch((err: Error) => {
    console.warn(`${name} did not start (${err.message.split('\n')[0]}): starting it once more`);
    return launch(name);
  });
  return current;
}

export async function shutdown(): Promise<void> {
  await current?.close().catch(() => {});
  await server?.close().catch(() => {});
}

export const srv = (): RefServer => server!;

/** Another reference server: another origin (a third-party ad server); `host` 'localhost' differs from 127.0.0.1. */
export async function startExtraServer(host?: string): Promise<RefServer> {
  const s = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  watchRequests(s.requests);
  return host ? { ...s, url: s.url.replace('127.0.0.1', host) } : s;
}

const DESKTOP: Viewport = { width: 960, height: 540 };

/** How many of a failed journey's console lines its message carries. */
const LOGGED_LINES = 12;

/** A fresh tab at the player page (`path` '/' for the demo partner page, or a whole address). */
export async function open(query: string, { viewport = DESKTOP, path = '/player/' } = {}): Promise<Tab> {
  const tab = tabOf(current!.name, await current!.newTab(viewport));
  try {
    await tab.goto(/^https?:/.test(path) ? path : `${server!.url}${path}${query}`);
  } catch (err) {
    await tab.close();
    throw err;
  }
  return tab;
}

/** Runs `journey` in a fresh tab and closes it whatever happens, then lets its last requests land (`serversQuiet`). */
export async function within(query: string, journey: (tab: Tab) => Promise<void>, opts?: Parameters<typeof open>[1]): Promise<void> {
  const tab = await open(query, opts);
  try {
    await journey(tab);
  } catch (err) {
    // What the page showed when the journey failed, for the one reading the failure.
    if (isUnresponsive(err)) throw err;
    const file = join(tmpdir(), `engines-${current!.name}-${Date.now()}.png`);
    await tab.screenshot().then((png) => writeFileSync(file, png), () => {});
    (err as Error).message += ` [screenshot: ${file}]`;
    // And what it logged: the player's own account of an error screen or a play that never came.
    const logged = tab.raw.logged?.().slice(-LOGGED_LINES);
    if (logged?.length) (err as Error).message += `\n    the page's last console warnings and errors:\n      ${logged.join('\n      ')}`;
    throw err;
  } finally {
    await tab.close();
    await serversQuiet();
  }
}

/** The demo partner page (server/demo) as the parent, its player frame pointed at `src`; every message it receives kept. */
export async function demo(src: string, journey: (parent: Tab, player: Tab) => Promise<void>): Promise<void> {
  await within('', async (parent) => {
    await parent.waitForSelector('#player');
    await parent.evaluate((s: string) => {
      const w = window as unknown as { __messages: unknown[] };
      w.__messages = [];
      addEventListener('message', (e) => w.__messages.push(e.data));
      (document.getElementById('player') as HTMLIFrameElement).src = s;
    }, src);
    const player = parent.frame(src);
    await player.waitFor((s: string) => location.href.endsWith(s) && document.readyState === 'complete', src, 20000, `the player frame at ${src}`);
    await journey(parent, player);
  }, { path: '/' });
}

export interface Envelope {
  type: string;
  version: number;
  contentId: number | null;
  payload: Record<string, unknown>;
}

/** The player's messages the demo parent received for `contentId`. */
export const messages = (parent: Tab, contentId: number): Promise<Envelope[]> =>
  parent.evaluate(
    (id: number) =>
      (window as unknown as { __messages: Array<Envelope & { protocol: string }> }).__messages.filter(
        (m) => m && m.protocol === 'embed-player' && m.contentId === id,
      ),
    contentId,
  );

// Page-side helpers: what the <video> of the player shows.
export const video = (tab: Tab) =>
  tab.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('video.pl-video') ?? document.querySelector('video')!;
    return { t: v.currentTime, paused: v.paused, muted: v.muted, volume: v.volume, src: v.currentSrc, poster: v.poster, height: v.videoHeight, rate: v.playbackRate };
  });

export const timeAbove = (tab: Tab, seconds: number, timeout = 25000) =>
  tab.waitFor((s: number) => (document.querySelector('video')?.currentTime ?? 0) > s, seconds, timeout, `the video past ${seconds} s`);

/** Wakes the auto-hidden controls with a pointer move over the player. */
export const wake = (tab: Tab) => tab.moveTo(100 + Math.round(Math.random() * 40), 100);

/** Clicks the big play button and waits for the film to play. */
export async function play(tab: Tab, past = 0.5): Promise<void> {
  await tab.click('.pl-big-play');
  await timeAbove(tab, past);
}

/**
 * Wakes the controls and clicks `control` until `outcome` is in the page. On a busy machine the
 * controls may hide between the wake and the click (WebDriver's commands take long), and the click
 * then lands on the picture: the outcome is waited for, not the click trusted.
 */
export async function clickUntil(tab: Tab, control: string, outcome: string, tries = 3): Promise<void> {
  for (let i = 1; ; i++) {
    await wake(tab);
    await tab.click(control);
    try {
      await tab.waitForSelector(outcome, 4000);
      return;
    } catch (err) {
      if (i >= tries) throw err;
    }
  }
}

/** Opens a settings page through the settings button. */
export async function openMenuPage(tab: Tab, name: string): Promise<void> {
  await clickUntil(tab, '[data-action="settings"]', '.pl-menu[data-menu-page="main"]');
  await tab.click(`.pl-menu [data-menu-item="${name}"]`);
  await tab.waitForSelector(`.pl-menu[data-menu-page="${name}"]`);
}

export const storedJson = (tab: Tab, key: string) => tab.evaluate((k: string) => JSON.parse(localStorage.getItem(k) ?? 'null'), key);
