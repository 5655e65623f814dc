// `npm run bench`: time to the first 'playing' of the player against a bare hls.js page (the reference
// to beat: same hls.js build, its default config, same stream, same server: /bench/hls.html), in one
// Chromium, interleaved, on Fast 3G (562 ms round trip, 1.44 Mb/s down, 675 kb/s up, as in DESIGN).
// Prints medians, min–max, bytes before the first 'playing', the ratio to the bare page and the
// request waterfall of the player's median run, with the chain of requests its first frame waited for
// one after another (bench/chain.ts) and how its time splits into round trips, transfers and the time
// between them. Prints numbers; never fails on timing (exit 0 unless the browser or the server does
// not start). BENCH_RUNS=N rounds (default 5, at least 3).
// BENCH_ONLY=name,name runs only those scenarios (exact names, e.g. 'fast-3g,no-fill ads,pre-roll (ad)').
// `-- --deploy nginx [--link TRACE]`: the pages from the production-like deploy instead (bench/deploy-nginx.ts).
// 'returning' (issue 26): each page visited before in the same context (WATCHED_MS watched, unthrottled,
// storage and HTTP cache kept), then again on Fast 3G: only that second visit is measured.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
// @ts-expect-error: plain JS modules
import { startServer } from '../server/index.mjs';
// @ts-expect-error: plain JS modules
import { CHROMIUM_FLAGS, ensureChromium } from '../scripts/find-chromium.mjs';
import { chainTime, criticalChain, type Timed } from './chain';
import { inFreshPage, type PageSetup, within } from './page';
import { startDeploy, type Deploy } from './deploy-nginx';
import { PROTOCOL_PROBE, protocolSummary, type ProtocolCounts } from './protocols';

const RUNS = Math.max(3, Math.floor(Number(process.env.BENCH_RUNS) || 5));
const RUN_TIMEOUT_MS = 60_000;
const FAST_3G = { offline: false, latency: 562, downloadThroughput: (1.44 * 1e6) / 8, uploadThroughput: (0.675 * 1e6) / 8 };

type PageKind = 'hls.js' | 'player';
type Role = 'content' | 'ad';

interface Scenario {
  name: string;
  /** CDP Emulation.setCPUThrottlingRate; 1 = none. */
  cpu: number;
  /**
   * The player page's ad list (server setAdListUrl), on the page's own server as the API is; the VAST
   * documents, pixels and ad media it names are on a second server (another origin, as ad servers
   * always are: its own six connections). None = no ads.
   */
  adList?: string;
  /** Which video's first 'playing' counts: the content's, or the ad's (the <video> in .pl-ad). */
  role: Role;
  pages: PageKind[];
  /** The scenario whose bare hls.js median the ratio divides by. */
  reference: string;
  /** A returning viewer: the measured visit follows a first one in the same context (inReturningPage). */
  returning?: boolean;
}

/** How long a returning scenario's first visit watches before it leaves. */
const WATCHED_MS = 12_000;

const ALL_SCENARIOS: Scenario[] = [
  { name: 'fast-3g', cpu: 1, role: 'content', pages: ['hls.js', 'player'], reference: 'fast-3g' },
  { name: 'fast-3g + 4x cpu', cpu: 4, role: 'content', pages: ['hls.js', 'player'], reference: 'fast-3g + 4x cpu' },
  // Every VAST of the list answers "no ad" (server/ads.mjs `empty`): the content's 'playing'.
  { name: 'no-fill ads', cpu: 1, adList: '/ad-list.json?pre=empty&mid=empty', role: 'content', pages: ['player'], reference: 'fast-3g' },
  // The default list's pre-roll (an inline MP4): the first frame of the ad, not of the content.
  { name: 'pre-roll (ad)', cpu: 1, adList: '/ad-list.json?pre=skippable&mid=nonskippable', role: 'ad', pages: ['player'], reference: 'fast-3g' },
  { name: 'returning', cpu: 1, role: 'content', pages: ['hls.js', 'player'], reference: 'returning', returning: true },
];
const ONLY = process.env.BENCH_ONLY?.split(',').map((n) => n.trim());
const SCENARIOS = ONLY ? ALL_SCENARIOS.filter((s) => ONLY.includes(s.name)) : ALL_SCENARIOS;
if (!SCENARIOS.length) throw new Error(`BENCH_ONLY: no scenario named ${ONLY!.join(', ')}; there are ${ALL_SCENARIOS.map((s) => s.name).join(', ')}`);

