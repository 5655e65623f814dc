// One measured page of bench/playback.ts: a fresh Chromium context (no cache) with a probe that keeps
// the log bench/qoe.ts reads (the content <video>'s events and a sample every 250 ms), the media
// segments the page fetched (from CDP's network events: works for the player and the bare page alike).
// The long watch's page and its memory readings are bench/playback-long.ts's.
import type { Browser, BrowserContext } from 'playwright-core';
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
  // The player hands its playback decisions to this list when the page has one (providers/hls-engine.ts).
  window.__playbackDecisions = [];
  Object.defineProperty(window, '__bench', {
    value: {
      log,
      sample,
      // The log so far, emptied with the decisions: a long watch keeps both on its side, so that what the
      // page's heap gains over the minutes is the page's, not the probe's (240 entries a minute).
      drain() {
        sample();
        window.__playbackDecisions.length = 0;
        return log.splice(0);
      },
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

/** CDP `Network.enable`'s buffers for a measuring session: its events, none of the bodies. */
export const NETWORK_EVENTS_ONLY = { maxTotalBufferSize: 0, maxResourceBufferSize: 0 };

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
  /** The log since the last drain (a sample taken first), which the page then forgets, with the decisions. */
  drain(): Promise<LogEntry[]>;
  /** The player's playback decisions so far (src/playback/decisions.ts, stamped with the page's clock); none on the bare page. */
  decisions(): Promise<unknown[]>;
  /** Waits until the page's clock reads `ms` since navigation. */
  until(ms: number): Promise<void>;
}

/** The probe's calls through an engine's `evaluate` (an expression's JSON result). */
export function probeCalls(evaluate: <R>(expression: string) => Promise<R>): ProbeCalls {
  return {
    log: () => evaluate<LogEntry[]>('(__bench.sample(), __bench.log)'),
    state: () => evaluate<PageState>('__bench.state()'),
    decisions: () => evaluate<unknown[]>('window.__playbackDecisions || []'),
    drain: () => evaluate<LogEntry[]>('__bench.drain()'),
    seek: (to) => evaluate<void>(`__bench.seek(${Number(to)})`),
    async until(ms) {
      const now = await evaluate<number>('performance.now()');
      if (ms > now) await new Promise((done) => setTimeout(done, ms - now));
    },
  };
}

/** Runs `use` on a fresh context's page with the probe; the context is closed after. */
export async function inMeasuredPage<T>(browser: Browser, ladder: Ladder, use: (m: PlaybackPage) => Promise<T>): Promise<T> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // Events only: no response body kept for getResponseBody (Chromium's default keeps up to 200 MB a session).
    await cdp.send('Network.enable', NETWORK_EVENTS_ONLY);
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
      goto: async (url, timeout) => void (await page.goto(url, { waitUntil: 'commit', timeout })),
      network: async () => ({ segments: [...fetched], requests: [...requests.values()].map((r) => ({ ...r })) }),
      ...probeCalls((expression) => page.evaluate(expression)),
    });
  } finally {
    await context.close().catch(() => {});
  }
}
