import Hls, { type FragmentLoaderContext, type LoaderCallbacks, type LoaderConfiguration, type LoaderContext } from 'hls.js';
import { nextTask } from '../core/deadline';
import type { MediaTraffic, PlaylistCache } from '../core/player-api';

/**
 * hls.js's own timers count time, not progress (hls-engine.ts sets them past anything real): a
 * request that has had no byte of its own for this long is timed out here instead (`timedOut`).
 */
const LOAD_IDLE_MS = 10000;

/**
 * Whether a request whose own last byte (or start) was at `own` has waited too long: LOAD_IDLE_MS
 * without a byte, and, once it is answering, the network heard carrying since (another load's byte,
 * or the server answering the watchdog's probe). An answer silent with nothing else heard either is
 * the link out (a hole in the signal), not this request stuck: cut, its bytes would be lost and the
 * retry would pay a new connection once the link is back; kept, it goes on. Whether the silence is
 * the server's fault, the media watchdog decides.
 */
export const timedOut = (now: number, own: number, answering: boolean, heard: number): boolean =>
  now - own >= LOAD_IDLE_MS && (!answering || heard > own);

/**
 * hls.js's loader, answering from what the prefetch fetched when it has it (each address once; a
 * retry goes to the network) and loading normally otherwise: as the playlist loader and as the
 * fragment loader (init segments and first fragments). Every byte it receives is written to
 * `traffic`; a request that has had no byte for LOAD_IDLE_MS is timed out (and retried as hls.js does).
 */
export function watchedLoader(traffic: MediaTraffic, cache: PlaylistCache, beforeAnswer: () => void) {
  const Base = Hls.DefaultConfig.loader;
  // hls.js types its playlist and fragment loaders with narrower contexts; the default loader serves all.
  return class WatchedLoader extends Base {
    watch?: ReturnType<typeof setInterval>;

    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
      const hit = context.rangeEnd ? undefined : cache.get(context.url);
      if (!hit) return this.loadWatched(context, config, callbacks);
      cache.delete(context.url);
      // As hls.js's own load: its playlist loader reads the context to tell a request still under way
      // (ignored when asked again) from one to abort; without it, a second ask for the same playlist
      // while the prefetch was still out went to the network (Fast 3G waterfalls: the audio playlist).
      Object.assign(this, { context, config, callbacks });
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
        // The prefetch's own times, so the bandwidth estimate (ABR) sees the real transfer.
        stats.loading.start = got.start;
        stats.loading.first = stats.loading.end = got.end;
        stats.loaded = stats.total = typeof got.data === 'string' ? got.data.length : got.data.byteLength;
        beforeAnswer();
        callbacks.onSuccess({ url: context.url, data: got.data, code: 200 }, stats, context, null);
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
      const unwatch = () => clearInterval(this.watch);
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
      clearInterval(this.watch);
      const tick = () => {
        const got = stats.loaded + (stats.loading.first ? 1 : 0);
        const now = performance.now();
        if (got !== seen) {
          if (seen >= 0) traffic.last = traffic.heard = waited = mine = now;
          seen = got;
        }
        traffic.open.set(key, waited);
        if (stats.aborted || stats.loading.end) return unwatch();
        if (!timedOut(now, mine, stats.loading.first > 0, traffic.heard ?? 0)) return;
        // hls.js's own timeout, at the moment this one decides: its retries (timeoutRetry), then
        // onTimeout; a retry is a new request, given its own LOAD_IDLE_MS.
        mine = now;
        (this as unknown as { loadtimeout(): void }).loadtimeout();
      };
      tick();
      this.watch = setInterval(tick, 500);
    }

    abort() {
      clearInterval(this.watch);
      // hls.js's abort marks only a request of its own as aborted; the prefetched answer must not land either.
      if (this.stats) this.stats.aborted = true;
      super.abort();
    }
  };
}
