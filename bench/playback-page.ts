// One measured page of bench/playback.ts: a fresh Chromium context (no cache) with a probe that keeps
// the log bench/qoe.ts reads (the content <video>'s events and a sample every 250 ms), the media
// segments the page fetched (from CDP's network events: works for the player and the bare page alike),
// and the page's memory as CDP and the renderer's /proc entry give it.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { LogEntry, SegmentFetch } from './qoe';
import type { Ladder } from './playback-ladder';

// Runs in the page before its own scripts. A string, not a function: tsx would wrap named inner
// functions in a helper the page lacks. The content <video> is any not inside the ad's overlay (.pl-ad).
// Events are caught on window in the capture phase (media events do not bubble).
export const PROBE = `(() => {
  const log = [];
  let video;
  let errorSeen = false;
  const isContent = (v) => v instanceof HTMLVideoElement && !v.closest('.pl-ad');
  const push = (type, v, ct) => log.push({ t: performance.now(), type, ct: ct ?? v.currentTime, paused: v.paused, h: v.videoHeight });
  // Seconds buffered ahead of the playhead.
  const ahead = (v) => {
    for (let i = 0; i < v.buffered.length; i++) if (v.buffered.start(i) <= v.currentTime + 0.1 && v.currentTime < v.buffered.end(i)) return v.buffered.end(i) - v.currentTime;
    return 0;
  };
  for (const type of ['playing', 'waiting', 'pause', 'play', 'ended', 'seeking', 'seeked']) {
    addEventListener(type, (e) => {
      if (!isContent(e.target)) return;
      video = e.target;
      push(type, video);
      if (type === 'seeked' && video.requestVideoFrameCallback) {
        const v = video;
        v.requestVideoFrameCallback(() => push('frame', v));
      }
    }, true);
  }
  const sample = () => {
    video ??= [...document.querySelectorAll('video')].find(isContent);
    if (video) {
      push('sample', video);
      log[log.length - 1].ahead = ahead(video);
    }
    if (!errorSeen && document.querySelector('.pl-error')) {
      errorSeen = true;
      log.push({ t: performance.now(), type: 'error', ct: video ? video.currentTime : 0, paused: true, h: 0 });
    }
  };
  setInterval(sample, 250);
  const ranges = (r) => Array.from({ length: r.length }, (_, i) => [r.start(i), r.end(i)]);
  Object.defineProperty(window, '__bench', {
    value: {
      log,
      sample,
      seek(to) {
        sample();
        push('seek', video, to);
        video.currentTime = to;
      },
      state: () => ({
        played: video ? ranges(video.played) : [],
        buffered: video ? ranges(video.buffered) : [],
        duration: video ? video.duration : NaN,
        now: performance.now(),
      }),
    },
  });
})();`;

export interface PageState {
  played: Array<[number, number]>;
  buffered: Array<[number, number]>;
  duration: number;
  /** performance.now() of the page. */
  now: number;
}

/** A media segment fetched, with its path (which rendition) and doneMs in ms since the page's first request. */
export type PathFetch = SegmentFetch & { path: string };

/** One request of the page (any), times in ms since navigation (the page's performance.now()). */
export interface Request {
  path: string;
  startMs: number;
  /** Response headers in; undefined if none came. */
  headersMs?: number;
  /** Last byte in (or the failure); undefined while under way. */
  endMs?: number;
  bytes?: number;
  failed?: boolean;
}

/** A measured page of one run, in any engine (Chromium here, Firefox in playback-firefox.ts). */
export interface PlaybackPage extends ProbeCalls {
  /** Navigates, waiting at most `timeoutMs` (Chromium: until the navigation commits; Firefox: until DOMContentLoaded). */
  goto(url: string, timeoutMs: number): Promise<void>;
  /**
   * What the page fetched so far: the ladder's media segments (finished, not failed, bytes on the
   * wire) and every request in the order asked (the waterfall).
   */
  network(): Promise<{ segments: PathFetch[]; requests: Request[] }>;
}

/** What the probe answers in the page, in every engine. */
export interface ProbeCalls {
  /** The probe's log up to now (a sample taken first). */
  log(): Promise<LogEntry[]>;
  state(): Promise<PageState>;
  /** Asks the content <video> to seek (logged as 'seek'). */
  seek(to: number): Promise<void>;
  /** Waits until the page's clock reads `ms` since navigation. */
  until(ms: number): Promise<void>;
}

/** The probe's calls through an engine's `evaluate` (an expression's JSON result). */
export function probeCalls(evaluate: <R>(expression: string) => Promise<R>): ProbeCalls {
  return {
    log: () => evaluate<LogEntry[]>('(__bench.sample(), __bench.log)'),
    state: () => evaluate<PageState>('__bench.state()'),
    seek: (to) => evaluate<void>(`__bench.seek(${Number(to)})`),
    async until(ms) {
      const now = await evaluate<number>('performance.now()');
      if (ms > now) await new Promise((done) => setTimeout(done, ms - now));
    },
  };
}

/** Chromium's measured page, with what the long watch reads of it (DOM counters, memory). */
export interface MeasuredPage extends PlaybackPage {
  page: Page;
  cdp: CDPSession;
}

