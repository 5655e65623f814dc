// `npm run bench:playback -- --long`: the long title (about 2 hours), watched for N minutes (default 10)
// unthrottled, with a seek every minute to a seeded random point of the whole film (half a minute into
// each minute). Every minute: the page's JS heap after a full collection, the renderer processes'
// resident memory and the seconds of video buffered; then the growth after the first minute and, per
// seek, the time to a frame and to playback moving again. Prints numbers; never fails on timing. The
// page runs in a Chromium driven over its DevTools pipe (chromium-pipe.ts), with no response body kept
// for DevTools: Playwright's session keeps up to 200 MB of them in the renderer, which this would count.
// For the same reason each reading first drops DevTools' per-request records, and one reading before
// minute 1 puts tracing's own buffers in every sample (docs/performance.md, "Memory on a long watch").
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PipedChromium } from './chromium-pipe';
import { accountRun, meanBitrate, meanHeight, type LogEntry, type SeekResult } from './qoe';
import type { Ladder } from './playback-ladder';
import { NETWORK_EVENTS_ONLY, PROBE, probeCalls, type ProbeCalls } from './playback-page';

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

export interface MinuteSample extends Memory {
  minute: number;
  /** Seconds of video buffered (all ranges). */
  bufferedS: number;
  /** What those seconds weigh at the average bitrate of the rung playing (video and audio), bytes: the media buffer's share of memory. */
  bufferedBytes: number;
  height: number;
  /** The page's DOM nodes and event listeners (CDP Memory.getDOMCounters): a leak of elements or listeners shows here. */
  nodes: number;
  listeners: number;
}

export interface LongWatch {
  page: string;
  firstFrameMs: number | undefined;
  minutes: MinuteSample[];
  seeks: SeekResult[];
  stalls: number;
  stallS: number;
  /** Means over the played seconds. */
  meanHeight: number;
  meanBitrate: number;
}

/** mulberry32: a small seeded generator, so every run seeks to the same points. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_FRAME_WAIT_MS = 60_000;

/** A page of the piped browser (a fresh one per watch), with what the long watch reads of it. */
interface LongPage extends ProbeCalls {
  /** A DevTools command to the page's own session. */
  send<R = Record<string, unknown>>(method: string, params?: object): Promise<R>;
  /**
   * Drops DevTools' record of every request so far: the Network domain keeps one per request in the
   * page's Blink heap for as long as it is enabled (0.3 MB a minute of this watch, which the page does
   * not hold). Disabled and enabled again, the cache off again (a request started in the milliseconds
   * between could meet the cache: in a 5-minute watch none of 297 did).
   */
  forgetRequests(): Promise<void>;
}

/** Runs `use` on a new page of `browser` with the probe, at 1280×720, its HTTP cache off; closed after. */
async function inLongPage<T>(browser: PipedChromium, url: string, use: (p: LongPage) => Promise<T>): Promise<T> {
  const { browserContextId } = await browser.send<{ browserContextId: string }>('Target.createBrowserContext');
  try {
    const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
    const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    const send = <R>(method: string, params?: object) => browser.send<R>(method, params, sessionId);
    await send('Page.enable');
    await send('Page.addScriptToEvaluateOnNewDocument', { source: PROBE });
    // The Network domain only to keep the HTTP cache off: the long title lists the same segments again.
    const networkOn = async () => {
      await send('Network.enable', NETWORK_EVENTS_ONLY);
      await send('Network.setCacheDisabled', { cacheDisabled: true });
    };
    await networkOn();
    await send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 720, deviceScaleFactor: 1, mobile: false });
    const { errorText } = await send<{ errorText?: string }>('Page.navigate', { url });
    if (errorText) throw new Error(`${url}: ${errorText}`);
    const evaluate = async <R>(expression: string): Promise<R> => {
      const { result, exceptionDetails } = await send<{ result: { value: R }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
        'Runtime.evaluate',
        { expression, returnByValue: true, awaitPromise: true },
      );
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value;
    };
    const forgetRequests = async () => {
      await send('Network.disable');
      await networkOn();
    };
    return await use({ send, forgetRequests, ...probeCalls(evaluate) });
  } finally {
    await browser.send('Target.disposeBrowserContext', { browserContextId }).catch(() => {});
  }
}

