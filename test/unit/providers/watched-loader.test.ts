// providers/watched-loader.ts timedOut: a request with no byte for 10 s is timed out once the link is
// shown to carry since (the other loads got 256 kB, or a probe was answered), or, with no answer yet,
// when nothing at all arrived; a request waiting its turn while the others get a trickle is kept, and so
// is an answer under way on a link that is out: a slow or lost link goes on when it brings bytes again.
// waitedFor: a load waiting its turn is not stuck to the media watchdog.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Hls, { type LoaderCallbacks, type LoaderContext, type LoaderStats } from 'hls.js';
import type { PlaylistCache, Prefetched } from '../../../src/core/player-api';
import { timedOut, waitedFor, watchedLoader } from '../../../src/providers/watched-loader';
import { intervals } from '../fakes';

test('no first byte for 10 s with nothing else arriving: timed out (hls.js retries it on a new request)', () => {
  assert.not.ok(timedOut(9999, 0, false, 0, 0));
  assert.ok(timedOut(10000, 0, false, 0, 0));
});

test('no first byte for 10 s while the link carries (a turn and more to the others, or a probe answered): stuck, timed out', () => {
  assert.ok(timedOut(60000, 0, false, 5e6, 50000));
  assert.ok(timedOut(10000, 0, false, 256e3, 0));
  assert.ok(timedOut(12000, 1000, false, 40e3, 5000));
  assert.not.ok(timedOut(12000, 1000, false, 40e3, 500), 'a probe answered before it was asked says nothing of it');
});

test('no first byte while the others get a trickle (asked behind the audio in the 3G hole, Firefox): waiting its turn, kept', () => {
  // The 3G trace at 0 s in Firefox: the 240p fragment asked at 46.1 s, the audio's 65 kB arriving 47.7–60.5 s.
  assert.not.ok(timedOut(56100, 46100, false, 40e3, 0));
  assert.not.ok(timedOut(90000, 46100, false, 255e3, 0));
  assert.ok(timedOut(90000, 46100, false, 256e3, 0), 'a whole turn to the others and none to it: stuck');
});

test('answering, then silent while the others receive plenty: this request is stuck, timed out', () => {
  assert.ok(timedOut(12000, 1000, true, 256e3, 0));
  assert.ok(timedOut(12000, 1000, true, 3e6, 0));
  assert.not.ok(timedOut(10999, 1000, true, 3e6, 0), 'not before 10 s of its own silence');
});

test('answering, then silent while the media server answers a probe: stuck, timed out', () => {
  assert.ok(timedOut(12000, 1000, true, 0, 5000));
  assert.not.ok(timedOut(12000, 1000, true, 0, 1000), 'a probe answered before its last byte says nothing of the silence');
});

test('answering, then silent while the others get a trickle (its turn on a slow link: the 3G hole): kept', () => {
  // The 3G trace at 0 s: a 240p fragment's first 64 KiB in, then the audio fragment's turn, 65 kB in 14 s.
  assert.not.ok(timedOut(24000, 1000, true, 65e3, 0));
  assert.not.ok(timedOut(24000, 1000, true, 255e3, 0));
});

test('answering, then silent with nothing arriving at all: the link is out; kept however long', () => {
  assert.not.ok(timedOut(12000, 1000, true, 0, 0));
  assert.not.ok(timedOut(300000, 1000, true, 0, 0));
});

test('nonsense inputs: NaN bytes or times never time out an answering request, a silent one still times out', () => {
  assert.not.ok(timedOut(12000, 1000, true, NaN, NaN));
  assert.ok(timedOut(12000, 1000, false, NaN, NaN));
});

test('waitedFor: a load waiting its turn while the others get a trickle made progress when the link last did', () => {
  assert.is(waitedFor(1000, 65e3, 9000), 9000);
  assert.is(waitedFor(1000, 1, 9000), 9000);
});

test('waitedFor: its own time when the others got nothing (link out, or a server fault: the probe tells) or a turn and more (stuck)', () => {
  assert.is(waitedFor(1000, 0, 9000), 1000);
  assert.is(waitedFor(1000, 256e3, 9000), 1000);
  assert.is(waitedFor(1000, 3e6, 9000), 1000);
  assert.is(waitedFor(1000, NaN, 9000), 1000);
  assert.is(waitedFor(5000, 65e3, 3000), 5000, 'never earlier than its own');
});

test('a prefetched fragment reaches hls.js with its own times: asked, first byte, last byte (the ABR estimate is its transfer)', async () => {
  // The 3G trace at 300 s: the 240p first fragment asked at 872 ms, its answer from 1010, in at 1415.
  const answer: Prefetched = { data: new ArrayBuffer(135990), start: 872, first: 1010, end: 1415 };
  const cache = new Map([['http://h/seg_000.m4s', Promise.resolve(answer)]]) as PlaylistCache;
  let answered = 0;
  const Loader = watchedLoader({ last: 0, open: new Map() }, cache, () => answered++);
  const loader = new Loader({} as never);
  const got = await new Promise<LoaderStats>((done) => {
    const callbacks = { onSuccess: (_r: unknown, stats: LoaderStats) => done(stats), onError() {}, onTimeout() {} } as unknown as LoaderCallbacks<LoaderContext>;
    loader.load({ url: 'http://h/seg_000.m4s', responseType: 'arraybuffer' } as LoaderContext, {} as never, callbacks);
  });
  assert.equal([got.loading.start, got.loading.first, got.loading.end], [872, 1010, 1415]);
  assert.is(got.loaded, 135990);
  assert.is(answered, 1);
  assert.ok(cache.has('http://h/seg_000.m4s'), 'kept for the take-over asking again');
  // What hls.js's ABR samples (abr-controller onFragBuffered): the time to the first byte, up to its
  // latency estimate (here that very fragment's), off the load: the transfer, about 2.7 Mb/s, not 50 ms.
  const latency = got.loading.first - got.loading.start;
  assert.ok(got.loading.end - got.loading.start - latency >= 400);
});

