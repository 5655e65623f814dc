// The small ladder (title 32: 160×90 / 320×180 / 640×360, 96 s) played through the emulated cellular link
// (bench/link.ts) on a fixed trace that is fast for 10 s, slow for 12 s, then fast again: the player steps
// down when the link falls and back up when it returns (the renditions it asks for), the picture steps
// down, and the viewer sees no stall on the way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Link, createLink } from '../../bench/link';
import { constantTrace, phasedTrace } from '../../bench/link-trace';
// @ts-expect-error: plain JS with JSDoc types
import { ensureLadder } from '../../scripts/ladder.mjs';
import { open, poll, srv, waitForTime } from './harness';

const FAST = 3_000_000;
const SLOW = 150_000;

let link: Link | undefined;
test.after.each(async () => {
  await link?.close();
  link = undefined;
});

test('through a link that falls from 3 Mb/s to 150 kb/s and back: a switch down, a switch back up, no stall', async () => {
  await ensureLadder({ small: true });
  const trace = phasedTrace(
    [
      [10000, FAST],
      [12000, SLOW],
      [90000, FAST],
    ],
    'fast-slow-fast',
  );
  link = createLink({ down: trace, up: phasedTrace([[1000, FAST]]), delayMs: 40 });
  const relay = await link.relay(Number(new URL(srv().url).port));
  const startedAt = Date.now();
  const p = await open('?movie_id=32&auto_play=1', { origin: `http://127.0.0.1:${relay.port}` });
  try {
    await p.page.waitForSelector('video.pl-video', { state: 'attached' });
    await p.page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('video.pl-video')!;
      const log: Array<[string, number, number]> = [];
      (window as unknown as { __ladder: typeof log }).__ladder = log;
      // (No named function in here: tsx's keepNames would wrap it in a helper the page does not have.)
      for (const type of ['resize', 'waiting', 'playing', 'seeking'])
        v.addEventListener(type, (e) => log.push([e.type, performance.now(), e.type === 'resize' ? v.videoHeight : v.currentTime]));
      if (v.videoHeight) log.push(['resize', performance.now(), v.videoHeight]);
    });
    await poll(
      'the film played to its end',
      () => p.page.evaluate(() => document.querySelector<HTMLVideoElement>('video.pl-video')!.currentTime > 94),
      { timeout: 180000, interval: 1000 },
    );
    const log = await p.page.evaluate(() => (window as unknown as { __ladder: Array<[string, number, number]> }).__ladder);
    // The renditions the player asked for, fragment after fragment, as the reference server saw them
    // (what the picture shows follows them by the length of the buffer, which may outlast the film).
    const rungs = srv()
      .requests.filter((r) => r.time >= startedAt)
      .map((r) => /^\/media\/ladder-small\/video\/(\d+)p\/seg_\d+\.m4s$/.exec(r.path)?.[1])
      .filter((h): h is string => !!h)
      .map(Number)
      .filter((h, i, all) => h !== all[i - 1]);
    const top = rungs.indexOf(Math.max(...rungs));
    const down = rungs.findIndex((h, i) => i > top && h < rungs[top]);
    const up = rungs.findIndex((h, i) => i > down && h > rungs[down]);
    const shown = log.filter(([type]) => type === 'resize').map(([, , h]) => h);
    const seen = `renditions asked for ${rungs.join(' → ')}; shown ${shown.join(' → ')}`;
    assert.ok(top >= 0 && down > top, `a switch down after the link fell: ${seen}`);
    assert.ok(up > down, `a switch back up after it returned: ${seen}`);
    assert.ok(shown.some((h, i) => i > 0 && h < shown[i - 1]), `the picture stepped down: ${seen}`);
    // A stall as bench/qoe.ts counts one: waiting for half a second or more after the first frame (a
    // shorter one, at a switch's boundary, is a hiccup nobody sees as a stall).
    const firstPlaying = log.findIndex(([type]) => type === 'playing');
    const stalls = log.slice(firstPlaying + 1).flatMap(([type, at], i, rest) => {
      if (type !== 'waiting') return [];
      const resumed = rest.slice(i + 1).find(([next]) => next === 'playing');
      return !resumed || resumed[1] - at >= 500 ? [Math.round(at)] : [];
    });
    assert.equal(stalls, [] as number[], `no stall after the first frame (waiting at ${stalls.join(', ')} ms)`);
    assert.is(await p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? ''), '');
    // The audio asked at most one fragment ahead of the video being loaded, as hls.js keeps it: where
    // the link is short, the video the playhead needs first is not shared with audio for later. (The
    // page's own start, taken over by hls.js, once made hls.js treat the stream as audio-only, and its
    // audio stayed two fragments ahead.) hls.js asks for audio fragment n as it starts loading video
    // fragment n - 1, in the same task: read where the page sent them (Resource Timing), not where
    // they reached the server.
    const asked = await p.page.evaluate(() =>
      performance.getEntriesByType('resource').flatMap((e) => {
        const [, kind, n] = /\/ladder-small\/(video|audio)\/[^/]+\/seg_(\d+)\.m4s$/.exec(new URL(e.name).pathname) ?? [];
        return kind ? [{ kind, n: Number(n), start: e.startTime }] : [];
      }),
    );
    const videoBy = (ms: number) => Math.max(-1, ...asked.filter((v) => v.kind === 'video' && v.start <= ms).map((v) => v.n));
    const early = asked.filter((a) => a.kind === 'audio' && a.n > videoBy(a.start + 50) + 1).map((a) => `audio ${a.n} with video at ${videoBy(a.start)}`);
    assert.ok(asked.filter((a) => a.kind === 'audio').length > 10, `the audio fragments in the page's Resource Timing: ${asked.length} entries`);
    assert.equal(early, [] as string[], `no audio asked two fragments ahead of the video: ${early.slice(0, 5).join(', ')}`);
  } finally {
    await p.close();
  }
});

