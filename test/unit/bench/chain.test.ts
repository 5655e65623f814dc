// The bench's reading of a waterfall: which requests the first frame waited for one after another,
// and how the time to it splits into round trips, transfers and the gaps between.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chainTime, criticalChain, type Timed } from '../../../bench/chain';

// The player's median fast-3g run of the sixth session, trimmed: the page preloads the bootstrap's
// chunk (it starts beside the bootstrap); hls.js and the other catalogue calls run beside the chain,
// and the next fragment is still loading at the first 'playing'.
const PAGE = '<script type="module" src="boot.js"></script><link rel="modulepreload" href="chunk.js"><script type="module" src="main.js"></script>';
const MASTER = '#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,URI="audio/rus/index.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=1\nvideo/240p/index.m3u8\n';
const PAGE_URL = 'http://h/player/?movie_id=1';
const BOOT = ['http://h/player/chunk.js', 'http://h/player/boot.js'];
const ENTRY = ['http://h/player/main.js', 'http://h/player/chunk.js'];
const RUN: Timed[] = [
  { url: PAGE_URL, start: 3, end: 587, body: PAGE },
  { url: 'http://h/player/boot.js', start: 599, end: 1195, initiators: [PAGE_URL] },
  { url: 'http://h/player/chunk.js', start: 604, end: 1270, initiators: [PAGE_URL] },
  { url: 'http://h/player/main.js', start: 604, end: 1345, initiators: [PAGE_URL] },
  { url: 'http://h/catalog-api/episodes?content-id=1', start: 1278, end: 1853, initiators: BOOT, body: '[{"m3u8MasterFilePath":"/media/hls/master.m3u8"}]' },
  { url: 'http://h/player/hls.js', start: 1280, end: 2761, initiators: BOOT },
  // At 4× CPU the entry's next chunk lands between the episodes' answer and the master's request.
  { url: 'http://h/player/chunk2.js', start: 1282, end: 1856, initiators: ['http://h/player/main.js'] },
  { url: 'http://h/media/hls/master.m3u8', start: 1858, end: 2437, initiators: ENTRY, body: MASTER },
  { url: 'http://h/catalog-api/contents/1', start: 1859, end: 2439, initiators: ENTRY, body: '{"id":1}' },
  { url: 'http://h/media/hls/video/240p/index.m3u8', start: 2440, end: 3012, initiators: ENTRY, body: '#EXT-X-MAP:URI="init.mp4"\nseg_000.m4s\n' },
  { url: 'http://h/media/hls/audio/rus/index.m3u8', start: 2443, end: 3021, initiators: ENTRY, body: '#EXT-X-MAP:URI="init.mp4"\nseg_000.m4s\n' },
  { url: 'http://h/media/hls/video/240p/seg_000.m4s', start: 3014, end: 3680, initiators: ENTRY },
  { url: 'http://h/media/hls/audio/rus/seg_000.m4s', start: 3034, end: 3786, initiators: ENTRY },
  { url: 'http://h/media/hls/audio/rus/seg_001.m4s', start: 3808, initiators: ['http://h/player/hls.js'] },
];
const paths = (rows: Timed[]) => rows.map((r) => new URL(r.url).pathname);

test('the chain: from the last arrival back, each link the latest-finished script that started the next or response naming it', () => {
  // The contents call finished after the master and just before the variant went out, and a chunk
  // just before the master went out: neither started nor named them, so neither is taken for a cause.
  assert.equal(paths(criticalChain(RUN, 3813)), [
    '/player/',
    '/player/chunk.js',
    '/catalog-api/episodes',
    '/media/hls/master.m3u8',
    '/media/hls/audio/rus/index.m3u8',
    '/media/hls/audio/rus/seg_000.m4s',
  ]);
});

test('the script that started a request, finished later than the response naming it, is what it waited for', () => {
  const rows: Timed[] = [
    { url: 'http://h/bench/hls.html', start: 0, end: 590, body: '<script src="hls.mjs"></script> src: "/media/hls/master.m3u8"' },
    { url: 'http://h/bench/hls.mjs', start: 600, end: 2000, initiators: ['http://h/bench/hls.html'] },
    { url: 'http://h/media/hls/master.m3u8', start: 2050, end: 2600, initiators: ['http://h/bench/hls.mjs'], body: 'x' },
  ];
  assert.equal(paths(criticalChain(rows, 2700)), ['/bench/hls.html', '/bench/hls.mjs', '/media/hls/master.m3u8']);
});