const URLS: Record<PageKind, string> = {
  'hls.js': '/bench/hls.html',
  player: '/player/?movie_id=1&auto_play=1',
};

// Runs in every page before its own scripts: the first 'playing' of each kind of <video>, in
// performance.now() (ms since navigation start), caught on window in the capture phase. A string,
// not a function: tsx would wrap named inner functions in a helper the page lacks.
const PROBE = `(() => {
  const times = {};
  const waiters = { content: [], ad: [] };
  addEventListener('playing', (e) => {
    const v = e.target;
    if (!(v instanceof HTMLMediaElement)) return;
    const role = v.classList.contains('pl-ad__video') || v.closest('.pl-ad') ? 'ad' : 'content';
    if (times[role] !== undefined) return;
    times[role] = performance.now();
    for (const resolve of waiters[role]) resolve(times[role]);
  }, true);
  Object.defineProperty(window, '__benchFirstPlaying', {
    value: (role) => times[role] !== undefined ? Promise.resolve(times[role]) : new Promise((resolve) => waiters[role].push(resolve)),
  });
})();`;

interface Req {
  url: string;
  /** CDP monotonic seconds. */
  start: number;
  initiators: string[];
  end?: number;
  failed?: boolean;
  /** Bytes on the wire (headers included) by loadingFinished, when it finished. */
  total?: number;
  headers?: { at: number; bytes: number };
  mimeType?: string;
  /** Answered by the HTTP cache, or a 304 (the cache's copy revalidated): how a returning visit got it. */
  from?: 'cache' | '304';
  chunks: Array<{ at: number; bytes: number }>;
}

interface Row extends Timed {
  bytes: number;
  from?: Req['from'];
}

interface Run {
  ms: number;
  bytes: number;
  requests: Row[];
  /** Resource Timing's nextHopProtocol of the page and its resources (bench/protocols.ts). */
  protocols: ProtocolCounts;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

interface CallStack {
  callFrames: Array<{ url: string }>;
  parent?: CallStack;
}

/** The files that started a request: the page or stylesheet naming it, the scripts on the stack that called fetch. */
function initiatorFiles(initiator: { url?: string; stack?: CallStack }): string[] {
  const files = new Set<string>();
  if (initiator.url) files.add(initiator.url);
  for (let stack = initiator.stack; stack; stack = stack.parent) for (const frame of stack.callFrames) if (frame.url) files.add(frame.url);
  return [...files];
}

function collect(cdp: CDPSession) {
  const reqs = new Map<string, Req>();
  let document: { id: string; at: number } | undefined;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!/^https?:/.test(e.request.url)) return;
    if (!document && e.type === 'Document') document = { id: e.requestId, at: e.timestamp };
    const known = reqs.get(e.requestId);
    // A redirect reuses the request id: keep the first start, follow the new URL.
    if (known) known.url = e.request.url;
    else reqs.set(e.requestId, { url: e.request.url, start: e.timestamp, initiators: initiatorFiles(e.initiator), chunks: [] });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = reqs.get(e.requestId);
    if (r) Object.assign(r, { headers: { at: e.timestamp, bytes: e.response.encodedDataLength ?? 0 }, mimeType: e.response.mimeType });
    if (r && (e.response.fromDiskCache || e.response.status === 304)) r.from = e.response.fromDiskCache ? 'cache' : '304';
  });
  cdp.on('Network.dataReceived', (e) => {
    reqs.get(e.requestId)?.chunks.push({ at: e.timestamp, bytes: e.encodedDataLength });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = reqs.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, total: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = reqs.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, failed: true });
  });
  return { reqs, document: () => document };
}

