// The subtitle style in the viewer's memory (src/core/memory-protocol.ts): read from whatever a page or
// an older build left, merged, kept by the caps and the cookie, whatever it holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DEFAULT_SUBTITLE_STYLE,
  PARTNER_BYTES,
  PROGRESS_KEY,
  SUBTITLES_KEY,
  SUBTITLE_CHOICES,
  VOLUME_KEY,
  type MemoryRecord,
  capRecord,
  mergeRecords,
  parseRecord,
  readSubtitleStyle,
} from '../../../src/core/memory-protocol';
import { cookieValue } from '../../../src/storage/remember';

const valid = (s: unknown) =>
  Object.keys(s as object).length === 3 && Object.entries(SUBTITLE_CHOICES).every(([f, choices]) => (choices as readonly unknown[]).includes((s as Record<string, unknown>)[f]));

test('defaults: medium, white, shaded (the look subtitles always had), and every choice listed once', () => {
  assert.equal(DEFAULT_SUBTITLE_STYLE, { size: 'medium', color: 'white', background: 'shaded' });
  assert.equal(SUBTITLE_CHOICES, { size: ['small', 'medium', 'large'], color: ['white', 'yellow'], background: ['none', 'shaded', 'solid'] });
});

test('readSubtitleStyle: each field one of its choices, anything else the default; never a throw', () => {
  const inherited = Object.create({ size: 'large' }) as object;
  const junk: unknown[] = [
    undefined, null, '', 'large', 42, NaN, true, [], ['large'], [['size', 'large']], () => 'large', Symbol('x'),
    { size: 'huge' }, { size: 'LARGE' }, { size: ' large' }, { size: ['large'] }, { size: { toString: () => 'large' } }, { size: 2 },
    { color: 'toString' }, { color: 'constructor' }, { background: '__proto__' }, { background: null }, inherited,
    parseRecord('{"__proto__":{"size":"large","color":"yellow"}}'), parseRecord('{"constructor":{"size":"large"}}'),
  ];
  for (const value of junk) {
    const style = readSubtitleStyle(value);
    assert.equal(style, DEFAULT_SUBTITLE_STYLE, String(typeof value === 'symbol' ? 'symbol' : JSON.stringify(value)));
    assert.ok(valid(style));
  }
  assert.equal(readSubtitleStyle({ size: 'large', color: 'yellow', background: 'solid' }), { size: 'large', color: 'yellow', background: 'solid' });
  assert.equal(readSubtitleStyle({ size: 'small', color: 7, background: 'none', extra: 'x'.repeat(1000) }), { size: 'small', color: 'white', background: 'none' }, 'the good fields kept, the bad default, the rest dropped');
  // A fresh object each time: a caller changing it never changes the default.
  const style = readSubtitleStyle(undefined);
  style.size = 'large';
  assert.is(DEFAULT_SUBTITLE_STYLE.size, 'medium');
  assert.is(({} as Record<string, unknown>).size, undefined, 'Object.prototype untouched');
});

test('mergeRecords: the newer record\'s style wins where it has one, as its volume does; junk in it reads as the default', () => {
  const older: MemoryRecord = { [SUBTITLES_KEY]: { size: 'large', color: 'yellow', background: 'solid' } };
  assert.equal(readSubtitleStyle(mergeRecords(older, { [SUBTITLES_KEY]: { size: 'small', color: 'white', background: 'none' } })[SUBTITLES_KEY]), { size: 'small', color: 'white', background: 'none' });
  assert.equal(readSubtitleStyle(mergeRecords(older, {})[SUBTITLES_KEY]), { size: 'large', color: 'yellow', background: 'solid' }, 'the newer says nothing of it');
  assert.equal(readSubtitleStyle(mergeRecords({}, older)[SUBTITLES_KEY]), { size: 'large', color: 'yellow', background: 'solid' });
  assert.not.ok(SUBTITLES_KEY in mergeRecords({}, {}), 'neither has one: none (the default)');
  for (const junk of ['large', 5, null, [], ['small'], { size: 'huge' }, parseRecord('{"__proto__":{"size":"small"}}')])
    assert.equal(readSubtitleStyle(mergeRecords(older, { [SUBTITLES_KEY]: junk })[SUBTITLES_KEY]), { ...readSubtitleStyle(junk) }, JSON.stringify(junk));
  assert.is(({} as Record<string, unknown>).size, undefined, 'Object.prototype untouched');
});

test('capRecord: a style kept as it is; anything too long to be one dropped; kept when nothing else fits', () => {
  const style = { size: 'medium', color: 'yellow', background: 'shaded' };
  assert.equal(capRecord({ [SUBTITLES_KEY]: style })[SUBTITLES_KEY], style);
  assert.equal(capRecord({ [SUBTITLES_KEY]: 'small' })[SUBTITLES_KEY], 'small', 'short junk kept: the reader ignores it');
  for (const junk of ['x'.repeat(PARTNER_BYTES), { size: 'large', pad: 'x'.repeat(100) }, Array(50).fill('large')]) {
    const capped = capRecord({ [SUBTITLES_KEY]: junk, [VOLUME_KEY]: 0.5 });
    assert.not.ok(SUBTITLES_KEY in capped, 'too long to be a style');
    assert.is(capped[VOLUME_KEY], 0.5);
  }
  // Nothing else fits (a huge progress value, no room): volume, mute and the style stay.
  const tight = capRecord({ [PROGRESS_KEY]: { 1: 'x'.repeat(500) }, [SUBTITLES_KEY]: style, [VOLUME_KEY]: 0.5 }, 50, 5, 200);
  assert.equal(tight, { [VOLUME_KEY]: 0.5, 'player-muted': false, [SUBTITLES_KEY]: style });
});

test('the cookie carries the style under y, with the rest, within its bytes', () => {
  const style = { size: 'large', color: 'yellow', background: 'none' };
  const progress = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [i + 1, 'x'.repeat(200)]));
  const value = JSON.parse(cookieValue({ [SUBTITLES_KEY]: style, [VOLUME_KEY]: 0.3, [PROGRESS_KEY]: progress }));
  assert.equal(value.y, style);
  assert.is(value.v, 0.3);
  assert.equal(JSON.parse(cookieValue({ [SUBTITLES_KEY]: { pad: 'x'.repeat(5000) } })).y, undefined, 'junk too long to be a style: dropped');
});

test.run();
