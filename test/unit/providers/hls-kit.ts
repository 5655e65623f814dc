// A real hls.js instance without a browser, for the adapter's tests (hls-internals.test.ts): hls.js's
// global scope (`self`) is a happy-dom window's location, navigator and document with a virtual clock's
// timers, a MediaSource that takes every codec (hls.js only asks it), and no media element: hls.js
// loads the master and media playlists and asks for the first fragments (`startFragPrefetch`) as it
// does before the MediaSource opens. Requests go to `TableLoader`, which answers playlists from a table
// (or fails those in `failing`) and keeps every other request in flight until the test answers or fails it.
import Hls, { LoadStats, type HlsConfig, type LoaderCallbacks, type LoaderConfiguration, type LoaderContext } from 'hls.js';
import { installDom } from '../dom';

export const BASE = 'https://media.example/film/';

/** Two renditions (240p, 720p) and two audio renditions (ru, the default; en), 4 s fragments. */
const PLAYLISTS: Record<string, string> = {
  'master.m3u8': [
    '#EXTM3U',
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="ru",LANGUAGE="ru",DEFAULT=YES,AUTOSELECT=YES,URI="a-ru.m3u8"',
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",LANGUAGE="en",AUTOSELECT=YES,URI="a-en.m3u8"',
    '#EXT-X-STREAM-INF:BANDWIDTH=300000,AVERAGE-BANDWIDTH=280000,CODECS="avc1.42c015,mp4a.40.2",RESOLUTION=426x240,AUDIO="a"',
    'v0.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=1200000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=1280x720,AUDIO="a"',
    'v1.m3u8',
    '',
  ].join('\n'),
};
const media = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:4', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-MAP:URI="init.mp4"'];
for (const name of ['v0', 'v1', 'a-ru', 'a-en']) {
  PLAYLISTS[`${name}.m3u8`] = [...media, '#EXTINF:4,', `${name}-0.m4s`, '#EXTINF:4,', `${name}-1.m4s`, '#EXT-X-ENDLIST', ''].join('\n');
}

type Timer = { at: number; fn: () => void; every?: number };

/** hls.js's timers on a virtual clock: `advance` runs what falls due, letting promises settle in between. */
export function virtualScope() {
  const win = installDom(BASE);
  let now = 1000;
  let seq = 0;
  const timers = new Map<number, Timer>();
  const g = globalThis as Record<string, unknown>;
  const saved = { self: g.self, status: g.status, now: performance.now };
  const add = (fn: () => void, ms: number, every?: number) => (timers.set(++seq, { at: now + Math.max(0, ms || 0), fn, every }), seq);
  const remove = (id: number | undefined) => void timers.delete(id as number);
  const scope = {
    location: win.location,
    navigator: win.navigator,
    document: win.document,
    performance,
    MediaSource: class {
      static isTypeSupported() {
        return true;
      }
    },
    setTimeout: (fn: () => void, ms = 0) => add(fn, ms),
    setInterval: (fn: () => void, ms = 0) => add(fn, ms, Math.max(1, ms)),
    clearTimeout: remove,
    clearInterval: remove,
  };
  g.self = scope;
  // hls.js's loader retry logs the global `status` (a browser window's `status`).
  g.status = '';
  performance.now = () => now;
  return {
    now: () => now,
    pending: () => timers.size,
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        for (let i = 0; i < 5; i++) await Promise.resolve();
        const next = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        const [id, t] = next;
        // A timer overdue after a freeze runs once, late; an interval then every period from then.
        now = Math.max(now, t.at);
        if (t.every) t.at = now + t.every;
        else timers.delete(id);
        t.fn();
      }
      now = end;
    },
    /** The page does not run for `ms` (a busy main thread): the clock moves on and no timer fires. */
    freeze(ms: number) {
      now += ms;
    },
    restore() {
      timers.clear();
      g.self = saved.self;
      g.status = saved.status;
      performance.now = saved.now;
    },
  };
}

/** One request hls.js made: its context and loader config, and how to end it. */
export interface Asked {
  url: string;
  context: LoaderContext;
  config: LoaderConfiguration;
  stats: LoadStats;
  aborted: number;
  answer(bytes: number): void;
  fail(code: number): void;
}

/** The requests made through every TableLoader, in order. */
export const asked: Asked[] = [];

/** Playlists (paths under BASE) answered 404 instead. */
export const failing = new Set<string>();

/** hls.js's loader over PLAYLISTS: a playlist is answered at once (within the task), anything else stays in flight. */
class TableLoader {
  context: LoaderContext | null = null;
  stats = new LoadStats();
  private callbacks?: LoaderCallbacks<LoaderContext>;
  private record?: Asked;

  load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
    this.context = context;
    this.callbacks = callbacks;
    const stats = this.stats;
    stats.loading.start = performance.now();
    const record: Asked = {
      url: context.url,
      context,
      config,
      stats,
      aborted: 0,
      answer: (bytes) => {
        const t = performance.now();
        stats.loading.first = stats.loading.first || t;
        stats.loading.end = t;
        stats.loaded = stats.total = bytes;
        const data = PLAYLISTS[context.url.slice(BASE.length)] ?? new ArrayBuffer(bytes);
        callbacks.onSuccess({ url: context.url, data }, stats, context, null);
      },
      fail: (code) => callbacks.onError({ code, text: 'table' }, context, null, stats),
    };
    this.record = record;
    asked.push(record);
    const name = context.url.slice(BASE.length);
    const text = PLAYLISTS[name];
    if (text !== undefined) queueMicrotask(() => !record.aborted && (failing.has(name) ? record.fail(404) : record.answer(text.length)));
  }

  abort() {
    if (!this.record) return;
    this.record.aborted++;
    this.stats.aborted = true;
    this.callbacks?.onAbort?.(this.stats, this.context!, null);
  }

  destroy() {
    this.callbacks = undefined;
  }
}

/** A real Hls on `TableLoader`, as the engine sets it up for a start (no worker: hls.js parses in this thread). */
export function tableHls(config: Partial<HlsConfig> = {}): Hls {
  asked.length = 0;
  failing.clear();
  return new Hls({ loader: TableLoader as unknown as HlsConfig['loader'], enableWorker: false, startFragPrefetch: true, ...config });
}

/** The requests for `name` (a path under BASE), in order. */
export const requestsFor = (name: string) => asked.filter((a) => a.url === BASE + name);