test('a progressive download still streaming at the moment is the last link when its bytes came last', () => {
  const rows: Timed[] = [
    { url: 'http://h/player/', start: 0, end: 580, body: 'boot.js' },
    { url: 'http://h/player/boot.js', start: 590, end: 1200 },
    { url: 'http://h/ad-list.json', start: 1250, end: 1830, initiators: ['http://h/player/boot.js'], body: '{"preroll":"http://ads/vast/skippable.xml"}' },
    { url: 'http://ads/vast/skippable.xml', start: 1840, end: 2480, body: '<MediaFile><![CDATA[http://ads/media/ad.mp4]]></MediaFile>' },
    { url: 'http://h/media/hls/audio/rus/index.m3u8', start: 2420, end: 3000, body: 'seg_000.m4s' },
    { url: 'http://ads/media/ad.mp4', start: 2490, firstByte: 3055 },
    { url: 'http://h/media/hls/audio/rus/seg_000.m4s', start: 3005 },
  ];
  assert.equal(paths(criticalChain(rows, 3270)), ['/player/', '/player/boot.js', '/ad-list.json', '/vast/skippable.xml', '/media/ad.mp4']);
  // Looked at before its first bytes came, the MP4 is not a link; the playlist finished last is.
  assert.equal(paths(criticalChain(rows, 3050)).pop(), '/media/hls/audio/rus/index.m3u8');
});

test('nothing finished or streaming: no chain; never a loop; a lost body or initiator shortens it', () => {
  assert.equal(criticalChain([], 100), []);
  assert.equal(criticalChain([{ url: 'http://h/a', start: 0 }], 100), []);
  assert.equal(criticalChain(RUN, 500), []);
  // Finished after the moment: not a link.
  assert.equal(paths(criticalChain(RUN, 3700)).pop(), '/media/hls/video/240p/seg_000.m4s');
  // A response naming itself, taking no time: one link, once.
  assert.equal(paths(criticalChain([{ url: 'http://h/a.json', start: 10, end: 10, body: 'a.json' }], 20)), ['/a.json']);
  // An unreadable body (evicted) names nothing: the script that started the request stands in for it.
  const noBody = RUN.map((r) => (r.url.endsWith('master.m3u8') ? { ...r, body: undefined } : r));
  assert.equal(paths(criticalChain(noBody, 3813)), ['/player/', '/player/main.js', '/media/hls/audio/rus/index.m3u8', '/media/hls/audio/rus/seg_000.m4s']);
  // Nothing known of what started it, nor a body naming it: the walk stops there.
  const unknown = RUN.map((r) => (r.url.endsWith('episodes?content-id=1') ? { ...r, initiators: undefined } : r));
  assert.equal(paths(criticalChain(unknown, 3813))[0], '/catalog-api/episodes');
});

test('the time splits into round trips, transfers and gaps, adding up to the moment', () => {
  const time = chainTime(criticalChain(RUN, 3813), 3813, 562);
  assert.is(time.roundTrips, 6 * 562);
  // Each link's end − start − 562.
  assert.is(time.transfers, 22 + 104 + 13 + 17 + 16 + 190);
  // Before the page; the chunk after the page (it went out beside the bootstrap); each link after
  // the one before; the frame after the last.
  assert.is(time.between, 3 + 17 + 8 + 5 + 6 + 13 + 27);
  assert.is(time.roundTrips + time.transfers + time.between, 3813);
});

test('a link faster than a round trip counts what it took; overlaps once; a streaming link up to the moment', () => {
  const a = { url: 'http://h/a', start: 0, end: 100 };
  const b = { url: 'http://h/b', start: 50, end: 800 };
  assert.equal(chainTime([a, b], 900, 562), { roundTrips: 100 + 562, transfers: 138, between: 100 });
  assert.equal(chainTime([a, { url: 'http://h/c', start: 200, firstByte: 762 }], 900, 562), { roundTrips: 100 + 562, transfers: 138, between: 100 });
});

test.run();
