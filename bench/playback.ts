// `npm run bench:playback`: what a viewer on a cellular link gets after the first frame. The player
// (/player/?movie_id=30&auto_play=1, no ads) and a bare hls.js page (/bench/hls.html: the same hls.js
// build with its default config, the same master playlist) play the ladder film for a fixed time
// (--seconds, default 90) through the emulated link (bench/link.ts: every connection shares one
// downlink replaying a mahimahi trace, 40 ms one-way delay, a handshake per connection), at several
// offsets of each trace, interleaved player / hls.js, each run on a fresh link from the same offset
// and a fresh browser context (no cache). Per trace and page it prints first frame, stalls, rebuffer
// ratio, mean played bitrate and height, quality switches, bytes carried by the link against bytes of
// the segments played, and the QoE score (bench/qoe.ts says how each is counted). Never fails on timing.
//
//   --trace FILE       a mahimahi downlink trace (repeatable; X.up beside X.down is the uplink, else the same).
//                      Default: every *.down in ../shared/traces.
//   --offsets 0,300    seconds into each trace (wrapped over its length). Default 0, 300, 600, or three
//                      spread over a trace shorter than that.
//   --seconds 90  --delay 40 (one-way ms)  --movie 30  --pages player,hls.js  --json FILE
//   --engine firefox   the runs in Debian's Firefox ESR (bench/playback-firefox.ts) instead of Chromium.
//   --waterfall        after each run, the requests the page made until its first frame (start, headers,
//                      end ms since navigation, bytes): what the first frame waited for.
//   --long             instead: the long title (--long-movie 31) for --long-minutes (10) with a seek a
//                      minute (--seed 1), unthrottled; memory every minute and time to a frame per seek
//                      (bench/playback-long.ts). --pages defaults to the player alone there.
//                      --heap-snapshots DIR: the page's JS heap written there at minute 2 and the last.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
// @ts-expect-error: plain JS modules
import { startServer } from '../server/index.mjs';
// @ts-expect-error: plain JS modules
import { CHROMIUM_FLAGS, ensureChromium } from '../scripts/find-chromium.mjs';
import { createLink } from './link';
import { capacityBytes, readTrace, type Trace } from './link-trace';
import { readLadder, type Ladder } from './playback-ladder';
import { inMeasuredPage, type PathFetch, type PlaybackPage, type Request } from './playback-page';
import { inFirefoxPage, launchFirefoxForBench } from './playback-firefox';
import { printLong, watchLong, type LongWatch } from './playback-long';
import { browserGoals, goalsText, memoryGoals } from './playback-goals';
import { launchPipedChromium, type PipedChromium } from './chromium-pipe';
import { accountRun, addPlayback, emptyPlayback, meanBitrate, meanHeight, playedBytes, qoeScore, rebufferRatio, type LogEntry, type RunAccount } from './qoe';

