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
  video: { codec: 'avc1.64001e', init: bytes('VI'), first: bytes('V0') },
  audio: { codec: 'mp4a.40.2', init: bytes('AI'), first: bytes('A0') },
};

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
      const all = appends.length === 4;
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
    const early = await appendEarly(env.video as unknown as HTMLVideoElement, START);
    assert.ok(early);
    assert.is(early.variant, START.variant, 'the level its frames are of');
    assert.is(env.video.src, 'blob:early');
    assert.is(early.mediaSource, env.source() as unknown as MediaSource);
    assert.is(env.source()!.duration, 5400, 'the film\'s length, not the first fragment\'s');
    assert.equal(env.appends.filter((a) => a.startsWith('video')), ['video/mp4 VI', 'video/mp4 V0']);
    assert.equal(env.appends.filter((a) => a.startsWith('audio')), ['audio/mp4 AI', 'audio/mp4 A0']);
    assert.is(early.tracks.video.id, 'main');
    assert.is(early.tracks.video.codec, 'avc1.64001e');
    assert.is(early.tracks.audio.id, 'audio');
    assert.is(early.tracks.audio.container, 'audio/mp4');
    assert.is(early.tracks.video.buffer, env.source()!.buffers[0] as unknown as SourceBuffer);
  } finally {
    env.restore();
  }
});

test('a codec the MediaSource does not take: nothing touched, undefined', async () => {
  const env = install({ supported: (t) => !t.includes('mp4a') });
  try {
    assert.is(await appendEarly(env.video as unknown as HTMLVideoElement, START), undefined);
    assert.is(env.video.src, '');
    assert.is(env.source(), undefined);
  } finally {
    env.restore();
  }
});

test('a ManagedMediaSource engine (WebKit) is left to hls.js', async () => {
  const env = install();
  (globalThis as Record<string, unknown>).ManagedMediaSource = class {};
  try {
    assert.is(await appendEarly(env.video as unknown as HTMLVideoElement, START), undefined);
    assert.is(env.source(), undefined);
  } finally {
    delete (globalThis as Record<string, unknown>).ManagedMediaSource;
    env.restore();
  }
});

for (const [name, setup] of [
  ['an append refused', { failing: 'audio/mp4' }],
  ['a start away from 0', { startsAt: 1.2 }],
] as const) {
  test(`${name}: the element emptied again (src removed, reloaded, the address revoked), undefined`, async () => {
    const env = install(setup);
    try {
      const { result } = await quiet(() => appendEarly(env.video as unknown as HTMLVideoElement, START));
      assert.is(result, undefined);
      assert.is(env.video.src, '');
      assert.is(env.video.loads, 1);
      assert.equal(env.revoked, ['blob:early']);
    } finally {
      env.restore();
    }
  });
}

test('a MediaSource that never opens is given up after 3 s, no timer left', async () => {
  const env = install({ closed: true });
  const clock = fakeClock().install();
  try {
    let out: unknown = 'pending';
    const q = quiet(() => appendEarly(env.video as unknown as HTMLVideoElement, START).then((r) => (out = r)));
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