async function measure(browser: Browser, origin: string, kind: PageKind, scenario: Scenario, throttle = true): Promise<Run> {
  const setup = { probe: PROBE, cpu: throttle ? scenario.cpu : 1, network: throttle && !deploy?.link ? FAST_3G : undefined };
  const url = origin + (deploy?.path(URLS[kind], scenario.adList) ?? URLS[kind]);
  const visit = scenario.returning ? inReturningPage(url) : inFreshPage;
  return visit(browser, setup, async (page, cdp) => {
    const net = collect(cdp);
    const role: Role = kind === 'player' ? scenario.role : 'content';
    await deploy?.beforePage();
    await page.goto(url, { waitUntil: 'commit', timeout: RUN_TIMEOUT_MS });
    const probe = page.evaluate(
      `window.__benchFirstPlaying(${JSON.stringify(role)}).then((t) => [t, performance.getEntriesByType('navigation')[0]?.fetchStart ?? 0])`,
    ) as Promise<[number, number]>;
    const [ms, fetchStart] = await within(probe, RUN_TIMEOUT_MS, `no '${role}' playing`);
    // Let the network events up to that moment arrive (later ones are cut by their timestamps).
    await page.waitForTimeout(300);
    const protocols = (await page.evaluate(PROTOCOL_PROBE)) as ProtocolCounts;
    const doc = net.document();
    if (!doc) throw new Error('no document request seen');
    // CDP times are monotonic seconds; the document's request went out at the page's fetchStart.
    const rel = (at: number) => (at - doc.at) * 1000 + fetchStart;
    const requests: Row[] = [];
    for (const [id, r] of net.reqs) {
      const start = rel(r.start);
      if (start > ms) continue;
      const end = r.end !== undefined && rel(r.end) <= ms ? rel(r.end) : undefined;
      const firstByte = r.headers && rel(r.headers.at) <= ms ? rel(r.headers.at) : undefined;
      let bytes: number;
      if (end !== undefined && !r.failed && r.total !== undefined) bytes = r.total;
      else {
        bytes = firstByte !== undefined ? r.headers!.bytes : 0;
        for (const c of r.chunks) if (rel(c.at) <= ms) bytes += c.bytes;
      }
      // What the response names, for the chain: the page, JSON, playlists, VAST (not scripts, not media).
      const body = end !== undefined && !r.failed && /html|json|xml|mpegurl/i.test(r.mimeType ?? '') ? await textOf(cdp, id) : undefined;
      requests.push({ url: r.url, start, end, firstByte, initiators: r.initiators, body, bytes, from: r.from });
    }
    requests.sort((a, b) => a.start - b.start);
    return { ms, bytes: requests.reduce((n, r) => n + r.bytes, 0), requests, protocols };
  });
}

/**
 * As inFreshPage, but the page is a returning viewer's: `url` was visited before in the same context
 * (unthrottled, WATCHED_MS watched after its first 'playing', then left), its storage and HTTP cache
 * kept as the servers' headers allow; the throttles apply to the measured visit only.
 */
const inReturningPage =
  (url: string) =>
  async <T>(browser: Browser, setup: PageSetup, use: (page: Page, cdp: CDPSession) => Promise<T>): Promise<T> => {
    const context = await browser.newContext({ viewport: { width: 640, height: 360 } });
    try {
      await context.addInitScript(setup.probe);
      const before = await context.newPage();
      await before.goto(url, { waitUntil: 'commit', timeout: RUN_TIMEOUT_MS });
      await within(before.evaluate(`window.__benchFirstPlaying('content')`), RUN_TIMEOUT_MS, "the first visit: no 'content' playing");
      await before.waitForTimeout(WATCHED_MS);
      // Left as a viewer leaves: pagehide (progress saved), then gone.
      const gone = new Promise((resolve) => before.once('close', resolve));
      await before.close({ runBeforeUnload: true });
      await within(gone, RUN_TIMEOUT_MS, 'the first visit closed');
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      if (setup.network) await cdp.send('Network.emulateNetworkConditions', setup.network);
      if (setup.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: setup.cpu });
      return await use(page, cdp);
    } finally {
      await context.close().catch(() => {});
    }
  };

async function textOf(cdp: CDPSession, requestId: string): Promise<string | undefined> {
  try {
    const { body, base64Encoded } = await cdp.send('Network.getResponseBody', { requestId });
    return base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  } catch {
    return undefined; // evicted from the browser's buffer: that link is then not found
  }
}

const fmt = (n: number) => n.toFixed(0);
const kB = (n: number) => (n / 1000).toFixed(1);

