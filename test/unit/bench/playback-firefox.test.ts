// bench:playback in Firefox reads a run's requests from the page's Resource Timing: the waterfall and
// the ladder's segments from its entries, whatever the page made of them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { requestsOf, segmentsOf, type Finished } from '../../../bench/playback-firefox';

const ladder = {
  segments: new Map([
    ['/media/ladder/video/240p/seg_000.m4s', { slot: 'video@0.00', start: 0, end: 4 }],
    ['/media/ladder/audio/rus/seg_000.m4s', { slot: 'audio@0.00', start: 0, end: 4.01 }],
  ]),
};

const entry = (url: string, start: number, headers: number, end: number, bytes: number): Finished => ({ url, start, headers, end, bytes });

test('the waterfall: ordered by start, paths with their query, times rounded, unknown headers and sizes left out', () => {
  const out = requestsOf([
    entry('http://127.0.0.1:4000/media/ladder/video/240p/seg_000.m4s', 636.4, 734.2, 826.6, 135990),
    entry('http://127.0.0.1:4000/player/?movie_id=30&auto_play=1', 0, 186.1, 186.3, 6500),
    entry('http://127.0.0.1:4000/catalog-api/episodes?content-id=30', 260, 0, 424, 0),
    entry('data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E', 300, 0, 300, 0),
  ]);
  assert.equal(out, [
    { path: '/player/?movie_id=30&auto_play=1', startMs: 0, headersMs: 186, endMs: 186, bytes: 6500 },
    { path: '/catalog-api/episodes?content-id=30', startMs: 260, headersMs: undefined, endMs: 424, bytes: undefined },
    { path: 'data:image/svg+xml,%3Csvg xmlns=%22http:', startMs: 300, headersMs: undefined, endMs: 300, bytes: undefined },
    { path: '/media/ladder/video/240p/seg_000.m4s', startMs: 636, headersMs: 734, endMs: 827, bytes: 135990 },
  ]);
});

test('segments: only the ladder’s, by path without the query, with the bytes carried; one of unknown size or a bad address is not one', () => {
  const out = segmentsOf(
    [
      entry('http://127.0.0.1:4000/media/ladder/video/240p/seg_000.m4s?x=1', 636, 734, 826.6, 135990),
      entry('http://127.0.0.1:4000/media/ladder/audio/rus/seg_000.m4s', 746, 846, 944, 0),
      entry('http://127.0.0.1:4000/media/ladder/video/240p/init.mp4', 635, 734, 735, 1100),
      entry('not an address', 1, 1, 1, 10),
    ],
    ladder,
  );
  assert.equal(out, [{ slot: 'video@0.00', start: 0, end: 4, path: '/media/ladder/video/240p/seg_000.m4s', bytes: 135990, doneMs: 827 }]);
});

test.run();
