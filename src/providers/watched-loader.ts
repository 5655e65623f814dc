import Hls, { type FragmentLoaderContext, type LoaderCallbacks, type LoaderConfiguration, type LoaderContext } from 'hls.js';
import { nextTask } from '../core/deadline';
import type { MediaTraffic, PlaylistCache } from '../core/player-api';
import { IDLE_MS } from '../playback/deadlines';
import { adoptLoad, timeOut } from './hls-internals';
import { everyOnTime } from './on-time';

/**
 * hls.js's own timers count time, not progress (hls-engine.ts sets them past anything real): a
 * request that has had no byte of its own for the policy's IDLE_MS is timed out here instead (`timedOut`).
 */
const LOAD_IDLE_MS = IDLE_MS;

/**
 * What the other loads may receive while a request gets nothing before it counts as stuck rather than
 * waiting its turn: a cellular link queues each connection's bytes (the bench's link 64 KiB a
 * connection, a base station more), so on a slow link a request goes silent for seconds while the
 * audio's turn is served; cut then, a fragment half in would be asked again from nothing and the
 * player would stall for the bytes it threw away.
 */
const SHARED_TURN_BYTES = 256e3;

/**
 * Whether a request whose own last byte (or start) was at `own` has waited too long: LOAD_IDLE_MS
 * without a byte, and the link shown to carry since (the other loads received SHARED_TURN_BYTES,
 * `othersBytes`, or the media's server answered the watchdog's probe, `answered`); or, for one with no
 * answer yet, nothing arriving at all. A request silent while the others get a trickle is waiting its
 * turn on a slow link, answered or not: cut, its bytes (or its place in the queue) would be lost and
 * the retry would queue again from nothing (a fragment asked in a hole behind the audio's would be cut
 * before its first byte again and again). An answer under way is kept through a total silence too (a hole in the
 * signal: it goes on when bytes come back); an ask with no answer and nothing else heard is retried,
 * as hls.js's own first-byte timeout does. Whether a silence is the server's fault, the media watchdog
 * decides.
 */
export const timedOut = (now: number, own: number, answering: boolean, othersBytes: number, answered: number): boolean =>
  now - own >= LOAD_IDLE_MS && (othersBytes >= SHARED_TURN_BYTES || answered > own || (!answering && !(othersBytes > 0)));

/**
 * When a load last made progress, as the media watchdog judges it (`traffic.open`): its own last byte
 * (`own`), or, while it waits its turn on a link that moves (the others got some bytes since its own
 * last one, less than a turn's worth), the link's last byte (`linkLast`). Else the watchdog's probe,
 * answered through a slow link, would end in the error screen while bytes arrive.
 */
export const waitedFor = (own: number, othersBytes: number, linkLast: number): number =>
  othersBytes > 0 && othersBytes < SHARED_TURN_BYTES ? Math.max(own, linkLast) : own;

/**
 * How many asks for one init segment or fragment the prefetch answers. hls.js asks for the start's
 * fragments as it takes the page's own start over (early-media.ts), and again when the take-over
 * resets that load: answered once, the second ask would go to the network and fetch the first
 * fragments twice, while the next fragment is due. One more for a retry.
 */
const FRAGMENT_ANSWERS = 3;

/**
 * hls.js's loader, answering from what the prefetch fetched when it has it (a playlist once, an init
 * segment or fragment up to FRAGMENT_ANSWERS times; then to the network) and loading normally
 * otherwise: as the playlist loader and as the fragment loader (init segments and first fragments).
 * Every byte it receives is written to `traffic`; a request that has had no byte for LOAD_IDLE_MS is
 * timed out (and retried as hls.js does).
 */