function waterfall(title: string, run: Run, origin: string) {
  const width = 40;
  const col = (ms: number) => Math.max(0, Math.min(width, Math.round((ms / run.ms) * width)));
  console.log(`\n${title}: ${fmt(run.ms)} ms, ${kB(run.bytes)} kB in ${run.requests.length} requests (| = first 'playing'; > = still loading then)`);
  console.log(`${'start'.padStart(6)} ${'end'.padStart(6)}  ${'0'.padEnd(width)}|  ${'kB'.padStart(6)}  path`);
  for (const r of run.requests) {
    const a = col(r.start);
    const b = Math.max(a + 1, r.end === undefined ? width : col(r.end));
    const bar = ' '.repeat(a) + '█'.repeat(Math.min(b, width) - a) + ' '.repeat(Math.max(0, width - b));
    const url = new URL(r.url);
    const path = (url.origin === origin ? '' : `(ad server) `) + (url.pathname + url.search).replace(/^(.{90}).+$/, '$1…') + (r.from ? ` (${r.from})` : '');
    console.log(
      `${fmt(r.start).padStart(6)} ${(r.end === undefined ? '…' : fmt(r.end)).padStart(6)}  ${bar}${r.end === undefined ? '>' : '|'}  ${kB(r.bytes).padStart(6)}  ${path}`,
    );
  }
  // Issue 13: every address once on the way to the first frame (the favicon aside, which the browser asks for itself).
  const urls = run.requests.map((r) => r.url).filter((u) => !u.endsWith('/favicon.ico'));
  const twice = [...new Set(urls.filter((u, i) => urls.indexOf(u) !== i))].map((u) => new URL(u).pathname);
  console.log(`asked more than once before the first 'playing': ${twice.length ? twice.join(', ') : 'none'}`);
  const chain = criticalChain(run.requests, run.ms);
  const name = (u: string) => new URL(u).pathname.split('/').slice(-2).join('/');
  const time = chainTime(chain, run.ms, deploy?.link?.roundTripMs ?? FAST_3G.latency);
  console.log(
    `chain (each link waited for the one before): ${chain.map((r) => `${name(r.url)} ${r.end === undefined ? `streaming from ${fmt(r.firstByte!)}` : fmt(r.end)}`).join(' → ')} → 'playing' ${fmt(run.ms)}\n` +
      `  ${chain.length} links: ${fmt(time.roundTrips)} ms of round trips, ` +
      `${fmt(time.transfers)} ms of transfers, ${fmt(time.between)} ms between them (the page's work, waits for a connection)`,
  );
}

if (!existsSync('dist/player.html')) execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
const began = Date.now();
const server = await startServer({ port: 0 });
const adServer = await startServer({ port: 0 });
server.setAdOrigins([adServer.url]);
let browser: Browser;
// --deploy nginx: the pages from the deploy users run (bench/deploy-nginx.ts); else the reference server's.
let deploy: Deploy | undefined;
try {
  const adLists = [...new Set(SCENARIOS.flatMap((s) => (s.adList ? [s.adList] : [])))];
  deploy = await startDeploy(process.argv.slice(2), { serverPort: server.port, adServerPort: adServer.port, adLists });
  browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required', ...(deploy?.chromiumFlags ?? [])],
  });
} catch (err) {
  await deploy?.close();
  await Promise.all([server.close(), adServer.close()]);
  throw err;
}
const origin = deploy?.origin ?? server.url;

const results = new Map<string, { runs: Run[]; failures: string[] }>();
const slot = (scenario: string, kind: PageKind) => {
  const key = `${scenario}\u0000${kind}`;
  if (!results.has(key)) results.set(key, { runs: [], failures: [] });
  return results.get(key)!;
};

