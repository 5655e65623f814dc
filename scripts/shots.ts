// `npm run shots`: the player's key states in Chromium, Firefox and WebKit at a phone's portrait and
// landscape sizes and a desktop size, as PNGs side by side on one page (shots/index.html), to see a
// layout regression at a glance. Not a pixel-diff test: it never fails on what it shows.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
// @ts-expect-error: plain JS
import { ensureChromium } from './find-chromium.mjs';
// @ts-expect-error: plain JS
import { ensureEngines } from './find-engines.mjs';
// @ts-expect-error: the server is plain JS with JSDoc types
import { startServer } from '../server/index.mjs';
import { ENGINES, type EngineName, type RefServer, type Tab, type Viewport, launch, tabOf } from '../test/engines/driver';

const OUT = 'shots';
const SIZES: Array<Viewport & { name: string }> = [
  { name: 'phone portrait', width: 360, height: 640 },
  { name: 'phone landscape', width: 640, height: 360 },
  { name: 'desktop', width: 1280, height: 720 },
];
const GENERIC_FAULT = { match: '/catalog-api/contents/1', status: 500 };

interface Context {
  tab: Tab;
  url: string;
  server: RefServer;
  ads: RefServer;
}

const playing = async ({ tab }: Context, past = 1) => {
  await tab.click('.pl-big-play');
  await tab.waitFor((t: number) => (document.querySelector('video')?.currentTime ?? 0) > t, past, 25000, 'playing');
};
const wake = async ({ tab }: Context) => {
  await tab.moveTo(30 + Math.round(Math.random() * 20), 60);
  await tab.waitFor(() => !document.querySelector('.pl[data-idle]'), undefined, 5000, 'the controls shown');
};
const error = async (c: Context, query: string) => {
  await c.tab.goto(`${c.url}${query}`);
  if (query === '?movie_id=3') await c.tab.click('.pl-big-play');
  await c.tab.waitForSelector('.pl-error');
};

/** Each state: how to get there from a fresh page. */
const STATES: Array<[string, (c: Context) => Promise<void>]> = [
  ['start', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=1`);
    await c.tab.waitForSelector('.pl-big-play');
  }],
  ['playing, controls shown', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=1`);
    await playing(c);
    await wake(c);
  }],
  ['menu open', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=2`);
    await playing(c);
    await wake(c);
    await c.tab.click('[data-action="settings"]');
    await c.tab.waitForSelector('.pl-menu[data-menu-page="main"]');
  }],
  ['resume prompt', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=2&season=2&episode=2`);
    await c.tab.waitForSelector('.pl-big-play');
    await c.tab.evaluate(() => localStorage.setItem('episodesTimeProgress', JSON.stringify({ 205: 30 })));
    await c.tab.reload();
    await c.tab.waitForSelector('.pl-resume');
  }],
  ['share popup', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=2&season=1&episode=2&enabled_share=1`);
    await playing(c);
    await wake(c);
    await c.tab.click('[data-action="share"]');
    await c.tab.waitForSelector('.pl-share');
  }],
  ['next-episode card', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=2&season=1&episode=2`);
    await playing(c, 0.5);
    await c.tab.evaluate(() => void (document.querySelector('video')!.currentTime = 54));
    await c.tab.waitForSelector('.pl-next');
  }],
  ['ad with skip', async (c) => {
    c.server.setAdListUrl(`${c.ads.url}/ad-list.json?pre=skippable&mid=`);
    try {
      await c.tab.goto(`${c.url}?movie_id=1`);
      // The pre-roll loads on mount; refused without a gesture, it waits for its own play button.
      await c.tab.waitForSelector('.pl-ad:not([hidden]) .pl-ad__play');
      if (await c.tab.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.paused)) await c.tab.click('.pl-ad__play');
      await c.tab.waitForSelector('.pl-ad:not([hidden]) .pl-ad__skip:not([disabled])', 25000);
    } finally {
      c.server.setAdListUrl(undefined);
    }
  }],
  ['blocked', (c) => error(c, '?movie_id=3')],
  ['descriptor failure', (c) => error(c, '?movie_id=6')],
  ['404', (c) => error(c, '?movie_id=999')],
  ['no movie_id', (c) => error(c, '')],
  ['generic error', async (c) => {
    c.server.setFaults([GENERIC_FAULT]);
    try {
      await error(c, '?movie_id=1');
    } finally {
      c.server.clearFaults();
    }
  }],
];

