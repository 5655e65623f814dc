// The arithmetic of `npm run bench:playback`: stalls, seeks, played time, bitrate, switches and QoE from
// a probe's log, and the bytes of played segments; the ladder's rungs and segment times from playlists.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { accountRun, addPlayback, meanBitrate, meanHeight, playedBytes, qoeScore, rebufferRatio, type LogEntry, type LogType } from '../../../bench/qoe';
import { parseMaster, parseMedia } from '../../../bench/playback-ladder';

const RUNGS = [
  { height: 240, bitsPerSecond: 300_000 },
  { height: 720, bitsPerSecond: 2_500_000 },
  { height: 1080, bitsPerSecond: 4_500_000 },
];

const at = (t: number, type: LogType, ct: number, h = 720, paused = false): LogEntry => ({ t, type, ct, paused, h });

/** Samples every 250 ms from `from` to `to` (ms), currentTime from `ct` moving at `rate` (1 = playing, 0 = frozen). */
function samples(from: number, to: number, ct: number, rate: number, h = 720): LogEntry[] {
  const out: LogEntry[] = [];
  for (let t = from; t <= to; t += 250) out.push(at(t, 'sample', ct + ((t - from) / 1000) * rate, h));
  return out;
}

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} is not ${expected}`);

test('smooth play: first frame at the first playing, every second played at its rung, no stall, QoE = Σ Mb/s', () => {
  const run = accountRun([at(0, 'sample', 0, 0, true), at(800, 'playing', 0), ...samples(1000, 11_000, 0.2, 1)], RUNGS);
  assert.is(run.firstFrameMs, 800);
  assert.is(run.stalls, 0);
  close(run.stallS, 0, 'stall');
  close(run.playedS, 10.2, 'played');
  close(meanBitrate(run), 2_500_000, 'bitrate');
  close(meanHeight(run), 720, 'height');
  close(rebufferRatio(run), 0, 'ratio');
  close(qoeScore(run), 10.2 * 2.5, 'QoE');
  assert.is(run.switches, 0);
});

test('no play at all: no first frame, nothing played, ratios are NaN rather than a flattering 0', () => {
  const run = accountRun([at(0, 'sample', 0, 0, true), at(500, 'waiting', 0, 0), ...samples(750, 90_000, 0, 0, 0)], RUNGS);
  assert.is(run.firstFrameMs, undefined);
  assert.is(run.stalls, 0);
  assert.is(run.playedS, 0);
  assert.ok(Number.isNaN(rebufferRatio(run)));
  assert.ok(Number.isNaN(meanBitrate(run)));
  assert.is(qoeScore(run), 0);
  assert.equal(accountRun([], RUNGS).firstFrameMs, undefined);
});

test('all stall after the first frame: one stall the length of the run, rebuffer ratio 1, QoE −4.3 a second', () => {
  const run = accountRun([at(1000, 'playing', 0), at(1001, 'waiting', 0), ...samples(1250, 21_250, 0, 0)], RUNGS);
  assert.is(run.stalls, 1);
  close(run.stallS, 20.25, 'stall');
  close(rebufferRatio(run), 1, 'ratio');
  close(qoeScore(run), -4.3 * 20.25, 'QoE');
  assert.equal(run.stallList, [{ atMs: 1000, s: run.stallS }]);
});

test("a 'waiting' stall and a silent freeze (currentTime standing still, no event) both count; each once however long", () => {
  const log = [
    at(0, 'playing', 0),
    ...samples(250, 4000, 0.25, 1),
    at(4100, 'waiting', 4.1),
    ...samples(4250, 6000, 4.1, 0),
    at(6100, 'playing', 4.1),
    ...samples(6250, 9000, 4.25, 1),
    // Frozen with no 'waiting': 2 s.
    ...samples(9250, 11_000, 7, 0),
    ...samples(11_250, 12_000, 7.25, 1),
  ];
  const run = accountRun(log, RUNGS);
  assert.is(run.stalls, 2);
  assert.is(run.stallList.length, 2);
  close(run.stallList[0]!.atMs, 4100, 'first stall start');
  assert.ok(Math.abs(run.stallS - 4.3) < 0.3, `stall ${run.stallS}`);
  assert.ok(Math.abs(run.playedS - 7.7) < 0.3, `played ${run.playedS}`);
  close(rebufferRatio(run), run.stallS / (run.stallS + run.playedS), 'ratio');
});

test('a freeze under half a second is a hiccup, not a stall (audio clock starting after playing, a CPU-starved decoder)', () => {
  const log = [
    at(0, 'playing', 0),
    at(200, 'sample', 0),
    ...samples(250, 5000, 0.05, 1),
    // 0.45 s frozen behind a 'waiting': a hiccup; then exactly 0.5 s frozen: a stall.
    at(5010, 'waiting', 4.81),
    at(5460, 'playing', 4.81),
    ...samples(5500, 8000, 4.85, 1),
    at(8500, 'sample', 7.35),
    ...samples(8750, 10_000, 7.6, 1),
  ];
  const run = accountRun(log, RUNGS);
  assert.is(run.hiccups, 2);
  assert.is(run.stalls, 1);
  close(run.stallS, 0.5, 'stall');
  assert.equal(run.stallList, [{ atMs: 8000, s: 0.5 }]);
});

test('pause is neither stall nor play', () => {
  const log = [at(0, 'playing', 0), ...samples(250, 2000, 0.25, 1), at(2100, 'pause', 2.1, 720, true), at(5000, 'sample', 2.1, 720, true), at(8000, 'play', 2.1), at(8010, 'playing', 2.1), ...samples(8250, 9000, 2.35, 1)];
  const run = accountRun(log, RUNGS);
  assert.is(run.stalls, 0);
  assert.ok(run.playedS < 3.1 && run.playedS > 2.5, `played ${run.playedS}`);
});

test('switches back and forth: each counted with |Δ Mb/s|, bitrate and height weighted by time played at each', () => {
  const log = [at(0, 'playing', 0, 240), ...samples(250, 4000, 0.25, 1, 240), ...samples(4250, 8000, 4.25, 1, 1080), ...samples(8250, 12_000, 8.25, 1, 240), ...samples(12_250, 16_000, 12.25, 1, 1080)];
  const run = accountRun(log, RUNGS);
  assert.is(run.switches, 3);
  close(run.switchMbps, 3 * 4.2, 'switch Mb/s');
  // Each interval at the height shown at its start: 0–4.25 and 8.25–12.25 s at 240p, the rest at 1080p.
  close(run.ratedS, 16, 'rated');
  close(meanBitrate(run), (8.25 * 300_000 + 7.75 * 4_500_000) / 16, 'bitrate');
  close(meanHeight(run), (8.25 * 240 + 7.75 * 1080) / 16, 'height');
  close(qoeScore(run), 8.25 * 0.3 + 7.75 * 4.5 - 3 * 4.2, 'QoE');
});

test('a height between rungs is priced at the nearest; an unknown height (0) is played but unpriced', () => {
  const run = accountRun([at(0, 'playing', 0, 0), ...samples(250, 2000, 0.25, 1, 0), ...samples(2250, 4000, 2.25, 1, 700)], RUNGS);
  close(run.playedS, 4, 'played');
  // 0–2.25 s shown at height 0 (the interval from the last such sample too), 2.25–4 s at 700 → 720p.
  close(run.ratedS, 1.75, 'rated');
  close(meanBitrate(run), 2_500_000, 'bitrate');
});

test('seeks: counted apart (time to a frame and to play), not as stalls, nor is the jump played time', () => {
  const log = [
    at(0, 'playing', 0),
    ...samples(250, 10_000, 0.25, 1),
    at(10_010, 'seek', 3600),
    at(10_020, 'seeking', 3600),
    ...samples(10_250, 11_500, 3600, 0),
    at(11_600, 'seeked', 3600),
    at(11_700, 'frame', 3600),
    ...samples(11_750, 12_000, 3600, 0),
    at(12_100, 'playing', 3600),
    ...samples(12_250, 15_000, 3600.15, 1),
    // A seek that never lands before the run ends.
    at(15_010, 'seek', 100),
    ...samples(15_250, 20_000, 100, 0),
  ];
  const run = accountRun(log, RUNGS);
  assert.is(run.stalls, 0);
  assert.is(run.stallS, 0);
  assert.ok(run.playedS < 13.2 && run.playedS > 12.3, `played ${run.playedS}`);
  assert.equal(
    run.seeks.map((s) => [s.atMs, s.to, s.msToFrame, s.msToPlay]),
    [
      [10_010, 3600, 1690, 2090],
      [15_010, 100, undefined, undefined],
    ],
  );
  assert.ok(run.seekS > 6.8, `seek time ${run.seekS}`);
});

test("a stall that ends in the page's own seek (hls.js nudging over a hole) stays a stall", () => {
  const log = [at(0, 'playing', 0), ...samples(250, 2000, 0.25, 1), at(2100, 'waiting', 2.1), ...samples(2250, 5000, 2.1, 0), at(5010, 'seeking', 2.2), at(5020, 'seeked', 2.2), at(5030, 'playing', 2.2), ...samples(5250, 6000, 2.4, 1)];
  const run = accountRun(log, RUNGS);
  assert.is(run.stalls, 1);
  assert.is(run.seeks.length, 0);
  assert.ok(run.stallS > 2.8, `stall ${run.stallS}`);
});

test('the error screen is reported when it came, before or after the first frame', () => {
  assert.is(accountRun([at(0, 'sample', 0, 0, true), at(17_000, 'error', 0, 0, true)], RUNGS).errorMs, 17_000);
});

test('runs add up: the pooled ratio and QoE are those of the summed seconds', () => {
  const a = accountRun([at(0, 'playing', 0), ...samples(250, 10_000, 0.25, 1)], RUNGS);
  const b = accountRun([at(0, 'playing', 0), at(10, 'waiting', 0), ...samples(250, 10_000, 0, 0)], RUNGS);
  const sum = addPlayback(a, b);
  close(qoeScore(sum), qoeScore(a) + qoeScore(b), 'QoE');
  close(rebufferRatio(sum), b.stallS / (a.playedS + b.stallS), 'ratio');
});

test('played bytes: per stretch of film the last fetch that finished, when its time was played', () => {
  const fetches = [
    { slot: 'video@0.00', start: 0, end: 4, bytes: 100, doneMs: 1 },
    { slot: 'video@4.00', start: 4, end: 8, bytes: 150, doneMs: 2 },
    // Fetched again at another rung and kept: this one counts, not the first.
    { slot: 'video@4.00', start: 4, end: 8, bytes: 900, doneMs: 3 },
    { slot: 'audio@0.00', start: 0, end: 4, bytes: 30, doneMs: 1 },
    // Buffered ahead and never played.
    { slot: 'video@8.00', start: 8, end: 12, bytes: 1000, doneMs: 4 },
    // Behind a seek, never reached.
    { slot: 'video@100.00', start: 100, end: 104, bytes: 5000, doneMs: 5 },
  ];
  assert.is(playedBytes(fetches, [[0, 7.5]]), 100 + 900 + 30);
  // Touching a segment's edge is not playing it.
  assert.is(playedBytes(fetches, [[0, 4]]), 130);
  assert.is(playedBytes(fetches, []), 0);
  assert.is(playedBytes([], [[0, 100]]), 0);
});

test('the master: rungs by RESOLUTION and AVERAGE-BANDWIDTH (else BANDWIDTH), quoted commas and all', () => {
  const master = [
    '#EXTM3U',
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Русский",URI="audio/rus/index.m3u8"',
    '#EXT-X-STREAM-INF:BANDWIDTH=600000,AVERAGE-BANDWIDTH=310000,RESOLUTION=426x240,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud"',
    'video/240p/index.m3u8',
    '#EXT-X-STREAM-INF:CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1920x1080,BANDWIDTH=9000000',
    '',
    'video/1080p/index.m3u8',
    '#EXT-X-STREAM-INF:BANDWIDTH=100000',
    'audio-only.m3u8',
  ].join('\n');
  assert.equal(parseMaster(master), [
    { uri: 'video/240p/index.m3u8', height: 240, bitsPerSecond: 310_000 },
    { uri: 'video/1080p/index.m3u8', height: 1080, bitsPerSecond: 9_000_000 },
  ]);
});

test('a media playlist: each segment with its film time', () => {
  const media = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.000,\nseg_000.m4s\n#EXTINF:3.979,\nseg_001.m4s\n#EXTINF:2,\n../x/seg_000.m4s\n#EXT-X-ENDLIST\n';
  const segments = parseMedia(media);
  assert.equal(segments.map((s) => s.uri), ['seg_000.m4s', 'seg_001.m4s', '../x/seg_000.m4s']);
  close(segments[2]!.start, 7.979, 'third start');
  close(segments[2]!.end, 9.979, 'third end');
});

test.run();