try {
  console.log(`Setup: ${deploy?.describe ?? 'the reference server (node:http, HTTP/1.1 without TLS) serves pages, API and media; a second one is the ad server'}.`);
  console.log(
    `Chromium ${browser.version()}; ${RUNS} rounds; ${deploy?.link ? 'the link, no DevTools network emulation' : `Fast 3G (${FAST_3G.latency} ms, 1.44 Mb/s down, 675 kb/s up)`}, cache disabled (but for 'returning'); ` +
      `each round opens every scenario's pages, bare hls.js and player in alternating order, each in a fresh context.`,
  );
  // Warm-up, not counted: the browser's first page, and the server compressing hls.js once.
  for (const kind of ['hls.js', 'player'] as const) await measure(browser, origin, kind, ALL_SCENARIOS[0], false).catch(() => {});

  for (let round = 0; round < RUNS; round++) {
    for (const scenario of SCENARIOS) {
      const pages = round % 2 ? [...scenario.pages].reverse() : scenario.pages;
      for (const kind of pages) {
        server.setAdListUrl(
          kind === 'player' && scenario.adList ? `${server.url}${scenario.adList}&vast_origin=${encodeURIComponent(adServer.url)}` : undefined,
        );
        const into = slot(scenario.name, kind);
        try {
          into.runs.push(await measure(browser, origin, kind, scenario));
        } catch (err) {
          into.failures.push((err as Error).message.split('\n')[0]);
        }
      }
    }
    process.stderr.write(`round ${round + 1}/${RUNS} done (${((Date.now() - began) / 1000).toFixed(0)} s)\n`);
  }

  const medianOf = (scenario: string, kind: PageKind) => {
    const runs = slot(scenario, kind).runs;
    return runs.length ? median(runs.map((r) => r.ms)) : NaN;
  };
  console.log(
    `\nms: navigation start to the first 'playing' of the content <video> (of the ad's for pre-roll); kB: encoded bytes ` +
      `received before it (headers included); requests: started before it; ratio: median ÷ median of the bare hls.js page.`,
  );
  console.log(`${'scenario'.padEnd(17)} ${'page'.padEnd(7)} ${'median ms'.padStart(9)} ${'min–max ms'.padStart(13)} ${'kB before'.padStart(9)} ${'requests'.padStart(8)} ${'ratio'.padStart(6)}`);
  for (const scenario of SCENARIOS) {
    for (const kind of scenario.pages) {
      const { runs, failures } = slot(scenario.name, kind);
      const failed = failures.length ? `  (${failures.length} failed: ${[...new Set(failures)].join('; ')})` : '';
      if (!runs.length) {
        console.log(`${scenario.name.padEnd(17)} ${kind.padEnd(7)} ${'—'.padStart(9)}${failed}`);
        continue;
      }
      const times = runs.map((r) => r.ms);
      const ref = medianOf(scenario.reference, 'hls.js');
      const ratio = median(times) / ref;
      const refNote = scenario.reference !== scenario.name ? ` (÷ ${scenario.reference} hls.js)` : '';
      console.log(
        `${scenario.name.padEnd(17)} ${kind.padEnd(7)} ${fmt(median(times)).padStart(9)} ${`${fmt(Math.min(...times))}–${fmt(Math.max(...times))}`.padStart(13)} ` +
          `${kB(median(runs.map((r) => r.bytes))).padStart(9)} ${String(median(runs.map((r) => r.requests.length))).padStart(8)} ` +
          `${(Number.isFinite(ratio) ? ratio.toFixed(2) : '—').padStart(6)}${refNote}${failed}`,
      );
    }
  }

  for (const kind of ['hls.js', 'player'] as const) {
    const runs = [...results].filter(([key]) => key.endsWith(`\u0000${kind}`)).flatMap(([, slotted]) => slotted.runs);
    console.log(`nextHopProtocol (Resource Timing), ${kind} pages, all runs: ${protocolSummary(runs)}`);
  }

  const medianRun = (runs: Run[]) => {
    const m = median(runs.map((r) => r.ms));
    return runs.reduce((best, r) => (Math.abs(r.ms - m) < Math.abs(best.ms - m) ? r : best));
  };
  const shown: Array<[string, PageKind]> = [['fast-3g', 'hls.js'], ['returning', 'hls.js'], ...SCENARIOS.map((s): [string, PageKind] => [s.name, 'player'])];
  for (const [name, kind] of shown) {
    const { runs } = slot(name, kind);
    if (runs.length) waterfall(`Waterfall, ${name}, ${kind}, median run`, medianRun(runs), origin);
  }
  console.log(`\nTotal ${((Date.now() - began) / 1000).toFixed(0)} s.`);
} finally {
  await browser.close().catch(() => {});
  await deploy?.close();
  await Promise.all([server.close(), adServer.close()]);
}
