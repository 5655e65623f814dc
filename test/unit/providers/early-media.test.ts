// providers/early-media.ts: the start's first fragments appended by the page into a MediaSource of its
// own, for hls.js to take over; anything in the way leaves the element empty and the start to hls.js.
// A fake MediaSource, SourceBuffers and element: what is appended where, and what is handed over.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EarlyStart } from '../../../src/core/player-api';
import { appendEarly } from '../../../src/providers/early-media';
import { fakeClock, flush, quiet } from '../fakes';

const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;
const START: EarlyStart = {
  duration: 5400,
  variant: 'https://h.example/m/video/240p.m3u8',
  video: { codec: 'avc1.64001e', init: bytes('VI'), first: Promise.resolve(bytes('V0')), coming: { chunks: [] } },
  audio: { codec: 'mp4a.40.2', init: bytes('AI'), first: Promise.resolve(bytes('A0')), coming: { chunks: [] } },
};
const coming = (start: EarlyStart | undefined = START) => Promise.resolve(start);
/** A promise and its resolve, for what comes later. */
function later<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

interface Setup {
  supported?: (type: string) => boolean;
  /** The type whose appends fail. */
  failing?: string;
  /** Where the appended media starts (s). */
  startsAt?: number;
  /** The MediaSource never opens. */
  closed?: boolean;
}