const { values: args } = parseArgs({
  options: {
    trace: { type: 'string', multiple: true },
    offsets: { type: 'string' },
    seconds: { type: 'string', default: '90' },
    delay: { type: 'string', default: '40' },
    movie: { type: 'string', default: '30' },
    pages: { type: 'string' },
    json: { type: 'string' },
    long: { type: 'boolean', default: false },
    waterfall: { type: 'boolean', default: false },
    'long-movie': { type: 'string', default: '31' },
    'long-minutes': { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
    'heap-snapshots': { type: 'string' },
    engine: { type: 'string', default: 'chromium' },
  },
});

type PageKind = 'player' | 'hls.js';
const PAGES = (args.pages ?? (args.long ? 'player' : 'player,hls.js')).split(',').map((p) => p.trim()) as PageKind[];
for (const p of PAGES) if (p !== 'player' && p !== 'hls.js') throw new Error(`--pages: '${p}' is neither player nor hls.js`);
const ENGINE = args.engine;
if (ENGINE !== 'chromium' && ENGINE !== 'firefox') throw new Error(`--engine: '${ENGINE}' is neither chromium nor firefox`);
if (ENGINE !== 'chromium' && args.long) throw new Error('--long reads Chromium\'s memory accounts: it runs in Chromium only');
const SECONDS = Number(args.seconds);
const DELAY_MS = Number(args.delay);
const TRACES_DIR = new URL('../../shared/traces/', import.meta.url).pathname;
const DEFAULT_OFFSETS_S = [0, 300, 600];

interface TraceFiles {
  name: string;
  down: Trace;
  up: Trace;
}

function traces(): TraceFiles[] {
  const files = args.trace ?? (existsSync(TRACES_DIR) ? readdirSync(TRACES_DIR).filter((f) => f.endsWith('.down')).sort().map((f) => join(TRACES_DIR, f)) : []);
  if (!files.length) throw new Error(`no trace: give --trace FILE (mahimahi format), or put *.down files in ${TRACES_DIR}`);
  return files.map((file) => {
    const down = readTrace(file);
    const upFile = file.replace(/\.down$/, '.up');
    return { name: basename(file).replace(/\.down$/, ''), down, up: upFile !== file && existsSync(upFile) ? readTrace(upFile) : down };
  });
}

/** Offsets (s) for a trace: as given (the link wraps them), else 0/300/600, or three spread over a shorter trace. */
function offsetsFor(trace: Trace): number[] {
  if (args.offsets) return args.offsets.split(',').map(Number);
  const lengthS = trace.periodMs / 1000;
  return DEFAULT_OFFSETS_S.every((o) => o < lengthS) ? DEFAULT_OFFSETS_S : [0, 1, 2].map((i) => Math.round((i * lengthS) / 3));
}

/** The master playlist's path of a catalogue title (its first episode's). */
function masterOf(catalogue: { episodes: Array<{ contentId: number; m3u8MasterFilePath?: string }> }, movie: number): string {
  const path = catalogue.episodes.find((e) => e.contentId === movie)?.m3u8MasterFilePath;
  if (!path) throw new Error(`title ${movie} has no master playlist in server/catalogue.json (is the ladder served? npm run media:ladder)`);
  return path;
}

interface Run extends RunAccount {
  trace: string;
  offsetS: number;
  page: PageKind;
  bytesCarried: number;
  bytesPlayed: number;
  /** Mean seconds buffered ahead of the playhead over the samples after the first frame. */
  meanAheadS: number;
  /** The probe's log and the media segments fetched (in --json, to read a run's decisions again). */
  log: LogEntry[];
  /** The player's playback decisions (the bare page has none): why a run stalled, as the policy decided it. */
  decisions: unknown[];
  fetches: PathFetch[];
  /** Every request of the run (the waterfall). */
  requests: Request[];
  /** Bytes in the browser by the first frame (of requests finished or not), and their share of what the link could carry until then. */
  startBytes: number;
  startLinkUse: number;
  failure?: string;
}

/** A fresh measured page of the engine, closed after `use`. */
type Open = <T>(ladder: Ladder, use: (m: PlaybackPage) => Promise<T>) => Promise<T>;

const pageUrl = (kind: PageKind, movie: number, master: string) =>
  kind === 'player' ? `/player/?movie_id=${movie}&auto_play=1` : `/bench/hls.html?src=${encodeURIComponent(master)}`;

async function playback(open: Open) {
  const movie = Number(args.movie);
  const master = masterOf(server.ctx.catalogue, movie);
  const ladder = await readLadder(server.url + master);
  const all = traces();
  console.log(
    `Title ${movie} (${master}), rungs ${ladder.rungs.map((r) => `${r.height}p ${(r.bitsPerSecond / 1000).toFixed(0)}`).join(' / ')} kb/s; ` +
      `${SECONDS} s a run from navigation, one-way delay ${DELAY_MS} ms; pages ${PAGES.join(', ')} in turn.`,
  );
  // Not counted: the browser's first pages, and the server compressing hls.js once.
  for (const kind of PAGES) {
    await open(ladder, async (m) => {
      await m.goto(server.url + pageUrl(kind, movie, master), 30_000);
      await m.until(3000);
    }).catch(() => {});
  }
  const runs: Run[] = [];
  for (const trace of all) {
    for (const offsetS of offsetsFor(trace.down)) {
      for (const page of PAGES) {
        const run = await playOnce(open, ladder, trace, offsetS, page, pageUrl(page, movie, master));
        runs.push(run);
        process.stderr.write(`${describe(run)}  (${((Date.now() - began) / 1000).toFixed(0)} s)\n`);
        if (args.waterfall) process.stderr.write(waterfall(run));
      }
    }
  }
  const summary = summarize(all.map((t) => t.name), runs);
  printTables(summary, runs);
  const goals = goalsOf(summary);
  for (const { trace, rows } of goals) console.log(`\n${goalsText(`${trace} goals (the player against the bare hls.js page, ${ENGINE}, ${summary.find((s) => s.trace === trace)!.runs} runs each)`, rows)}`);
  if (args.json) {
    writeFileSync(args.json, JSON.stringify({ movie, master, seconds: SECONDS, delayMs: DELAY_MS, rungs: ladder.rungs, summary, goals, runs }, null, 2));
    console.log(`\nNumbers in ${args.json}.`);
  }
}

async function playOnce(open: Open, ladder: Ladder, trace: TraceFiles, offsetS: number, page: PageKind, path: string): Promise<Run> {
  const link = createLink({ down: trace.down, up: trace.up, delayMs: DELAY_MS, offsetMs: offsetS * 1000 });
  const base = { trace: trace.name, offsetS, page };
  try {
    const relay = await link.relay(server.port);
    return await open(ladder, async (m) => {
      await m.goto(`http://127.0.0.1:${relay.port}${path}`, SECONDS * 1000);
      await m.until(SECONDS * 1000);
      const [log, state, decisions] = await Promise.all([m.log(), m.state(), m.decisions()]);
      const bytesCarried = link.stats().bytesDown;
      const account = accountRun(log.filter((e) => e.t <= SECONDS * 1000), ladder.rungs);
      const { segments: fetches, requests } = await m.network();
      const aheads = log.filter((e) => e.type === 'sample' && e.t > (account.firstFrameMs ?? Infinity)).map((e) => e.ahead ?? 0);
      const meanAheadS = aheads.reduce((a, x) => a + x, 0) / aheads.length;
      const until = account.firstFrameMs ?? Number.NaN;
      // Every byte the browser had by the first frame, of requests finished or not (the early start appends
      // its first fragments as they arrive): the link's clock starts at the navigation's connection.
      const startBytes = link.bytesDownBy(until);
      const startLinkUse = startBytes / capacityBytes(trace.down, offsetS * 1000, offsetS * 1000 + until);
      return { ...base, ...account, bytesCarried, bytesPlayed: playedBytes(fetches, state.played), meanAheadS, log, decisions, fetches, requests, startBytes, startLinkUse };
    });
  } catch (err) {
    const account = accountRun([], ladder.rungs);
    return { ...base, ...account, bytesCarried: link.stats().bytesDown, bytesPlayed: 0, meanAheadS: NaN, log: [], decisions: [], fetches: [], requests: [], startBytes: 0, startLinkUse: NaN, failure: (err as Error).message.split('\n')[0] };
  } finally {
    await link.close();
  }
}

const MB = (bytes: number) => (bytes / 1e6).toFixed(1);
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)} %` : '—');
const num = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function describe(r: Run): string {
  const ff = r.firstFrameMs === undefined ? 'no frame' : `first frame ${num(r.firstFrameMs)} ms (${num(r.startBytes / 1000)} kB, ${pct(r.startLinkUse)} of the link)`;
  return (
    `${r.trace} @${r.offsetS} s, ${r.page}: ${ff}, ${r.stalls} stalls ${num(r.stallS, 1)} s (${r.hiccups} hiccups), ${num(meanBitrate(r) / 1000)} kb/s, ` +
    `${r.switches} switches, ${MB(r.bytesCarried)} MB carried / ${MB(r.bytesPlayed)} MB played, QoE ${num(qoeScore(r), 1)}` +
    (r.stallList.length ? ` [stalls at ${r.stallList.map((s) => `${num(s.atMs / 1000, 1)} s for ${num(s.s, 1)} s`).join(', ')}]` : '') +
    (r.errorMs !== undefined ? `, ERROR SCREEN at ${num(r.errorMs)} ms` : '') +
    (r.failure ? `, failed: ${r.failure}` : '')
  );
}

/** The requests asked before the run's first frame, one a line: what that frame waited for. */
function waterfall(r: Run): string {
  const until = r.firstFrameMs ?? SECONDS * 1000;
  const cell = (ms: number | undefined) => (ms === undefined ? '—' : String(ms)).padStart(6);
  const lines = r.requests
    .filter((q) => q.startMs <= until)
    .map((q) => `    ${cell(q.startMs)} ${cell(q.headersMs)} ${cell(q.endMs)} ${(q.bytes === undefined ? '' : (q.bytes / 1000).toFixed(1) + ' kB').padStart(9)}${q.failed ? ' failed' : ''}  ${q.path}`);
  return `    start  headers   end     bytes  (ms since navigation; first frame at ${num(until)} ms)\n${lines.join('\n')}\n`;
}

function summarize(traceNames: string[], runs: Run[]) {
  return traceNames.flatMap((trace) =>
    PAGES.map((page) => {
      const mine = runs.filter((r) => r.trace === trace && r.page === page);
      const sum = mine.reduce((acc, r) => addPlayback(acc, r), emptyPlayback());
      const frames = mine.map((r) => r.firstFrameMs).filter((t): t is number => t !== undefined);
      const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
      return {
        trace,
        page,
        runs: mine.length,
        noFrame: mine.length - frames.length,
        errorScreens: mine.filter((r) => r.errorMs !== undefined).length,
        firstFrameMs: mean(frames),
        startKB: mean(mine.map((r) => r.startBytes)) / 1000,
        startLinkUse: mean(mine.map((r) => r.startLinkUse).filter(Number.isFinite)),
        stalls: sum.stalls,
        stallS: sum.stallS,
        playedS: sum.playedS,
        rebufferRatio: rebufferRatio(sum),
        meanBitrate: meanBitrate(sum),
        meanHeight: meanHeight(sum),
        switches: sum.switches,
        qoePerRun: qoeScore(sum) / mine.length,
        mbCarried: mean(mine.map((r) => r.bytesCarried)) / 1e6,
        mbPlayed: mean(mine.map((r) => r.bytesPlayed)) / 1e6,
        meanAheadS: mean(mine.map((r) => r.meanAheadS).filter(Number.isFinite)),
      };
    }),
  );
}

/** docs/playback.md's browser goals per trace, where both pages ran on it. */
function goalsOf(summary: ReturnType<typeof summarize>) {
  return [...new Set(summary.map((s) => s.trace))].flatMap((trace) => {
    const player = summary.find((s) => s.trace === trace && s.page === 'player');
    const bare = summary.find((s) => s.trace === trace && s.page === 'hls.js');
    return player && bare ? [{ trace, rows: browserGoals(player, bare) }] : [];
  });
}

function printTables(summary: ReturnType<typeof summarize>, runs: Run[]) {
  console.log(
    `\nPer trace and page, over its runs: first frame = mean ms from navigation to the first 'playing'; stalls and stall s = ` +
      `totals; start kB = bytes in the browser by the first frame, link % = their share of what the link could carry until then; rebuffer = stall ÷ (stall + played); kb/s and height = means over played seconds; ahead s = mean ` +
      `seconds buffered ahead of the playhead; MB = mean per run ` +
      `(carried by the link; played = segments whose film time was played; unplayed = the difference); QoE = mean per run.`,
  );
  const head = ['trace', 'page', 'runs', 'first frame', 'start kB', 'link %', 'stalls', 'stall s', 'rebuffer', 'kb/s', 'height', 'switches', 'ahead s', 'MB carried', 'MB played', 'unplayed', 'QoE'];
  const rows = summary.map((s) => [
    s.trace,
    s.page,
    String(s.runs),
    num(s.firstFrameMs) + (s.noFrame ? ` (${s.noFrame} none)` : ''),
    num(s.startKB),
    pct(s.startLinkUse),
    String(s.stalls),
    num(s.stallS, 1),
    pct(s.rebufferRatio),
    num(s.meanBitrate / 1000),
    num(s.meanHeight),
    String(s.switches),
    num(s.meanAheadS, 1),
    num(s.mbCarried, 1),
    num(s.mbPlayed, 1),
    num(s.mbCarried - s.mbPlayed, 1),
    num(s.qoePerRun, 1) + (s.errorScreens ? `  ${s.errorScreens} ERROR SCREEN` : ''),
  ]);
  printTable(head, rows);
  console.log('\nRuns:');
  for (const r of runs) console.log(`  ${describe(r)}`);
}

/** Columns padded to their widest cell; text columns left, numbers right. */
function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

async function long(b: PipedChromium) {
  const movie = Number(args['long-movie']);
  const master = masterOf(server.ctx.catalogue, movie);
  const ladder = await readLadder(server.url + master);
  const minutes = Number(args['long-minutes']);
  console.log(`Long title ${movie} (${master}), ${minutes} minutes unthrottled, a seek a minute (seed ${args.seed}).`);
  const watches: LongWatch[] = [];
  if (args['heap-snapshots']) mkdirSync(args['heap-snapshots'], { recursive: true });
  for (const page of PAGES) {
    const watch = await watchLong(b, ladder, server.url + pageUrl(page, movie, master), page, minutes, Number(args.seed), args['heap-snapshots']);
    watches.push(watch);
    printLong(watch);
    console.log(`\n${goalsText(`memory goals (${page}, the long title)`, memoryGoals(watch.minutes))}`);
  }
  if (args.json) {
    writeFileSync(args.json, JSON.stringify({ movie, master, minutes, seed: Number(args.seed), watches }, null, 2));
    console.log(`\nNumbers in ${args.json}.`);
  }
}

if (!existsSync('dist/player.html')) execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
const began = Date.now();
const server = await startServer({ port: 0 });
let close = async () => {};
try {
  if (ENGINE === 'firefox') {
    const { browser, version } = await launchFirefoxForBench();
    close = () => browser.close();
    console.log(`Firefox ${version}, 1280×720, cache disabled, fresh user context per run.`);
    await playback((ladder, use) => inFirefoxPage(browser, ladder, use));
  } else {
    const flags = [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'];
    if (args.long) {
      // Not Playwright's: it keeps response bodies for DevTools, which the renderer's memory counts (chromium-pipe.ts).
      const browser = await launchPipedChromium(ensureChromium(), flags);
      close = () => browser.close();
      console.log(`Chromium ${browser.version} (DevTools pipe, no body kept), 1280×720, cache disabled, fresh context per run.`);
      await long(browser);
    } else {
      const browser = await chromium.launch({ executablePath: ensureChromium(), args: flags });
      close = () => browser.close();
      console.log(`Chromium ${browser.version()}, 1280×720, cache disabled, fresh context per run.`);
      await playback((ladder, use) => inMeasuredPage(browser, ladder, use));
    }
  }
  console.log(`\nTotal ${((Date.now() - began) / 1000).toFixed(0)} s.`);
} finally {
  await close().catch(() => {});
  await server.close();
}
