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
  ['skip intro', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=2&season=1&episode=2`);
    await playing(c, 0.5);
    // The intro runs from 2 s (server/catalogue.json); the button shows for its first 5 s.
    await c.tab.waitForSelector('.pl[data-skip-intro] .pl-skip-intro', 20000);
    await c.tab.evaluate(() => document.querySelector('video')!.pause());
  }],
  ['credits countdown', async (c) => {
    await c.tab.goto(`${c.url}?movie_id=2&season=1&episode=2`);
    await playing(c, 0.5);
    // The credits start at 48 s; paused, the countdown holds on its first number.
    await c.tab.evaluate(() => void (document.querySelector('video')!.currentTime = 48.5));
    await c.tab.waitFor(() => /^Следующий эпизод через \d+$/.test(document.querySelector('.pl-next__head')?.textContent?.trim() ?? ''), undefined, 20000, 'the countdown');
    await c.tab.evaluate(() => document.querySelector('video')!.pause());
  }],
  ...(['small', 'medium', 'large'] as const).map((size): [string, (c: Context) => Promise<void>] => [`subtitles, ${size}`, async (c) => {
    // The style as the device remembers it (docs/memory.md, player-subtitles), then the track from the menu.
    await c.tab.goto(`${c.url}?movie_id=1`);
    await c.tab.waitForSelector('.pl-big-play');
    await c.tab.evaluate((s: string) => localStorage.setItem('player-subtitles', JSON.stringify({ size: s })), size);
    await c.tab.goto(`${c.url}?movie_id=1`);
    await c.tab.waitForSelector('.pl-big-play');
    await playing(c);
    await wake(c);
    await c.tab.click('[data-action="subtitles"]');
    await c.tab.waitForSelector('.pl-menu[data-menu-page="subs"]');
    await c.tab.click('.pl-menu [data-menu-item="0"]');
    await c.tab.waitForGone('.pl-menu');
    // A cue shows from 4 s to 8 s: paused at 5 s, it stays.
    await c.tab.evaluate(() => {
      const v = document.querySelector('video')!;
      v.currentTime = 5;
      v.pause();
    });
    await c.tab.waitForSelector('.pl-subs__cue', 20000);
    await wake(c);
  }]),
  ['ad with skip', async (c) => {
    c.server.setAdListUrl(`${c.ads.url}/ad-list.json?pre=skippable&mid=`);
    try {
      await c.tab.goto(`${c.url}?movie_id=1`);
      // A click on play starts the break (as in test/engines/ads.test.ts).
      await c.tab.waitForSelector('.pl-big-play');
      await c.tab.click('.pl-big-play');
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

/** A step of one state's shot: how long it may take before the engine is judged stuck on it. */
const STEP_MS = 60_000;
/** Stuck this many states in a row, an engine is given up: the rest of its cells say so, the others go on. */
const STUCK_LIMIT = 2;

/** `work`, or a rejection naming `what` once `ms` have passed (the work itself is left to end or hang). */
function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

interface EngineShots {
  version: string;
  /** Why the engine as a whole failed (it did not start, or it got stuck), if it did. */
  failure?: string;
  /** Per PNG name: why its state was not reached, or why there is no picture at all (`shot: false`). */
  failed: Record<string, { why: string; shot: boolean }>;
}

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0];

/**
 * One engine's shots, with servers of its own (the ad list is the server's state). Never rejects: a state
 * it cannot reach, a screenshot that does not come and an engine that does not start or gets stuck are
 * each written down, and the sheet is made from whatever there is.
 */
async function shoot(name: EngineName): Promise<EngineShots> {
  const result: EngineShots = { version: '', failed: {} };
  const server = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  const ads = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  let engine: Awaited<ReturnType<typeof launch>> | undefined;
  try {
    engine = await bounded(launch(name), 3 * STEP_MS, 'the browser start');
    result.version = engine.version;
    let stuck = 0;
    for (const size of SIZES) {
      for (const [i, [state, reach]] of STATES.entries()) {
        const png = file(name, size, i);
        if (result.failure) {
          result.failed[png] = { why: result.failure, shot: false };
          continue;
        }
        let hung = false;
        const note = (why: string, shot: boolean, timedOut: boolean) => {
          result.failed[png] = { why, shot };
          hung ||= timedOut;
        };
        // A fresh tab per state: no storage or media state carried from the one before.
        let tab: Tab | undefined;
        try {
          tab = tabOf(name, await bounded(engine.newTab(size), STEP_MS, 'a new tab'));
          await bounded(reach({ tab, url: `${server.url}/player/`, server, ads: { ...ads, url: ads.url.replace('127.0.0.1', 'localhost') } }), 2 * STEP_MS, state);
        } catch (err) {
          note(firstLine(err), true, /no answer in/.test(firstLine(err)));
        }
        if (tab) {
          try {
            writeFileSync(`${OUT}/${png}`, await bounded(tab.screenshot(), STEP_MS, 'the screenshot'));
          } catch (err) {
            note(`${result.failed[png] ? `${result.failed[png].why}; ` : ''}${firstLine(err)}`, false, true);
          }
          await bounded(tab.close(), STEP_MS, 'closing the tab').catch((err) => note(firstLine(err), result.failed[png]?.shot ?? true, true));
        } else result.failed[png] = { ...result.failed[png], shot: false };
        stuck = hung ? stuck + 1 : 0;
        if (stuck >= STUCK_LIMIT) result.failure = `given up after ${STUCK_LIMIT} states in a row without an answer (last: ${result.failed[png].why})`;
        process.stdout.write(result.failed[png] ? 'x' : '.');
      }
    }
  } catch (err) {
    result.failure = firstLine(err);
    for (const size of SIZES) for (const i of STATES.keys()) result.failed[file(name, size, i)] ??= { why: result.failure, shot: false };
  } finally {
    await (engine ? bounded(engine.close(), STEP_MS, 'closing the browser').catch(() => undefined) : undefined);
    await ads.close();
    await server.close();
  }
  return result;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(results: Partial<Record<EngineName, EngineShots>>): string {
  const scale = (s: Viewport) => (s.width > 1000 ? 0.25 : s.height > s.width ? 0.45 : 0.5);
  const engines = ENGINES.filter((e) => results[e]);
  const head = SIZES.flatMap((s) => engines.map((e) => `<th>${e} ${escape(results[e]!.version)}<br>${s.name} ${s.width}×${s.height}</th>`)).join('');
  const failures = engines
    .filter((e) => results[e]!.failure)
    .map((e) => `<p class="failed"><strong>${e} failed:</strong> ${escape(results[e]!.failure!)}</p>`)
    .join('');
  const rows = STATES.map(([state], i) => {
    const cells = SIZES.flatMap((s) =>
      engines.map((e) => {
        const f = file(e, s, i);
        const failed = results[e]!.failed[f] ?? (results[e]!.failure ? { why: results[e]!.failure!, shot: false } : undefined);
        const width = Math.round(s.width * scale(s));
        const height = Math.round(s.height * scale(s));
        const note = failed ? `<p class="failed">${failed.shot ? 'did not reach it' : 'no shot'}: ${escape(failed.why)}</p>` : '';
        const picture = failed && !failed.shot
          ? `<div class="none" style="width:${width}px;height:${height}px"></div>`
          : `<a href="${f}"><img src="${f}" width="${width}" height="${height}" alt="${escape(`${state}, ${e}, ${s.name}`)}"></a>`;
        return `<td>${picture}${note}</td>`;
      }),
    ).join('');
    return `<tr><th scope="row">${escape(state)}</th>${cells}</tr>`;
  }).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Player shots</title>
<style>body{font:13px system-ui,sans-serif;margin:1rem;background:#eee}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top;background:#fff}
th{font-weight:600;text-align:left}img,.none{display:block;background:#000}.none{background:repeating-linear-gradient(45deg,#ddd 0 8px,#f4f4f4 8px 16px)}.failed{color:#b00;max-width:18rem;margin:.25rem 0 0}</style></head>
<body><h1>Player shots, ${new Date().toISOString()}</h1><p>Each state in each engine at each size; click a shot for its full size.</p>${failures}
<table><thead><tr><th></th>${head}</tr></thead><tbody>
${rows}
</tbody></table></body></html>
`;
}

Object.assign(process.env, { CHROMIUM_PATH: ensureChromium() }, ensureEngines());
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const only = process.env.ENGINE ? (process.env.ENGINE.split(',') as EngineName[]) : ENGINES;
// Side by side; one engine's failure is its own cells', never the sheet's.
const results: Partial<Record<EngineName, EngineShots>> = {};
await Promise.all(only.map(async (e) => (results[e] = await shoot(e).catch((err) => ({ version: '', failure: firstLine(err), failed: {} })))));
writeFileSync(`${OUT}/index.html`, page(results));
console.log(`\n${OUT}/index.html: ${STATES.length} states × ${SIZES.length} sizes × ${only.length} engines`);
for (const e of only) {
  const r = results[e]!;
  if (r.failure) console.log(`  ${e} failed: ${r.failure}`);
  for (const [f, { why, shot }] of Object.entries(r.failed)) if (!r.failure || why !== r.failure) console.log(`  ${shot ? 'not reached' : 'no shot'}: ${f}: ${why}`);
}
process.exit(0);