const file = (engine: string, size: Viewport, state: number) => `${engine}-${size.width}x${size.height}-${state}.png`;

/** One engine's shots, with servers of its own (the ad list is the server's state). Returns what failed. */
async function shoot(name: EngineName): Promise<{ version: string; failed: Record<string, string> }> {
  const server = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  const ads = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  const engine = await launch(name);
  const failed: Record<string, string> = {};
  try {
    for (const size of SIZES) {
      for (const [i, [state, reach]] of STATES.entries()) {
        // A fresh tab per state: no storage or media state carried from the one before.
        const tab = tabOf(name, await engine.newTab(size));
        try {
          await reach({ tab, url: `${server.url}/player/`, server, ads: { ...ads, url: ads.url.replace('127.0.0.1', 'localhost') } });
        } catch (err) {
          failed[file(name, size, i)] = (err as Error).message.split('\n')[0];
        }
        writeFileSync(`${OUT}/${file(name, size, i)}`, await tab.screenshot());
        await tab.close();
        process.stdout.write('.');
      }
    }
    return { version: engine.version, failed };
  } finally {
    await engine.close();
    await ads.close();
    await server.close();
  }
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(versions: Record<string, string>, failed: Record<string, string>): string {
  const scale = (s: Viewport) => (s.width > 1000 ? 0.25 : s.height > s.width ? 0.45 : 0.5);
  const head = SIZES.flatMap((s) => ENGINES.map((e) => `<th>${e} ${escape(versions[e] ?? '')}<br>${s.name} ${s.width}×${s.height}</th>`)).join('');
  const rows = STATES.map(([state], i) => {
    const cells = SIZES.flatMap((s) =>
      ENGINES.map((e) => {
        const f = file(e, s, i);
        const note = failed[f] ? `<p class="failed">did not reach it: ${escape(failed[f])}</p>` : '';
        return `<td><a href="${f}"><img src="${f}" width="${Math.round(s.width * scale(s))}" height="${Math.round(s.height * scale(s))}" alt="${escape(`${state}, ${e}, ${s.name}`)}"></a>${note}</td>`;
      }),
    ).join('');
    return `<tr><th scope="row">${escape(state)}</th>${cells}</tr>`;
  }).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Player shots</title>
<style>body{font:13px system-ui,sans-serif;margin:1rem;background:#eee}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top;background:#fff}
th{font-weight:600;text-align:left}img{display:block;background:#000}.failed{color:#b00;max-width:18rem;margin:.25rem 0 0}</style></head>
<body><h1>Player shots, ${new Date().toISOString()}</h1><p>Each state in each engine at each size; click a shot for its full size.</p>
<table><thead><tr><th></th>${head}</tr></thead><tbody>
${rows}
</tbody></table></body></html>
`;
}

Object.assign(process.env, { CHROMIUM_PATH: ensureChromium() }, ensureEngines());
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const only = process.env.ENGINE ? (process.env.ENGINE.split(',') as EngineName[]) : ENGINES;
const results = await Promise.all(only.map(shoot));
const versions = Object.fromEntries(only.map((e, i) => [e, results[i].version]));
const failed = Object.assign({}, ...results.map((r) => r.failed));
writeFileSync(`${OUT}/index.html`, page(versions, failed));
console.log(`\n${OUT}/index.html: ${STATES.length} states × ${SIZES.length} sizes × ${only.length} engines`);
for (const [f, why] of Object.entries(failed)) console.log(`  not reached: ${f}: ${why}`);
process.exit(0);
