// `npm run bench:playback -- --long`: the long title (about 2 hours), watched for N minutes (default 10)
// unthrottled, with a seek every minute to a seeded random point of the whole film (half a minute into
// each minute). Every minute: the page's JS heap after a full collection, the renderer processes'
// resident memory and the seconds of video buffered; then the growth after the first minute and, per
// seek, the time to a frame and to playback moving again. Prints numbers; never fails on timing.
import type { Browser } from 'playwright-core';
import { accountRun, meanBitrate, meanHeight, type SeekResult } from './qoe';
import type { Ladder } from './playback-ladder';
import { inMeasuredPage, memoryOf, type Memory } from './playback-page';

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

export async function watchLong(browser: Browser, ladder: Ladder, url: string, page: string, minutes: number, seed: number): Promise<LongWatch> {
  const random = seeded(seed);
  return inMeasuredPage(browser, ladder, async (m) => {
    await m.page.goto(url, { waitUntil: 'commit', timeout: FIRST_FRAME_WAIT_MS });
    let first: number | undefined;
    for (let waited = 0; first === undefined && waited < FIRST_FRAME_WAIT_MS; waited += 500) {
      first = (await m.log()).find((e) => e.type === 'playing')?.t;
      if (first === undefined) await m.page.waitForTimeout(500);
    }
    const samples: MinuteSample[] = [];
    if (first !== undefined) {
      for (let minute = 1; minute <= minutes; minute++) {
        await m.until(first + (minute - 0.5) * 60_000);
        const { duration } = await m.state();
        // Anywhere in the film but its last minute, so playback goes on after the seek.
        await m.seek(Math.floor(random() * Math.max(1, duration - 60)));
        await m.until(first + minute * 60_000);
        const [{ buffered }, log, dom] = await Promise.all([m.state(), m.log(), m.cdp.send('Memory.getDOMCounters')]);
        const bufferedS = buffered.reduce((sum, [a, b]) => sum + b - a, 0);
        const height = log[log.length - 1]?.h ?? 0;
        const rung = ladder.rungs.find((r) => r.height === height);
        const bufferedBytes = rung ? (bufferedS * rung.bitsPerSecond) / 8 : Number.NaN;
        const counters = { nodes: dom.nodes, listeners: dom.jsEventListeners };
        samples.push({ minute, bufferedS, bufferedBytes, height, ...counters, ...(await memoryOf(browser, m.cdp)) });
        process.stderr.write(`long, ${page}: minute ${minute}/${minutes}\n`);
      }
    }
    const run = accountRun(await m.log(), ladder.rungs);
    const { firstFrameMs, seeks, stalls, stallS } = run;
    return { page, firstFrameMs, minutes: samples, seeks, stalls, stallS, meanHeight: meanHeight(run), meanBitrate: meanBitrate(run) };
  });
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