/**
 * With `snapshots` (a folder), the page's JS heap is also written there at minute 2 and at the last
 * minute (`<page>-minute-<n>.heapsnapshot`, for DevTools' Memory panel to compare): what the JS heap
 * gained between them, by constructor and retainer. Taken after that minute's reading.
 */
export async function watchLong(browser: PipedChromium, ladder: Ladder, url: string, page: string, minutes: number, seed: number, snapshots?: string): Promise<LongWatch> {
  const random = seeded(seed);
  return inLongPage(browser, url, async (m) => {
    let first: number | undefined;
    for (let waited = 0; first === undefined && waited < FIRST_FRAME_WAIT_MS; waited += 500) {
      // Until the page has committed, the probe is not there yet.
      first = (await m.log().catch(() => [])).find((e) => e.type === 'playing')?.t;
      if (first === undefined) await new Promise((done) => setTimeout(done, 500));
    }
    const samples: MinuteSample[] = [];
    // The probe's log, drained each minute before the page's memory is read (playback-page.ts `drain`).
    const entries: LogEntry[] = [];
    if (first !== undefined) {
      // Chromium's tracing holds a 4 MiB buffer in every process, seen in the dumps from the second trace
      // on: one dump before minute 1 (of every process; none summed) puts the bench's own buffers in every
      // sample (they were +12.6 MB over three renderers between minutes 1 and 2, read as the page's growth).
      await allocatorsOf(browser, []);
      for (let minute = 1; minute <= minutes; minute++) {
        await m.until(first + (minute - 0.5) * 60_000);
        const { duration } = await m.state();
        // Anywhere in the film but its last minute, so playback goes on after the seek.
        await m.seek(Math.floor(random() * Math.max(1, duration - 60)));
        await m.until(first + minute * 60_000);
        const [{ buffered }, log, dom] = await Promise.all([m.state(), m.drain(), m.send<{ nodes: number; jsEventListeners: number }>('Memory.getDOMCounters')]);
        entries.push(...log);
        const bufferedS = buffered.reduce((sum, [a, b]) => sum + b - a, 0);
        const height = log[log.length - 1]?.h ?? 0;
        const rung = ladder.rungs.find((r) => r.height === height);
        const bufferedBytes = rung ? (bufferedS * rung.bitsPerSecond) / 8 : Number.NaN;
        const counters = { nodes: dom.nodes, listeners: dom.jsEventListeners };
        samples.push({ minute, bufferedS, bufferedBytes, height, ...counters, ...(await memoryOf(browser, m)) });
        if (snapshots && (minute === Math.min(2, minutes) || minute === minutes)) await writeHeapSnapshot(browser, m, join(snapshots, `${page}-minute-${minute}.heapsnapshot`));
        process.stderr.write(`long, ${page}: minute ${minute}/${minutes}\n`);
      }
    }
    const run = accountRun([...entries, ...(await m.drain().catch(() => []))], ladder.rungs);
    const { firstFrameMs, seeks, stalls, stallS } = run;
    return { page, firstFrameMs, minutes: samples, seeks, stalls, stallS, meanHeight: meanHeight(run), meanBitrate: meanBitrate(run) };
  });
}

async function writeHeapSnapshot(browser: PipedChromium, page: LongPage, file: string) {
  const chunks: string[] = [];
  const off = browser.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk as string));
  try {
    await page.send('HeapProfiler.enable');
    await page.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    await page.send('HeapProfiler.disable');
  } finally {
    off();
  }
  writeFileSync(file, chunks.join(''));
}

function rssOf(pid: number): number {
  const kB = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kB ? Number(kB) * 1024 : NaN;
}

type Dump = { ph: string; pid: number; args?: { dumps?: { allocators?: Record<string, { attrs?: { size?: { value: string } } }>; process_totals?: { private_footprint_bytes?: string } } } };

