// Firefox for bench/playback.ts (`--engine firefox`): Debian's firefox-esr through puppeteer-core over
// WebDriver BiDi, as the engine journeys drive it (test/engines/firefox.ts). BiDi has no network events
// with sizes and times as CDP has, so a run's requests come from the page's own Resource Timing: every
// request of a run goes to the page's origin (through the link), so no size is hidden, and the times
// are the page's, from navigation. A request shows there once it has ended; aborted ones may not show.
// No memory readings: --long is Chromium's.
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
// @ts-expect-error: plain JS modules
import { ensureFirefox } from '../scripts/find-engines.mjs';
import { evaluateWithoutGesture } from '../test/engines/firefox';
import type { Ladder } from './playback-ladder';
import { PROBE, probeCalls, type PathFetch, type PlaybackPage, type Request } from './playback-page';

const PREFS = {
  // As the bench's Chromium (--autoplay-policy=no-user-gesture-required): the film starts with sound.
  'media.autoplay.default': 0,
  // A first visit, every run (Chromium's: CDP Network.setCacheDisabled).
  'browser.cache.disk.enable': false,
  'browser.cache.memory.enable': false,
  // The probe's and Resource Timing's times to the millisecond and below, as Chromium's.
  'privacy.reduceTimerPrecision': false,
  'intl.accept_languages': 'ru-RU, ru',
};

/** Every request the page has finished, its navigation first; times in ms since navigation. */
const FINISHED = `[...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .map((e) => ({ url: e.name, start: e.startTime, headers: e.responseStart, end: e.responseEnd, bytes: e.transferSize }))`;

/** A Resource Timing entry as the page gives it (times in ms since navigation; 0: not known). */
export interface Finished {
  url: string;
  start: number;
  headers: number;
  end: number;
  bytes: number;
}

/** A path with its query, or the address's start when it is none (a data: or blob: address). */
const pathOf = (url: string, withQuery: boolean): string | undefined => {
  try {
    const u = new URL(url);
    if (!/^https?:$/.test(u.protocol)) return undefined;
    return withQuery ? u.pathname + u.search : u.pathname;
  } catch {
    return undefined;
  }
};

/** The waterfall, in the order asked; a size of 0 (an answer from a cache, or one whose size is hidden) is no size. */
export function requestsOf(entries: readonly Finished[]): Request[] {
  return entries
    .map((e) => ({
      path: pathOf(e.url, true) ?? e.url.slice(0, 40),
      startMs: Math.round(e.start),
      headersMs: e.headers > 0 ? Math.round(e.headers) : undefined,
      endMs: Math.round(e.end),
      bytes: e.bytes > 0 ? e.bytes : undefined,
    }))
    .sort((a, b) => a.startMs - b.startMs);
}

/** The ladder's media segments among them, with the bytes the link carried for each; one of unknown size is not counted. */
export function segmentsOf(entries: readonly Finished[], ladder: Pick<Ladder, 'segments'>): PathFetch[] {
  return entries.flatMap((e) => {
    const path = pathOf(e.url, false);
    const segment = path === undefined ? undefined : ladder.segments.get(path);
    return segment && e.bytes > 0 ? [{ ...segment, path: path!, bytes: e.bytes, doneMs: Math.round(e.end) }] : [];
  });
}

export async function launchFirefoxForBench(): Promise<{ browser: Browser; version: string }> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: ensureFirefox() as string,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: PREFS,
  });
  return { browser, version: (await browser.version()).replace(/^firefox\//, '') };
}

/** Runs `use` on a fresh user context's page with the probe; the context is closed after. */
export async function inFirefoxPage<T>(browser: Browser, ladder: Ladder, use: (m: PlaybackPage) => Promise<T>): Promise<T> {
  const context = await browser.createBrowserContext();
  try {
    const page: Page = await context.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    await page.setCacheEnabled(false).catch(() => {});
    // The resource buffer's default (250 entries) is a long run's fragments and playlists.
    await page.evaluateOnNewDocument(`performance.setResourceTimingBufferSize(100000); ${PROBE}`);
    const evaluate = <R>(expression: string) => evaluateWithoutGesture(page, expression) as Promise<R>;
    return await use({
      goto: async (url, timeout) => void (await page.goto(url, { waitUntil: 'domcontentloaded', timeout })),
      async network() {
        const finished = (await evaluate<Finished[]>(FINISHED)) ?? [];
        return { segments: segmentsOf(finished, ladder), requests: requestsOf(finished) };
      },
      ...probeCalls(evaluate),
    });
  } finally {
    await context.close().catch(() => {});
  }
}