test('on a slow link the film starts while its first fragments are still arriving, and plays on from them', async () => {
  await ensureLadder({ small: true });
  // 150 kb/s: the lowest rendition's first fragment and the audio's (33 and 49 kB) take about four seconds together,
  // the audio's alone ~2.6 s (at 300 kb/s a CI run's first frame came 54 ms after its last byte). Each
  // connection may queue 16 KiB on the link, a new TCP connection's first flight (10 packets), not the
  // default 64 KiB: the audio's init segment and its fragment are asked together and reach the server in
  // the same millisecond, and which it answers first is its own affair; with 64 KiB the whole 49 kB
  // fragment could queue ahead of the init (a CI run: the init's last byte after the fragment's, the first
  // frame 95 ms after that), and the early start could not show.
  link = createLink({ down: constantTrace(150_000), up: constantTrace(150_000), delayMs: 40, windowBytes: 16 * 1024 });
  const relay = await link.relay(Number(new URL(srv().url).port));
  const startedAt = Date.now();
  const p = await open('?movie_id=32&auto_play=1', { origin: `http://127.0.0.1:${relay.port}` });
  try {
    await waitForTime(p.page, 5, 60000);
    const { playing, entries } = await p.page.evaluate(() => ({
      playing: (window as unknown as { __firstPlaying?: number }).__firstPlaying,
      // When each of the page's own fetches had its last byte (Resource Timing).
      entries: performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname, Math.round((e as PerformanceResourceTiming).responseEnd)] as const),
    }));
    const ends = entries.filter(([u]) => /\/seg_000\.m4s$/.test(u));
    const inits = entries.filter(([u]) => /\/init\.mp4$/.test(u));
    const told = (list: ReadonlyArray<readonly [string, number]>) => list.map(([u, t]) => `${u} ${t} ms`).join(', ');
    // What the server was asked for since the test began: the first fragments and init segments.
    const served = srv().requests.filter((r) => r.time >= startedAt && /\/(seg_000\.m4s|init\.mp4)$/.test(r.path));
    const arrived = served.map((r) => [r.path, r.time - startedAt] as const);
    const seen = `first 'playing' at ${Math.round(playing ?? NaN)} ms; first fragments' last bytes ${told(ends)}; init segments' ${told(inits)}; asked at the server (from the test's start) ${told(arrived)}`;
    assert.ok(ends.some(([u]) => u.includes('/video/')) && ends.some(([u]) => u.includes('/audio/')), `both first fragments fetched by the page: ${seen}`);
    // The link serves the connections' bytes in 16 KiB turns, so both fragments arrive over the same
    // seconds: the film starts from their first bytes, before the last of them is in.
    assert.ok(playing !== undefined && playing < Math.max(...ends.map(([, end]) => end)), `the first frame before the first fragments are all in: ${seen}`);
    // Each fetched once: hls.js took the page's start over, it did not ask for it again.
    const asked = served.map((r) => r.path).filter((path) => path.endsWith('/seg_000.m4s'));
    assert.is(new Set(asked).size, asked.length, `no first fragment asked twice: ${asked.join(', ')}`);
    assert.is(await p.page.evaluate(() => document.querySelector('.pl-error')?.textContent ?? ''), '');
  } finally {
    await p.close();
  }
});

test.run();