/** One memory-infra dump of every process (Tracing), the top-level allocators of `pids` summed. */
async function allocatorsOf(browser: PipedChromium, pids: readonly number[]): Promise<Record<string, number>> {
  const events: Dump[] = [];
  const offData = browser.on('Tracing.dataCollected', (e) => events.push(...(e.value as Dump[])));
  const complete = new Promise<void>((done) => {
    const off = browser.on('Tracing.tracingComplete', () => (off(), done()));
  });
  try {
    await browser.send('Tracing.start', { traceConfig: { includedCategories: ['disabled-by-default-memory-infra'] }, transferMode: 'ReportEvents' });
    await browser.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
    await browser.send('Tracing.end');
    await complete;
  } finally {
    offData();
  }
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
}

async function memoryOf(browser: PipedChromium, page: LongPage): Promise<Memory> {
  await page.forgetRequests();
  await page.send('HeapProfiler.collectGarbage');
  const { usedSize } = await page.send<{ usedSize: number }>('Runtime.getHeapUsage');
  let rendererRss = NaN;
  let allocators: Record<string, number> = {};
  try {
    const { processInfo } = await browser.send<{ processInfo: Array<{ type: string; id: number }> }>('SystemInfo.getProcessInfo');
    const pids = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
    rendererRss = pids.reduce((sum, pid) => sum + rssOf(pid), 0);
    allocators = await allocatorsOf(browser, pids);
  } catch {
    // A process gone between the reads: no RSS this time.
  }
  return { heapUsed: usedSize, rendererRss, allocators };
}

const MB = (bytes: number) => (bytes / 1e6).toFixed(1);
const ms = (value: number | undefined) => (value === undefined ? 'never' : value.toFixed(0));

export function printLong(watch: LongWatch) {
  console.log(
    `\nLong watch, ${watch.page}: first frame ${ms(watch.firstFrameMs)} ms; ${watch.stalls} stalls (${watch.stallS.toFixed(1)} s) outside seeks; ` +
      `played ${watch.meanHeight.toFixed(0)}p, ${(watch.meanBitrate / 1000).toFixed(0)} kb/s on average`,
  );
  if (!watch.minutes.length) return;
  const head = ['minute', 'JS heap MB', 'renderer RSS MB', 'buffered s', 'height', '≈ buffered MB', 'DOM nodes', 'listeners'];
  console.log(head.map((h) => h.padStart(Math.max(6, h.length))).join(' '));
  for (const s of watch.minutes) {
    const cells = [String(s.minute), MB(s.heapUsed), MB(s.rendererRss), s.bufferedS.toFixed(1), String(s.height), MB(s.bufferedBytes), String(s.nodes), String(s.listeners)];
    console.log(cells.map((c, i) => c.padStart(Math.max(6, head[i]!.length))).join(' '));
  }
  const [one, last] = [watch.minutes[0]!, watch.minutes[watch.minutes.length - 1]!];
  const names = Object.keys(last.allocators).filter((n) => Math.max(last.allocators[n]!, one.allocators[n] ?? 0) >= 1e6).sort();
  if (names.length) {
    console.log(`renderers by allocator (Chromium memory-infra), MB: ${names.map((n) => `${n} ${MB(one.allocators[n] ?? 0)} → ${MB(last.allocators[n]!)}`).join(', ')} (minute 1 → ${last.minute})`);
  }
  console.log(
    `growth after minute 1: JS heap ${MB(last.heapUsed - one.heapUsed)} MB, renderer RSS ${MB(last.rendererRss - one.rendererRss)} MB ` +
      `(peak RSS ${MB(Math.max(...watch.minutes.map((s) => s.rendererRss)))} MB)`,
  );
  console.log(`${'seek at s'.padStart(9)} ${'to s'.padStart(7)} ${'ms to frame'.padStart(11)} ${'ms to play'.padStart(10)}`);
  for (const s of watch.seeks) {
    console.log(`${(s.atMs / 1000).toFixed(0).padStart(9)} ${s.to.toFixed(0).padStart(7)} ${ms(s.msToFrame).padStart(11)} ${ms(s.msToPlay).padStart(10)}`);
  }
  const toFrame = watch.seeks.map((s) => s.msToFrame ?? Infinity);
  if (toFrame.length) console.log(`slowest seek to a frame: ${ms(Math.max(...toFrame) === Infinity ? undefined : Math.max(...toFrame))} ms`);
}
