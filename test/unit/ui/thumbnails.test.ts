import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { THUMBNAIL_CACHE, parseThumbnails, thumbnailFinder } from '../../../src/ui/thumbnails';

const VTT = `WEBVTT

00:00:00.000 --> 00:00:04.000
thumbs.jpg#xywh=0,0,160,90

00:00:04.000 --> 00:00:08.000
thumbs.jpg#xywh=160,0,160,90

garbage

01:00:00.000 --> 01:00:04.000
https://cdn.example/t2.jpg#xywh=0,90,160,90
`;

test('parses sprite cues and resolves image addresses', () => {
  const t = parseThumbnails(VTT, 'https://h/media/hls/thumbs.vtt');
  assert.is(t.length, 3);
  assert.equal(t[1], { url: 'https://h/media/hls/thumbs.jpg', startTime: 4, endTime: 8, x: 160, y: 0, width: 160, height: 90 });
  assert.is(t[2].url, 'https://cdn.example/t2.jpg');
  assert.is(t[2].startTime, 3600);
  assert.equal(parseThumbnails('not a vtt', 'https://h/'), []);
});

test('finds the thumbnail of a time and keeps at most 99 answers', () => {
  const thumbs = Array.from({ length: 500 }, (_, i) => ({ url: 'u', startTime: i * 4, endTime: i * 4 + 4, x: i, y: 0, width: 1, height: 1 }));
  const f = thumbnailFinder(thumbs);
  assert.is(f.at(9)!.x, 2);
  assert.is(f.at(0)!.x, 0);
  assert.is(f.at(5000), undefined);
  for (let s = 0; s < 1000; s++) f.at(s);
  assert.is(THUMBNAIL_CACHE, 99);
  assert.is(f.size(), 99);
  assert.is(f.at(999)!.x, 249);
});

test('JSON thumbnails (SPEC §7): a list or {thumbnails}, coords as {x, y} or [x, y], sorted; bad entries and documents give nothing', () => {
  const base = 'https://cdn.example/film/master.m3u8';
  const json = JSON.stringify([
    { url: 'sprite.jpg', startTime: 5, endTime: 10, width: 160, height: 90, coords: { x: 160, y: 0 } },
    { url: 'sprite.jpg', startTime: 0, endTime: 5, width: 160, height: 90, coords: [0, 0] },
    { url: 'https://img.example/full.jpg', startTime: '10', endTime: '15' },
    { url: 'x.jpg', startTime: 15 },
    { url: 'x.jpg', startTime: 20, endTime: 18 },
    { url: 42, startTime: 0, endTime: 1 },
    null,
    'text',
  ]);
  assert.equal(parseThumbnails(json, base), [
    { url: 'https://cdn.example/film/sprite.jpg', startTime: 0, endTime: 5, x: 0, y: 0, width: 160, height: 90 },
    { url: 'https://cdn.example/film/sprite.jpg', startTime: 5, endTime: 10, x: 160, y: 0, width: 160, height: 90 },
    { url: 'https://img.example/full.jpg', startTime: 10, endTime: 15, x: 0, y: 0, width: 0, height: 0 },
  ]);
  assert.is(parseThumbnails(JSON.stringify({ thumbnails: [{ url: 'a.jpg', startTime: 0, endTime: 4 }] }), base).length, 1);
  assert.equal(parseThumbnails('{"thumbnails": 5}', base), []);
  assert.equal(parseThumbnails('[{"url": "a.jpg", "startTime": 0, "endTime": 4}', base), [], 'cut-off JSON');
  assert.equal(parseThumbnails('  null', base), []);
  assert.equal(parseThumbnails('{}', base), []);
  assert.is(thumbnailFinder(parseThumbnails(json, base)).at(7)?.x, 160);
});

test.run();