/** Listeners as the code under test adds them (a DOM's Event class may be another realm's: happy-dom). */
class Emitter {
  private listeners = new Map<string, Array<() => void>>();
  addEventListener(type: string, fn: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  fire(type: string) {
    const fns = this.listeners.get(type) ?? [];
    this.listeners.delete(type);
    fns.forEach((fn) => fn());
  }
}

function install(setup: Setup = {}) {
  const appends: string[] = [];
  let opened: FakeSource | undefined;
  class FakeBuffer extends Emitter {
    constructor(readonly type: string) {
      super();
    }
    appendBuffer(data: ArrayBuffer) {
      appends.push(`${this.type.split(';')[0]} ${new TextDecoder().decode(data)}`);
      setTimeout(() => this.fire(setup.failing === this.type.split(';')[0] ? 'error' : 'updateend'));
    }
  }
  class FakeSource extends Emitter {
    duration = NaN;
    buffers: FakeBuffer[] = [];
    static isTypeSupported = (type: string) => setup.supported?.(type) ?? true;
    addSourceBuffer(type: string) {
      const b = new FakeBuffer(type);
      this.buffers.push(b);
      return b;
    }
  }
  const g = globalThis as Record<string, unknown>;
  const saved = { MediaSource: g.MediaSource, create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  const revoked: string[] = [];
  g.MediaSource = FakeSource;
  URL.createObjectURL = ((ms: FakeSource) => ((opened = ms), 'blob:early')) as unknown as typeof URL.createObjectURL;
  URL.revokeObjectURL = (u: string) => void revoked.push(u);
  const video = {
    src: '',
    loads: 0,
    removeAttribute(name: string) {
      if (name === 'src') this.src = '';
    },
    load() {
      this.loads++;
    },
    get buffered() {
      const all = appends.length >= 4;
      return { length: all ? 1 : 0, start: () => setup.startsAt ?? 0, end: () => 4 };
    },
  };
  const element = new Proxy(video, {
    set(target, key, value) {
      (target as Record<string | symbol, unknown>)[key] = value;
      if (key === 'src' && value && !setup.closed) setTimeout(() => opened?.fire('sourceopen'));
      return true;
    },
  });
  return {
    appends,
    revoked,
    video: element,
    source: () => opened,
    restore() {
      g.MediaSource = saved.MediaSource;
      URL.createObjectURL = saved.create;
      URL.revokeObjectURL = saved.revoke;
    },
  };
}

test('the start appended, init then fragment per buffer, handed over with its MediaSource and buffers', async () => {
  const env = install();
  try {
    const early = await appendEarly(env.video as unknown as HTMLVideoElement, coming());
    assert.ok(early);
    assert.is(early.variant, START.variant, 'the level its frames are of');
    assert.is(env.video.src, 'blob:early');
    assert.is(early.mediaSource, env.source() as unknown as MediaSource);
    assert.is(env.source()!.duration, 5400, 'the film\'s length, not the first fragment\'s');
    assert.equal(env.appends.filter((a) => a.startsWith('video')), ['video/mp4 VI', 'video/mp4 V0']);
    assert.equal(env.appends.filter((a) => a.startsWith('audio')), ['audio/mp4 AI', 'audio/mp4 A0']);
    assert.is(early.buffers.video.codec, 'avc1.64001e');
    assert.is(early.buffers.video.buffer, env.source()!.buffers[0] as unknown as SourceBuffer);
    assert.is(early.buffers.audio.codec, 'mp4a.40.2');
    assert.is(early.buffers.audio.buffer, env.source()!.buffers[1] as unknown as SourceBuffer);
  } finally {
    env.restore();
  }
});


test('a ManagedMediaSource engine (WebKit) is left to hls.js', async () => {
  const env = install();
  (globalThis as Record<string, unknown>).ManagedMediaSource = class {};
  try {
    assert.is(await appendEarly(env.video as unknown as HTMLVideoElement, coming()), undefined);
    assert.is(env.source(), undefined);
  } finally {
    delete (globalThis as Record<string, unknown>).ManagedMediaSource;
    env.restore();
  }
});

for (const [name, setup, start] of [
  ['an append refused', { failing: 'audio/mp4' }, START],
  ['a start away from 0', { startsAt: 1.2 }, START],
  ['a codec the MediaSource does not take', { supported: (t: string) => !t.includes('mp4a') }, START],
  ['no start (the prefetch could not make one)', {}, undefined],
  ['a first fragment that did not come', {}, { ...START, audio: { ...START.audio, first: Promise.resolve(undefined) } }],
] as const) {
  test(`${name}: the element emptied again (src removed, reloaded, the address revoked), undefined`, async () => {
    const env = install(setup);
    try {
      const { result } = await quiet(() => appendEarly(env.video as unknown as HTMLVideoElement, Promise.resolve(start)));
      assert.is(result, undefined);
      assert.is(env.video.src, '');
      assert.is(env.video.loads, 1);
      assert.equal(env.revoked, ['blob:early']);
    } finally {
      env.restore();
    }
  });
}

test('the MediaSource opens before the start is in, and each init segment goes in before the first fragments come', async () => {
  const env = install();
  const start = later<EarlyStart | undefined>();
  const video = later<ArrayBuffer | undefined>();
  const audio = later<ArrayBuffer | undefined>();
  try {
    const out = appendEarly(env.video as unknown as HTMLVideoElement, start.promise);
    await flush();
    assert.is(env.video.src, 'blob:early', 'attached while the playlists are on the link');
    assert.equal(env.appends, []);
    start.resolve({ ...START, video: { ...START.video, first: video.promise }, audio: { ...START.audio, first: audio.promise } });
    await flush();
    assert.equal(env.appends, ['video/mp4 VI', 'audio/mp4 AI'], 'the inits, the fragments still on their way');
    audio.resolve(bytes('A0'));
    await flush();
    assert.equal(env.appends, ['video/mp4 VI', 'audio/mp4 AI', 'audio/mp4 A0'], 'each fragment as it comes');
    video.resolve(bytes('V0'));
    assert.ok(await out);
    assert.is(env.appends.length, 4);
  } finally {
    env.restore();
  }
});

test('a first fragment goes in as its bytes arrive, the film playable once both inits are in; the rest of a fragment fed in part goes in whole at the end', async () => {
  const env = install();
  const video = later<ArrayBuffer | undefined>();
  const audio = later<ArrayBuffer | undefined>();
  const feeds = { video: { chunks: [] as Uint8Array<ArrayBuffer>[], arrived: undefined as (() => void) | undefined }, audio: { chunks: [] as Uint8Array<ArrayBuffer>[] } };
  const chunk = (s: string) => new TextEncoder().encode(s);
  // As fetchAhead feeds it: a chunk pushed, the reader told.
  const feed = (s: string) => (feeds.video.chunks.push(chunk(s)), feeds.video.arrived?.());
  let playable = 0;
  try {
    feed('V0a');
    const out = appendEarly(
      env.video as unknown as HTMLVideoElement,
      coming({ ...START, video: { ...START.video, first: video.promise, coming: feeds.video }, audio: { ...START.audio, first: audio.promise, coming: feeds.audio } }),
      () => playable++,
    );
    await flush();
    assert.is(playable, 1, 'playable once both inits are in');
    assert.equal(env.appends, ['video/mp4 VI', 'audio/mp4 AI', 'video/mp4 V0a'], 'what had come before the init was in');
    feed('V0b');
    feed('V0c');
    await flush();
    assert.equal(env.appends.slice(3), ['video/mp4 V0b', 'video/mp4 V0c'], 'each chunk, in order');
    assert.ok(env.appends.every((a) => !a.startsWith('audio/mp4 A0')), 'nothing of a fragment not yet come');
    // The audio's fetch made before the feed (a returning viewer's guess): its fragment whole.
    audio.resolve(bytes('A0'));
    // The video's last bytes never told to the feed (it was emptied when the answer ended).
    feeds.video.chunks = [];
    video.resolve(bytes('V0aV0bV0cV0d'));
    assert.ok(await out, 'handed over');
    assert.equal(env.appends.slice(3).sort(), ['audio/mp4 A0', 'video/mp4 V0b', 'video/mp4 V0c', 'video/mp4 V0d'], 'the rest of each, whole');
    assert.is(playable, 1);
  } finally {
    env.restore();
  }
});

test('a first fragment that stops half-way: what went in is let go with the element emptied, undefined', async () => {
  const env = install();
  const video = later<ArrayBuffer | undefined>();
  const feeds = { chunks: [new TextEncoder().encode('V0a')] };
  try {
    const out = quiet(() =>
      appendEarly(env.video as unknown as HTMLVideoElement, coming({ ...START, video: { ...START.video, first: video.promise, coming: feeds } }), () => {}),
    );
    await flush();
    assert.ok(env.appends.includes('video/mp4 V0a'));
    video.resolve(undefined);
    assert.is((await out).result, undefined);
    assert.is(env.video.src, '');
    assert.is(env.video.loads, 1);
  } finally {
    env.restore();
  }
});

test('a slow link is waited for: a start 10 s on its way is appended (the 3 s bound is for the element\'s own work)', async () => {
  const env = install();
  const clock = fakeClock().install();
  const start = later<EarlyStart | undefined>();
  try {
    let out: unknown = 'pending';
    void appendEarly(env.video as unknown as HTMLVideoElement, start.promise).then((r) => (out = r));
    for (let i = 0; i < 10; i++) {
      clock.advance(1000);
      await flush();
    }
    assert.is(out, 'pending');
    assert.is(env.video.src, 'blob:early');
    start.resolve(START);
    for (let i = 0; i < 5 && out === 'pending'; i++) {
      clock.advance(0);
      await flush();
    }
    assert.ok(out, 'appended and handed over');
    assert.is(env.video.loads, 0);
  } finally {
    clock.restore();
    env.restore();
  }
});

test('another source set while the start was on its way: left as it is, this start dropped', async () => {
  const env = install();
  const start = later<EarlyStart | undefined>();
  try {
    const out = quiet(() => appendEarly(env.video as unknown as HTMLVideoElement, start.promise));
    await flush();
    env.video.src = 'blob:hls';
    start.resolve(START);
    assert.is((await out).result, undefined);
    assert.is(env.video.src, 'blob:hls', 'not emptied');
    assert.is(env.video.loads, 0);
    assert.equal(env.appends, []);
    assert.equal(env.revoked, ['blob:early']);
  } finally {
    env.restore();
  }
});

test('a MediaSource that never opens is given up after 3 s, no timer left', async () => {
  const env = install({ closed: true });
  const clock = fakeClock().install();
  try {
    let out: unknown = 'pending';
    const q = quiet(() => appendEarly(env.video as unknown as HTMLVideoElement, coming()).then((r) => (out = r)));
    await flush();
    clock.advance(2999);
    await flush();
    assert.is(out, 'pending');
    clock.advance(1);
    await q;
    assert.is(out, undefined);
    assert.is(env.video.src, '');
    assert.is(clock.pending(), 0);
  } finally {
    clock.restore();
    env.restore();
  }
});

test.run();