export function watchedLoader(traffic: MediaTraffic, cache: PlaylistCache, beforeAnswer: () => void) {
  const Base = Hls.DefaultConfig.loader;
  const answered = new Map<string, number>();
  // hls.js types its playlist and fragment loaders with narrower contexts; the default loader serves all.
  return class WatchedLoader extends Base {
    unwatch?: () => void;

    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
      const hit = context.rangeEnd ? undefined : cache.get(context.url);
      if (!hit) return this.loadWatched(context, config, callbacks);
      const times = (answered.get(context.url) ?? 0) + 1;
      answered.set(context.url, times);
      const again = context.responseType === 'arraybuffer' && times < FRAGMENT_ANSWERS;
      if (!again) cache.delete(context.url);
      // As hls.js's own load: its playlist loader reads the context to tell a request still under way
      // (ignored when asked again) from one to abort; without it, a second ask for the same playlist
      // while the prefetch was still out went to the network (Fast 3G waterfalls: the audio playlist).
      adoptLoad(this, context, config, callbacks);
      const stats = this.stats;
      stats.loading.start = performance.now();
      // Each answer in a task of its own, even one already in: parsing it (and what hls.js asks for
      // next) is then not added to the task that asked, which would make one long task of the start.
      void hit.then(async (got) => {
        await nextTask();
        if (stats.aborted || !this.stats) return;
        if (!got) {
          stats.loading.start = 0;
          return this.loadWatched(context, config, callbacks);
        }
        // The prefetch's own times, so the bandwidth estimate (ABR) sees the real transfer. Its first
        // byte's too: hls.js takes the time to it off a fragment's load as latency (up to its estimate
        // of that), and a first byte put at the last would make the whole transfer latency: a sample of
        // tens of Mb/s, and the top level asked as the second fragment.
        stats.loading.start = got.start;
        stats.loading.first = got.first;
        stats.loading.end = got.end;
        stats.loaded = stats.total = typeof got.data === 'string' ? got.data.length : got.data.byteLength;
        beforeAnswer();
        // hls.js may hand the bytes to its worker (a transfer empties them): a copy while more answers may follow.
        const data = again && typeof got.data !== 'string' ? got.data.slice(0) : got.data;
        callbacks.onSuccess({ url: context.url, data, code: 200 }, stats, context, null);
      });
    }

    loadWatched(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
      const stats = this.stats;
      const frag = (context as Partial<FragmentLoaderContext>).frag;
      // A fragment keeps its key across renditions, retries and abandoned loads, until it is in (or
      // playback moves on: the media provider clears the keys): how long it has been waited for.
      const key = frag ? `${frag.type}/${frag.sn}` : context.url;
      let waited = traffic.open.get(key) ?? performance.now();
      let mine = performance.now();
      let seen = -1;
      // The engine's bytes (all loads) when this one last got one: what the others got since.
      let mark = traffic.bytes ?? 0;
      const unwatch = () => this.unwatch?.();
      const done = <A extends unknown[]>(fn?: (...args: A) => void, arrived?: boolean) => (...args: A) => {
        unwatch();
        if (arrived) traffic.open.delete(key);
        fn?.(...args);
      };
      super.load(context, config, {
        ...callbacks,
        onSuccess: done(callbacks.onSuccess, true),
        onError: done(callbacks.onError),
        onTimeout: done(callbacks.onTimeout),
        onAbort: done(callbacks.onAbort),
      });
      unwatch();
      const tick = () => {
        const got = stats.loaded + (stats.loading.first ? 1 : 0);
        const now = performance.now();
        if (got !== seen) {
          if (seen >= 0) {
            traffic.last = waited = mine = now;
            traffic.bytes = (traffic.bytes ?? 0) + Math.max(0, got - seen);
            mark = traffic.bytes;
          }
          seen = got;
        }
        const others = (traffic.bytes ?? 0) - mark;
        waited = waitedFor(waited, others, traffic.last);
        traffic.open.set(key, waited);
        if (stats.aborted || stats.loading.end) return unwatch();
        if (!timedOut(now, mine, stats.loading.first > 0, others, traffic.answered ?? 0)) return;
        // hls.js's own timeout, at the moment this one decides: its retries (timeoutRetry), then
        // onTimeout; a retry is a new request, given its own LOAD_IDLE_MS.
        mine = now;
        mark = traffic.bytes ?? 0;
        timeOut(this);
      };
      tick();
      // Not at a tick late after the page could not run: the bytes that came meanwhile are queued behind it.
      this.unwatch = everyOnTime(tick, 500);
    }

    abort() {
      this.unwatch?.();
      // hls.js's abort marks only a request of its own as aborted; the prefetched answer must not land either.
      if (this.stats) this.stats.aborted = true;
      super.abort();
    }
  };
}
