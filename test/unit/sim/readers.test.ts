// The simulator's readers: corpus and mahimahi traces, Sabre's JSON and HLS ladders, and bad input.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { declaredRates, parseMasterPlaylist, parseMediaPlaylist, parseSabreManifest, readHlsLadder, readManifest, toSabreJson, type Fetcher } from '../../../sim/manifest';
import { fromOffset, parseCorpusTrace, parseMahimahi, readTracePaths } from '../../../sim/traces';

test('corpus trace: periods in order', () => {
  const t = parseCorpusTrace('[{"duration_ms": 1000, "bandwidth_kbps": 1500, "latency_ms": 100}, {"duration_ms": 500, "bandwidth_kbps": 0, "latency_ms": 20}]', 'a.json');
  assert.equal(t, { name: 'a.json', periods: [{ durationMs: 1000, kbps: 1500, latencyMs: 100 }, { durationMs: 500, kbps: 0, latencyMs: 20 }] });
});

test('corpus trace: bad input says what is wrong and where', () => {
  const bad: [string, RegExp][] = [
    ['', /a\.json: not JSON/],
    ['{"duration_ms": 1}', /expected an array/],
    ['[]', /no periods/],
    ['[{"duration_ms": 1000, "bandwidth_kbps": "fast", "latency_ms": 1}]', /period 0 needs numbers/],
    ['[{"duration_ms": 1000, "bandwidth_kbps": 10, "latency_ms": 1}, {"duration_ms": -5, "bandwidth_kbps": 10, "latency_ms": 1}]', /period 1 has duration_ms -5/],
    ['[{"duration_ms": 1000, "bandwidth_kbps": -10, "latency_ms": 1}]', /bandwidth_kbps -10/],
    ['[{"duration_ms": 1000, "bandwidth_kbps": 10, "latency_ms": -1}]', /latency_ms -1/],
    ['[{"duration_ms": 1000, "bandwidth_kbps": 0, "latency_ms": 1}]', /carries nothing/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseCorpusTrace(text, 'a.json'), message, text);
});

test('mahimahi: 1500-byte packets counted per period; the trace lasts until its last time', () => {
  // 0, 0, 50 in the first 100 ms (3 packets: 36 kbit in 100 ms), 150 and 200 in the second.
  const t = parseMahimahi('0\n0\n50\n150\n200\n', 'x.down', { periodMs: 100, latencyMs: 30 });
  assert.equal(t.periods, [
    { durationMs: 100, kbps: 360, latencyMs: 30 },
    { durationMs: 100, kbps: 240, latencyMs: 30 },
  ]);
  // The README's constant link: one packet a millisecond is 12 Mb/s; the default latency is 40 ms.
  assert.equal(parseMahimahi('1\n', 'one').periods, [{ durationMs: 1, kbps: 12000, latencyMs: 40 }]);
  // A last period shorter than the others keeps its own length.
  assert.equal(parseMahimahi('10\n250\n', 'p', { periodMs: 100 }).periods.map((p) => p.durationMs), [100, 100, 50]);
});

test('mahimahi: bad input says what is wrong and where', () => {
  const bad: [string, RegExp][] = [
    ['', /no packet times/],
    ['\n\n', /no packet times/],
    ['1\nfast\n', /line 2 is not a time/],
    ['1.5\n', /line 1 is not a time/],
    ['-3\n', /line 1 has a negative time/],
    ['5\n3\n', /line 2 goes back in time/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseMahimahi(text, 'x.down'), message, text);
  assert.throws(() => parseMahimahi('1\n', 'x', { periodMs: 0 }), /period must be > 0/);
  assert.throws(() => parseMahimahi('1\n', 'x', { latencyMs: -1 }), /latency must be >= 0/);
});

test('trace paths: a folder is a class of its trace files by name; a file joins its folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-traces-'));
  try {
    mkdirSync(join(dir, 'cell'));
    writeFileSync(join(dir, 'cell', 'b.json'), '[{"duration_ms": 1000, "bandwidth_kbps": 100, "latency_ms": 10}]');
    writeFileSync(join(dir, 'cell', 'a.down'), '1\n');
    writeFileSync(join(dir, 'cell', 'a.up'), '1\n');
    writeFileSync(join(dir, 'cell', 'README.md'), '# not a trace');
    writeFileSync(join(dir, 'one.trace'), '2\n2\n');
    const classes = readTracePaths([join(dir, 'cell'), join(dir, 'one.trace')], { latencyMs: 5 });
    assert.equal(classes.map((c) => [c.name, c.traces.map((t) => t.name)]), [['cell', ['a.down', 'b.json']], [dir.split('/').pop(), ['one.trace']]]);
    assert.equal(classes[0]!.traces[0]!.periods[0]!.latencyMs, 5);
    assert.throws(() => readTracePaths([join(dir, 'nothing')]), /no such file or folder/);
    mkdirSync(join(dir, 'empty'));
    assert.throws(() => readTracePaths([join(dir, 'empty')]), /no trace files/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

const SABRE = '{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": [[1200000, 2800000], [1100000, 2900000]]}';

test("Sabre's manifest: sizes turned level first; written back the same", () => {
  const m = parseSabreManifest(SABRE, 'm.json');
  assert.equal(m, { segmentS: 4, bitratesKbps: [300, 700], segmentBits: [[1200000, 1100000], [2800000, 2900000]] });
  assert.equal(parseSabreManifest(toSabreJson(m), 'again'), m);
  // The audio's sizes (this project's addition to the form: a segment's audio loads beside its video).
  const withAudio = parseSabreManifest(SABRE.replace(/}$/, ', "audio_sizes_bits": [400000, 0]}'), 'a.json');
  assert.equal(withAudio.audioBits, [400000, 0]);
  assert.equal(parseSabreManifest(toSabreJson(withAudio), 'again'), withAudio);
});

test("Sabre's manifest: what the master declares, each list optional, the other from the sizes", () => {
  // Level 0's segments: 1.2 and 1.1 Mbit in 4 s, so 300 and 275 kb/s: its peak is 300; level 1's 725.
  const both = parseSabreManifest(SABRE.replace(/}$/, ', "average_bandwidth_kbps": [428, 828], "bandwidth_kbps": [600, 1500]}'), 'd.json');
  assert.equal(both.declared, { averageKbps: [428, 828], peakKbps: [600, 1500] });
  assert.equal(parseSabreManifest(toSabreJson(both), 'again'), both);
  assert.equal(parseSabreManifest(SABRE.replace(/}$/, ', "bandwidth_kbps": [600, 1500]}'), 'p.json').declared, { averageKbps: [300, 700], peakKbps: [600, 1500] });
  assert.equal(parseSabreManifest(SABRE.replace(/}$/, ', "average_bandwidth_kbps": [428, 828]}'), 'a.json').declared, { averageKbps: [428, 828], peakKbps: [300, 725] });
  // Without either: the mean, and the largest segment's rate (never below the mean given).
  assert.equal(declaredRates(parseSabreManifest(SABRE, 'm.json')), { averageKbps: [300, 700], peakKbps: [300, 725] });
  for (const bad of ['[428]', '[428, 0]', '[428, "x"]', '"428"', '[428, null]']) {
    assert.throws(() => parseSabreManifest(SABRE.replace(/}$/, `, "bandwidth_kbps": ${bad}}`), 'b.json'), /bandwidth_kbps must list one number > 0 per bitrate \(2\)/, bad);
    assert.throws(() => parseSabreManifest(SABRE.replace(/}$/, `, "average_bandwidth_kbps": ${bad}}`), 'b.json'), /average_bandwidth_kbps must list/, bad);
  }
});