/** One loader of `cache` asked for `url` as hls.js asks; resolves with the answer (undefined: the network's). */
const asker = (cache: PlaylistCache, url: string, responseType: string, onNetwork: () => void) => {
  const Loader = watchedLoader({ last: 0, open: new Map() }, cache, () => {});
  return () =>
    new Promise<unknown>((done) => {
      const loader = new Loader({} as never);
      const callbacks = { onSuccess: (r: { data: unknown }) => done(r.data), onError() {}, onTimeout() {} } as unknown as LoaderCallbacks<LoaderContext>;
      Object.assign(loader, { loadWatched: () => (onNetwork(), done(undefined)) });
      loader.load({ url, responseType } as LoaderContext, {} as never, callbacks);
    });
};

test('a prefetched fragment answers three asks (the take-over asks again), each with bytes of its own; the fourth goes to the network', async () => {
  const bytes = new Uint8Array([1, 2, 3]).buffer;
  const cache = new Map([['http://h/seg_000.m4s', Promise.resolve({ data: bytes, start: 1, first: 2, end: 3 } as Prefetched)]]) as PlaylistCache;
  let network = 0;
  const ask = asker(cache, 'http://h/seg_000.m4s', 'arraybuffer', () => network++);
  const answers: unknown[] = [];
  for (let i = 0; i < 4; i++) answers.push(await ask());
  assert.is(network, 1, 'the fourth ask');
  assert.is(answers[3], undefined);
  const [a, b, c] = answers as ArrayBuffer[];
  assert.equal([...new Uint8Array(a)], [1, 2, 3]);
  assert.equal([...new Uint8Array(c)], [1, 2, 3]);
  assert.ok(a !== b && b !== c, 'hls.js may transfer what it gets to its worker: each answer is its own');
  assert.not.ok(cache.has('http://h/seg_000.m4s'));
});

test('a prefetched playlist answers one ask; the next goes to the network', async () => {
  const cache = new Map([['http://h/index.m3u8', Promise.resolve({ data: '#EXTM3U', start: 1, first: 2, end: 3 } as Prefetched)]]) as PlaylistCache;
  let network = 0;
  const ask = asker(cache, 'http://h/index.m3u8', 'text', () => network++);
  assert.is(await ask(), '#EXTM3U');
  assert.is(await ask(), undefined);
  assert.is(network, 1);
});

/** hls.js's default loader stood in for: a request that gets what the test gives it, and counts hls.js's own timeouts. */
class NetworkLoader {
  stats = { aborted: false, loaded: 0, total: 0, retry: 0, chunkCount: 0, bwEstimate: 0, loading: { start: 0, first: 0, end: 0 }, parsing: { start: 0, end: 0 }, buffering: { start: 0, first: 0, end: 0 } };
  timeouts = 0;
  load() {
    this.stats.loading.start = performance.now();
  }
  loadtimeout() {
    this.timeouts++;
  }
  abort() {}
  destroy() {}
}

/** A fragment asked on the network through the watched loader, on the virtual clock; its request to feed bytes into. */
function networkLoad() {
  const saved = Hls.DefaultConfig;
  Hls.DefaultConfig = { ...saved, loader: NetworkLoader as never };
  try {
    const Loader = watchedLoader({ last: 0, open: new Map() }, new Map() as PlaylistCache, () => {});
    const loader = new Loader({} as never) as unknown as NetworkLoader & { load(...a: unknown[]): void };
    const callbacks = { onSuccess() {}, onError() {}, onTimeout() {}, onAbort() {} } as unknown as LoaderCallbacks<LoaderContext>;
    const frag = { type: 'main', sn: 7 };
    loader.load({ url: 'http://h/seg_007.m4s', responseType: 'arraybuffer', frag } as unknown as LoaderContext, {} as never, callbacks);
    return loader;
  } finally {
    Hls.DefaultConfig = saved;
  }
}

test('a freeze longer than the idle budget, the first bytes queued behind the late tick: not timed out; nothing after it: timed out a tick on', () => {
  const clock = intervals();
  try {
    const loader = networkLoad();
    clock.advance(3000);
    // The page does not run for 9 s: 12 s without a byte when its overdue tick runs, ahead of the bytes.
    clock.freeze(9000);
    clock.advance(0);
    assert.is(loader.timeouts, 0, 'the late tick judges nothing');
    Object.assign(loader.stats, { loaded: 64e3 });
    loader.stats.loading.first = clock.now();
    clock.advance(9500);
    assert.is(loader.timeouts, 0, 'the bytes came meanwhile');

    const silent = networkLoad();
    clock.advance(3000);
    clock.freeze(9000);
    clock.advance(0);
    assert.is(silent.timeouts, 0);
    clock.advance(500);
    assert.is(silent.timeouts, 1, 'nothing came in the freeze either: timed out at the next tick');
  } finally {
    clock.restore();
  }
});

test.run();