/** Runs `use` on a fresh context's page with the probe; the context is closed after. */
export async function inMeasuredPage<T>(browser: Browser, ladder: Ladder, use: (m: MeasuredPage) => Promise<T>): Promise<T> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, string>();
    const fetched: PathFetch[] = [];
    let firstRequestAt: number | undefined;
    // CDP's timestamps are monotonic seconds; the navigation's request is the page's time origin (near enough).
    const ms = (timestamp: number) => Math.round((timestamp - firstRequestAt!) * 1000);
    const requests = new Map<string, Request>();
    cdp.on('Network.requestWillBeSent', (e) => {
      firstRequestAt ??= e.timestamp;
      urls.set(e.requestId, e.request.url);
      const url = e.request.url;
      const path = /^https?:/.test(url) ? new URL(url).pathname + new URL(url).search : url.slice(0, 40);
      requests.set(e.requestId, { path, startMs: ms(e.timestamp) });
    });
    cdp.on('Network.responseReceived', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.headersMs = ms(e.timestamp);
    });
    cdp.on('Network.loadingFailed', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { endMs: ms(e.timestamp), failed: true });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { endMs: ms(e.timestamp), bytes: e.encodedDataLength });
      const url = urls.get(e.requestId);
      const path = url && /^https?:/.test(url) ? new URL(url).pathname : undefined;
      const segment = path ? ladder.segments.get(path) : undefined;
      if (segment) fetched.push({ ...segment, path: path!, bytes: e.encodedDataLength, doneMs: Math.round((e.timestamp - firstRequestAt!) * 1000) });
    });
    return await use({
      page,
      cdp,
      goto: async (url, timeout) => void (await page.goto(url, { waitUntil: 'commit', timeout })),
      network: async () => ({ segments: [...fetched], requests: [...requests.values()].map((r) => ({ ...r })) }),
      ...probeCalls((expression) => page.evaluate(expression)),
    });
  } finally {
    await context.close().catch(() => {});
  }
}

export interface Memory {
  /** JS heap in use after a full garbage collection, bytes. */
  heapUsed: number;
  /** Resident memory of the browser's renderer processes (where the page and its media buffers live), bytes; NaN if unreadable. */
  rendererRss: number;
  /**
   * The renderers' memory by Chromium's allocator (its memory-infra dump: malloc, partition_alloc, v8,
   * blink_gc, cc, gpu, …), bytes, summed over them; with `private_footprint`: what RSS growth is made of.
   */
  allocators: Record<string, number>;
}

/** Renderer process ids of the browser (CDP SystemInfo over the browser's own session). */
async function rendererPids(browser: Browser): Promise<number[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  } finally {
    await session.detach().catch(() => {});
  }
}

function rssOf(pid: number): number {
  const kB = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kB ? Number(kB) * 1024 : NaN;
}

/** One memory-infra dump of every process (CDP Tracing), the top-level allocators of `pids` summed. */
async function allocatorsOf(browser: Browser, pids: readonly number[]): Promise<Record<string, number>> {
  const session = await browser.newBrowserCDPSession();
  try {
    type Dump = { ph: string; pid: number; args?: { dumps?: { allocators?: Record<string, { attrs?: { size?: { value: string } } }>; process_totals?: { private_footprint_bytes?: string } } } };
    const events: Dump[] = [];
    session.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as Dump[])));
    const complete = new Promise((done) => session.once('Tracing.tracingComplete', done));
    await session.send('Tracing.start', {
      traceConfig: { includedCategories: ['disabled-by-default-memory-infra'] },
      transferMode: 'ReportEvents',
    });
    await session.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
    await session.send('Tracing.end');
    await complete;
    // Tracing may dump once as it starts (id 0x0): per process, the last dump, the one asked for.
    const last = new Map<number, Dump>();
    for (const e of events) if (e.ph === 'v' && pids.includes(e.pid)) last.set(e.pid, e);
    const sums: Record<string, number> = {};
    const add = (name: string, hex: string | undefined) => (sums[name] = (sums[name] ?? 0) + (hex ? Number.parseInt(hex, 16) : 0));
    for (const e of last.values()) {
      const dumps = e.args?.dumps;
      if (dumps?.process_totals) add('private_footprint', dumps.process_totals.private_footprint_bytes);
      // Top-level allocators, and partition_alloc's partitions (array_buffer holds what the page's fetches and MSE appends copy).
      for (const [name, a] of Object.entries(dumps?.allocators ?? {})) {
        if (!name.includes('/') || /^partition_alloc\/partitions\/[^/]+$/.test(name)) add(name.replace('partition_alloc/partitions/', 'partition_alloc/'), a.attrs?.size?.value);
      }
    }
    return sums;
  } finally {
    await session.detach().catch(() => {});
  }
}

export async function memoryOf(browser: Browser, cdp: CDPSession): Promise<Memory> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  let rendererRss = NaN;
  let allocators: Record<string, number> = {};
  try {
    const pids = await rendererPids(browser);
    rendererRss = pids.reduce((sum, pid) => sum + rssOf(pid), 0);
    allocators = await allocatorsOf(browser, pids);
  } catch {
    // Another machine's browser, or a process gone between the reads: no RSS this time.
  }
  return { heapUsed: usedSize, rendererRss, allocators };
}