test("Sabre's manifest: bad input says what is wrong", () => {
  const bad: [string, RegExp][] = [
    ['', /not JSON/],
    ['{}', /segment_duration_ms must be a number > 0/],
    ['{"segment_duration_ms": -4000, "bitrates_kbps": [1], "segment_sizes_bits": [[1]]}', /segment_duration_ms/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [], "segment_sizes_bits": [[1]]}', /bitrates_kbps must be a non-empty array/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [700, 300], "segment_sizes_bits": [[1, 2]]}', /must ascend/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": []}', /segment_sizes_bits must be a non-empty array/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": [[1]]}', /segment_sizes_bits\[0\] must list one size per bitrate/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": [[1, -2]]}', /segment_sizes_bits\[0\]\[1\] must be a number > 0/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": [[10, 20]], "audio_sizes_bits": [1, 2]}', /audio_sizes_bits must list one size per segment \(1\)/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": [[10, 20]], "audio_sizes_bits": [10]}', /audio_sizes_bits\[0\] must be a number >= 0 below every level/],
    ['{"segment_duration_ms": 4000, "bitrates_kbps": [300, 700], "segment_sizes_bits": [[10, 20]], "audio_sizes_bits": [-1]}', /audio_sizes_bits\[0\]/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseSabreManifest(text, 'm.json'), message, text);
});

