// `npm run bench:long-tasks`: the main thread's long tasks (≥ 50 ms, PerformanceObserver 'longtask',
// buffered) from navigation to the first 'playing' + 2 s, for the player on film 1 with autoplay, with
// ads off and on (the default ad list: a pre-roll), on the local reference server (no network
// throttling: this is about the CPU), without and with 4× CPU throttling (CDP; information only).
// Each long task is printed with the scripts the browser names for it (Long Animation Frames, where
// the browser has them). Prints medians over the rounds; never fails on timing. BENCH_RUNS=N rounds
// (default 5, at least 3). Builds first if dist/ is missing.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';
// @ts-expect-error: plain JS modules
import { startServer } from '../server/index.mjs';
// @ts-expect-error: plain JS modules
import { CHROMIUM_FLAGS, ensureChromium } from '../scripts/find-chromium.mjs';
import { inFreshPage, within } from './page';

const RUNS = Math.max(3, Math.floor(Number(process.env.BENCH_RUNS) || 5));
const AFTER_PLAYING_MS = 2000;
const RUN_TIMEOUT_MS = 60_000;

interface Scenario {
  name: string;
  cpu: number;
  adList?: string;
}

const SCENARIOS: Scenario[] = [
  { name: 'ads off', cpu: 1 },
  { name: 'ads on', cpu: 1, adList: '/ad-list.json' },
  { name: 'ads off, 4x cpu', cpu: 4 },
  { name: 'ads on, 4x cpu', cpu: 4, adList: '/ad-list.json' },
];

// Runs in the page before its own scripts. A string, not a function: tsx would wrap named inner
// functions in a helper the page lacks.
const PROBE = `(() => {
  const tasks = [];
  const frames = [];
  let playing;
  const waiters = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration,
      attribution: (e.attribution || []).map((a) => [a.name, a.containerType, a.containerSrc || a.containerName].filter(Boolean).join(' ')).join('; ') });
  }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) frames.push({ start: e.startTime, duration: e.duration,
        scripts: (e.scripts || []).map((s) => ({ start: s.startTime, duration: s.duration, invoker: s.invoker, source: s.sourceURL, fn: s.sourceFunctionName })) });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
  addEventListener('playing', (e) => {
    if (playing !== undefined || !(e.target instanceof HTMLMediaElement)) return;
    playing = performance.now();
    for (const w of waiters) w(playing);
  }, true);
  Object.defineProperty(window, '__longTasks', {
    value: () => new Promise((resolve) => {
      const done = (at) => setTimeout(() => resolve({ playing: at, tasks, frames }), ${AFTER_PLAYING_MS});
      if (playing !== undefined) done(playing); else waiters.push(done);
    }),
  });
})();`;

interface Task {
  start: number;
  duration: number;
  attribution: string;
}
interface Frame {
  start: number;
  duration: number;
  scripts: Array<{ start: number; duration: number; invoker: string; source: string; fn: string }>;
}
interface Run {
  playing: number;
  tasks: Task[];
  frames: Frame[];
}

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const ms = (n: number) => n.toFixed(0);

async function measure(browser: Browser, origin: string, scenario: Scenario): Promise<Run> {
  return inFreshPage(browser, { probe: PROBE, cpu: scenario.cpu }, async (page) => {
    await page.goto(origin + '/player/?movie_id=1&auto_play=1', { waitUntil: 'commit', timeout: RUN_TIMEOUT_MS });
    const run = (await within(page.evaluate('window.__longTasks()'), RUN_TIMEOUT_MS, `no 'playing'`)) as Run;
    run.tasks = run.tasks.filter((t) => t.start <= run.playing + AFTER_PLAYING_MS);
    return run;
  });
}

/** The scripts the browser names for a long task: those of the long animation frames it overlaps. */
function scriptsOf(run: Run, task: Task): string {
  const end = task.start + task.duration;
  const names: string[] = [];
  for (const f of run.frames) {
    if (f.start > end || f.start + f.duration < task.start) continue;
    for (const s of f.scripts) {
      if (s.start > end || s.start + s.duration < task.start || s.duration < 5) continue;
      const file = s.source ? new URL(s.source).pathname.split('/').pop() : '';
      names.push(`${s.invoker}${s.fn ? ` ${s.fn}` : ''}${file ? ` (${file})` : ''} ${ms(s.duration)} ms`);
    }
  }
  return names.join('; ');
}

if (!existsSync('dist/player.html')) execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
const began = Date.now();
const server = await startServer({ port: 0 });
let browser: Browser;
try {
  browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'],
  });
} catch (err) {
  await server.close();
  throw err;
}

const results = new Map<string, { runs: Run[]; failures: string[] }>(SCENARIOS.map((s) => [s.name, { runs: [], failures: [] }]));
try {
  console.log(`Chromium ${browser.version()}; ${RUNS} rounds; /player/?movie_id=1&auto_play=1 on the local server, cache disabled, no network throttling.`);
  // Warm-up, not counted: the browser's first page and the server's first compression of each file.
  await measure(browser, server.url, SCENARIOS[0]).catch(() => {});
  for (let round = 0; round < RUNS; round++) {
    for (const scenario of SCENARIOS) {
      server.setAdListUrl(scenario.adList ? server.url + scenario.adList : undefined);
      const into = results.get(scenario.name)!;
      try {
        into.runs.push(await measure(browser, server.url, scenario));
      } catch (err) {
        into.failures.push((err as Error).message.split('\n')[0]);
      }
    }
    process.stderr.write(`round ${round + 1}/${RUNS} done (${((Date.now() - began) / 1000).toFixed(0)} s)\n`);
  }
  server.setAdListUrl(undefined);

  for (const scenario of SCENARIOS) {
    const { runs, failures } = results.get(scenario.name)!;
    console.log(`\n${scenario.name}${failures.length ? ` (${failures.length} failed: ${[...new Set(failures)].join('; ')})` : ''}`);
    for (const [i, run] of runs.entries()) {
      const list = run.tasks.map((t) => `${ms(t.duration)}@${ms(t.start)}`).join(' ') || 'none';
      console.log(`  run ${i + 1}: first 'playing' ${ms(run.playing)} ms; long tasks (ms@start): ${list}`);
      for (const t of run.tasks) {
        const why = [t.attribution, scriptsOf(run, t)].filter(Boolean).join(' | ');
        if (why) console.log(`      ${ms(t.duration)} ms at ${ms(t.start)}: ${why}`);
      }
    }
    if (!runs.length) continue;
    const longest = runs.map((r) => Math.max(0, ...r.tasks.map((t) => t.duration)));
    const ranks = Math.max(...runs.map((r) => r.tasks.length));
    const byRank = Array.from({ length: ranks }, (_, k) =>
      ms(median(runs.map((r) => [...r.tasks].sort((a, b) => b.duration - a.duration)[k]?.duration ?? 0))),
    );
    console.log(
      `  median: longest ${ms(median(longest))} ms (min–max ${ms(Math.min(...longest))}–${ms(Math.max(...longest))}), ` +
        `count ${median(runs.map((r) => r.tasks.length))}, total ${ms(median(runs.map((r) => r.tasks.reduce((n, t) => n + t.duration, 0))))} ms, ` +
        `by rank ${byRank.join(' / ') || '—'} ms; first 'playing' ${ms(median(runs.map((r) => r.playing)))} ms`,
    );
  }
  console.log(`\nTotal ${((Date.now() - began) / 1000).toFixed(0)} s.`);
} finally {
  await browser.close().catch(() => {});
  await server.close();
}