const MASTER = `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="ru",NAME="Русский, стерео",DEFAULT=YES,URI="audio/rus/index.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",LANGUAGE="en",NAME="English",DEFAULT=NO,URI="audio/eng/index.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Русские",URI="subs/rus/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=1500000,AVERAGE-BANDWIDTH=1200000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aud"
video/hi/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO="aud"
video/lo/index.m3u8
`;
const media = (files: string[]) => `#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI="init.mp4"\n${files.map((f) => `#EXTINF:4.000000,\n${f}`).join('\n')}\n#EXT-X-ENDLIST\n`;

test('HLS: the master playlist names each variant and its audio group default rendition', () => {
  const base = new URL('http://h/media/master.m3u8');
  assert.equal(parseMasterPlaylist(MASTER, base).map((v) => [v.url.href, v.audio?.href, v.peakKbps, v.averageKbps]), [
    ['http://h/media/video/hi/index.m3u8', 'http://h/media/audio/rus/index.m3u8', 1500, 1200],
    ['http://h/media/video/lo/index.m3u8', 'http://h/media/audio/rus/index.m3u8', 500, undefined],
  ]);
  const junk = parseMasterPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=x,AVERAGE-BANDWIDTH=-5\nv.m3u8\n', base)[0]!;
  assert.equal([junk.peakKbps, junk.averageKbps], [undefined, undefined], 'a rate that is not a number > 0 is not declared');
  const segments = parseMediaPlaylist('#EXTM3U\n#EXTINF:4,\n#EXT-X-BYTERANGE:1000@0\nall.mp4\n#EXTINF:3.5,\nb.m4s\n', base);
  assert.equal(segments.map((s) => [s.durationS, s.url.href, s.bytes]), [[4, 'http://h/media/all.mp4', 1000], [3.5, 'http://h/media/b.m4s', undefined]]);
  assert.throws(() => parseMasterPlaylist('', base), /not a playlist/);
  assert.throws(() => parseMasterPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="x"\nv.m3u8\n', base), /no audio rendition in group x/);
  assert.throws(() => parseMediaPlaylist('#EXTM3U\nseg.m4s\n', base), /has no #EXTINF/);
  assert.throws(() => parseMediaPlaylist('#EXTM3U\n#EXTINF:-1,\nseg.m4s\n', base), /bad #EXTINF/);
  assert.throws(() => parseMediaPlaylist('#EXTM3U\n#EXT-X-ENDLIST\n', base), /no segments/);
});

test('HLS: a level is its video plus the default audio, segment by segment, sorted by mean bitrate', async () => {
  const texts: Record<string, string> = {
    'http://h/m/master.m3u8': MASTER,
    'http://h/m/video/hi/index.m3u8': media(['a.m4s', 'b.m4s']),
    'http://h/m/video/lo/index.m3u8': media(['a.m4s', 'b.m4s']),
    'http://h/m/audio/rus/index.m3u8': media(['a.m4s', 'b.m4s']),
  };
  const sizes: Record<string, number> = {
    'http://h/m/video/hi/a.m4s': 600_000,
    'http://h/m/video/hi/b.m4s': 400_000,
    'http://h/m/video/lo/a.m4s': 200_000,
    'http://h/m/video/lo/b.m4s': 100_000,
    'http://h/m/audio/rus/a.m4s': 60_000,
    'http://h/m/audio/rus/b.m4s': 50_000,
  };
  const asked: string[] = [];
  const fetcher: Fetcher = {
    text: async (url) => texts[url.href] ?? Promise.reject(new Error(`${url.href}: HTTP 404`)),
    size: async (url) => (asked.push(url.href), sizes[url.href]!),
  };
  const m = await readHlsLadder('http://h/m/master.m3u8', fetcher);
  assert.equal(m.segmentS, 4);
  assert.equal(m.segmentBits, [[260_000 * 8, 150_000 * 8], [660_000 * 8, 450_000 * 8]]);
  assert.equal(m.bitratesKbps, [(410_000 * 8) / 8 / 1000, (1_110_000 * 8) / 8 / 1000]);
  assert.equal(m.audioBits, [60_000 * 8, 50_000 * 8], "the one audio rendition's sizes, for the policies' samples");
  // What the master declares, in the levels' order; lo has no AVERAGE-BANDWIDTH: hls.js falls back to BANDWIDTH.
  assert.equal(m.declared, { averageKbps: [500, 1200], peakKbps: [500, 1500] });
  // The shared audio rendition is measured once.
  assert.equal(asked.filter((u) => u.includes('/audio/')).length, 2);
  await readHlsLadder('http://h/m/missing.m3u8', fetcher).then(
    () => assert.unreachable('a missing playlist reads'),
    (err: Error) => assert.match(err.message, /missing\.m3u8: HTTP 404/),
  );
});

test('HLS on disk: file sizes; readManifest tells a playlist from Sabre JSON', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-ladder-'));
  try {
    mkdirSync(join(dir, 'v'));
    writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv/index.m3u8\n');
    writeFileSync(join(dir, 'v', 'index.m3u8'), media(['s0.m4s', 's1.m4s']));
    writeFileSync(join(dir, 'v', 's0.m4s'), Buffer.alloc(1000));
    writeFileSync(join(dir, 'v', 's1.m4s'), Buffer.alloc(3000));
    const m = await readManifest(join(dir, 'master.m3u8'));
    assert.equal(m, { segmentS: 4, bitratesKbps: [4], segmentBits: [[8000, 24000]], declared: { averageKbps: [0.001], peakKbps: [0.001] } });
    writeFileSync(join(dir, 'sabre.json'), SABRE);
    assert.equal((await readManifest(join(dir, 'sabre.json'))).bitratesKbps, [300, 700]);
    await readManifest(join(dir, 'none.json')).then(
      () => assert.unreachable('a missing file reads'),
      (err: Error) => assert.match(err.message, /manifest .*none\.json/),
    );
  } finally {
    rmSync(dir, { recursive: true });
  }
});


test('a trace from an offset: the period it falls in is split, the rest follows, and it wraps', () => {
  const t = { name: 'x', periods: [1000, 2000, 3000].map((d, i) => ({ durationMs: d, kbps: i + 1, latencyMs: 10 })) };
  const at = (trace: typeof t) => trace.periods.map((p) => [p.durationMs, p.kbps]);
  assert.equal(at(fromOffset(t, 0)), [[1000, 1], [2000, 2], [3000, 3]]);
  assert.equal(fromOffset(t, 0).name, 'x@0s');
  assert.equal(at(fromOffset(t, 1.5)), [[1500, 2], [3000, 3], [1000, 1], [500, 2]]);
  assert.equal(at(fromOffset(t, 3)), [[3000, 3], [1000, 1], [2000, 2]]);
  assert.equal(at(fromOffset(t, 7.5)), [[1500, 2], [3000, 3], [1000, 1], [500, 2]], '7.5 s of a 6 s trace: 1.5 s in');
});

test.run();
