// The viewer's memory as one record (src/core/memory-protocol.ts): reading it from any text, merging two
// with the newest progress winning per episode, capping it by titles and by bytes, whatever it holds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  AUDIO_KEY,
  CHOSEN_KEY,
  MEMORY_KEYS,
  MUTED_KEY,
  PARTNER_BYTES,
  PARTNER_STARTS,
  PARTNER_TITLES,
  PROGRESS_KEY,
  STARTS_KEY,
  VARIANTS_KEY,
  VOLUME_KEY,
  WRITTEN_KEY,
  capRecord,
  mergeRecords,
  parseRecord,
  type MemoryRecord,
} from '../../../src/core/memory-protocol';

const size = (r: unknown) => JSON.stringify(r).length;

/** `count` episodes, ids 1…count, episode i written at time i (so the highest ids are the newest). */
function episodes(count: number, value = (i: number): unknown => i * 10) {
  const progress: Record<string, unknown> = {};
  const written: Record<string, number> = {};
  for (let i = 1; i <= count; i++) {
    progress[i] = value(i);
    written[i] = i;
  }
  return { [PROGRESS_KEY]: progress, [WRITTEN_KEY]: written };
}

test('parseRecord: a JSON object, else undefined, never a throw', () => {
  for (const junk of [null, undefined, '', '{', 'x', '[]', '[{}]', 'null', '1', '"{}"', 'true', '{"a":1', '\u0000']) {
    assert.is(parseRecord(junk), undefined, String(junk));
  }
  assert.equal(parseRecord('{}'), {});
  assert.equal(parseRecord(`{"${VOLUME_KEY}":0.5,"other":[1]}`), { [VOLUME_KEY]: 0.5, other: [1] });
  // A __proto__ key stays data: nothing reaches Object.prototype.
  const r = parseRecord('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.hasOwn(r, '__proto__'));
});

test('mergeRecords: each episode from whichever record wrote it last, ties to the newer', () => {
  const older: MemoryRecord = {
    [PROGRESS_KEY]: { 1: 100, 2: 200, 3: 300, 5: 500 },
    [WRITTEN_KEY]: { 1: 50, 2: 10, 3: 7, 5: 9 },
  };
  const newer: MemoryRecord = {
    [PROGRESS_KEY]: { 1: 111, 2: 222, 3: 333, 4: 444 },
    [WRITTEN_KEY]: { 1: 40, 2: 20, 3: 7, 4: 1 },
  };
  const merged = mergeRecords(older, newer);
  assert.equal(merged[PROGRESS_KEY], { 1: 100, 2: 222, 3: 333, 4: 444, 5: 500 });
  assert.equal(merged[WRITTEN_KEY], { 1: 50, 2: 20, 3: 7, 4: 1, 5: 9 });
  // In either order, the same positions: the timestamps decide, not the argument order (but for ties).
  assert.equal(mergeRecords(newer, older)[PROGRESS_KEY], { 1: 100, 2: 222, 3: 300, 4: 444, 5: 500 });
});

test('mergeRecords: a forgotten episode stays forgotten unless written again later', () => {
  // Watched to the end in the newer record at 30: its progress is gone, its time kept.
  const older: MemoryRecord = { [PROGRESS_KEY]: { 7: 1000, 8: 50 }, [WRITTEN_KEY]: { 7: 20, 8: 40 } };
  const newer: MemoryRecord = { [PROGRESS_KEY]: {}, [WRITTEN_KEY]: { 7: 30, 8: 35 } };
  const merged = mergeRecords(older, newer);
  assert.equal(merged[PROGRESS_KEY], { 8: 50 }, '7 forgotten at 30 (after 20); 8 written at 40 (after it was forgotten at 35)');
  assert.equal(merged[WRITTEN_KEY], { 7: 30, 8: 40 });
  // The other way round: the older record's forget is the newest word on 7.
  const again = mergeRecords({ [PROGRESS_KEY]: {}, [WRITTEN_KEY]: { 7: 60 } }, older);
  assert.equal(again[PROGRESS_KEY], { 8: 50 });
  assert.equal(again[WRITTEN_KEY], { 7: 60, 8: 40 });
});

test('mergeRecords: no timestamps count as 0 (a tie: the newer wins where it has the episode); volume, mute, starts and choices from the newer where it has them', () => {
  const older: MemoryRecord = {
    [PROGRESS_KEY]: { 1: 10, 2: 20 },
    [VOLUME_KEY]: 0.3,
    [MUTED_KEY]: true,
    [AUDIO_KEY]: { 5: 'Eng', 6: 'Rus' },
    [VARIANTS_KEY]: { 5: 1 },
    [STARTS_KEY]: [{ id: 'old' }],
  };
  const newer: MemoryRecord = { [PROGRESS_KEY]: { 1: 11 }, [VOLUME_KEY]: 0.8, [AUDIO_KEY]: { 6: 'Jpn' }, [VARIANTS_KEY]: { 9: 2 } };
  const merged = mergeRecords(older, newer);
  assert.equal(merged[PROGRESS_KEY], { 1: 11, 2: 20 }, 'a tie goes to the newer only where it has the episode');
  assert.is(merged[VOLUME_KEY], 0.8);
  assert.is(merged[MUTED_KEY], true, 'kept: the newer says nothing of it');
  assert.equal(merged[AUDIO_KEY], { 5: 'Eng', 6: 'Jpn' });
  assert.equal(merged[VARIANTS_KEY], { 5: 1, 9: 2 });
  assert.equal(merged[STARTS_KEY], [{ id: 'old' }]);
  assert.equal(mergeRecords(older, { [STARTS_KEY]: [] })[STARTS_KEY], []);
});

test('mergeRecords: junk in either record never throws, and bad timestamps count as none', () => {
  const junk: MemoryRecord[] = [
    {},
    { [PROGRESS_KEY]: [1, 2], [WRITTEN_KEY]: 'x', [AUDIO_KEY]: null, [VARIANTS_KEY]: 5 },
    { [PROGRESS_KEY]: { 1: 'a' }, [WRITTEN_KEY]: { 1: NaN, 2: Infinity, 3: '99', 4: null } },
    { [PROGRESS_KEY]: null, [WRITTEN_KEY]: [3], [STARTS_KEY]: 'no' },
    parseRecord('{"episodesTimeProgress":{"__proto__":{"1":5},"constructor":3},"player-progress-at":{"__proto__":9,"toString":4}}')!,
  ];
  for (const a of junk) for (const b of junk) JSON.stringify(mergeRecords(a, b));
  const merged = mergeRecords({ [PROGRESS_KEY]: { 1: 5 }, [WRITTEN_KEY]: { 1: 10 } }, { [PROGRESS_KEY]: { 1: 6 }, [WRITTEN_KEY]: { 1: NaN } });
  assert.equal(merged[PROGRESS_KEY], { 1: 5 }, 'NaN is no time: the older\'s 10 wins');
  assert.is(({} as Record<string, unknown>)[1], undefined, 'Object.prototype untouched');
});

test('capRecord: the newest written titles kept, the oldest dropped; forgotten episodes count as titles', () => {
  const record: MemoryRecord = { ...episodes(PARTNER_TITLES + 10), [VOLUME_KEY]: 0.5, [MUTED_KEY]: false, other: 'dropped' } as MemoryRecord;
  // Episode 1000 was forgotten last of all: it keeps its place (a tombstone) and takes a title's room.
  (record[WRITTEN_KEY] as Record<string, number>)[1000] = 10000;
  const capped = capRecord(record);
  const kept = Object.keys(capped[WRITTEN_KEY] as object);
  assert.is(kept.length, PARTNER_TITLES);
  assert.ok(kept.includes('1000'));
  assert.equal(Object.keys(capped[PROGRESS_KEY] as object).map(Number), Array.from({ length: PARTNER_TITLES - 1 }, (_, i) => i + 12), 'episodes 12…60, the newest');
  assert.is(capped[VOLUME_KEY], 0.5);
  assert.is(capped[MUTED_KEY], false);
  assert.not.ok('other' in capped, 'only the memory keys');
  for (const key of Object.keys(capped)) assert.ok((MEMORY_KEYS as readonly string[]).includes(key), key);
  // Untimed progress goes before any timed one.
  const untimed = capRecord({ [PROGRESS_KEY]: { 1: 1, 2: 2, 3: 3 }, [WRITTEN_KEY]: { 3: 5 } }, 2);
  assert.equal(untimed[PROGRESS_KEY], { 1: 1, 3: 3 });
});

test('capRecord: choices and starts by count', () => {
  const audio = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`c${i}`, 'Rus']));
  const starts = Array.from({ length: 12 }, (_, i) => ({ contentId: i }));
  // Chosen in order, c59 last; b and c (variants) earlier than any audio.
  const chosenAt = { ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`c${i}`, 100 + i])), a: 200, b: 1, c: 2 };
  const capped = capRecord({ [AUDIO_KEY]: audio, [VARIANTS_KEY]: { a: 1, b: 2, c: 3 }, [CHOSEN_KEY]: chosenAt, [STARTS_KEY]: starts });
  const kept = Object.keys(capped[AUDIO_KEY] as object);
  assert.equal(kept.sort(), Array.from({ length: PARTNER_TITLES - 1 }, (_, i) => `c${i + 11}`).sort(), 'the titles chosen last: a, then c59 back to c11');
  assert.equal(capped[VARIANTS_KEY], { a: 1 });
  assert.equal(capped[STARTS_KEY], starts.slice(0, PARTNER_STARTS), 'the first (the latest) starts');
  // No room for choices at all: none, not all of them.
  const none = capRecord({ [AUDIO_KEY]: audio, [VARIANTS_KEY]: { a: 1 }, [STARTS_KEY]: starts }, 0, 0);
  assert.equal(none[AUDIO_KEY], {});
  assert.equal(none[VARIANTS_KEY], {});
  assert.equal(none[STARTS_KEY], []);
});

test('capRecord: by bytes, the oldest progress goes first, then the starts, then the oldest choices', () => {
  const big = 'x'.repeat(400);
  const record: MemoryRecord = {
    ...episodes(40, (i) => ({ t: i, note: big })),
    [STARTS_KEY]: [{ big }, { big }],
    [AUDIO_KEY]: { 1: big, 2: big },
    [CHOSEN_KEY]: { 1: 1, 2: 2 },
    [VOLUME_KEY]: 0.7,
    [MUTED_KEY]: true,
  };
  const capped = capRecord(record);
  assert.ok(size(capped) <= PARTNER_BYTES, `${size(capped)} characters`);
  const ids = Object.keys(capped[PROGRESS_KEY] as object).map(Number);
  assert.ok(ids.length > 0 && ids.length < 40);
  assert.equal(ids, Array.from({ length: ids.length }, (_, i) => 41 - ids.length + i), 'a run of the newest');
  assert.is((capped[STARTS_KEY] as unknown[]).length, 2, 'starts untouched while progress can go');
  // Tighter: no progress left, then no starts, then the older choice.
  const tight = capRecord(record, PARTNER_TITLES, PARTNER_STARTS, 800);
  assert.equal(tight[PROGRESS_KEY], {});
  assert.equal(tight[STARTS_KEY], []);
  assert.equal(Object.keys(tight[AUDIO_KEY] as object), ['2']);
  assert.ok(size(tight) <= 800, `${size(tight)} characters`);
  // Tighter still: volume and mute alone.
  assert.equal(capRecord(record, PARTNER_TITLES, PARTNER_STARTS, 200), {
    [PROGRESS_KEY]: {},
    [WRITTEN_KEY]: {},
    [AUDIO_KEY]: {},
    [VARIANTS_KEY]: {},
    [STARTS_KEY]: [],
    [VOLUME_KEY]: 0.7,
    [MUTED_KEY]: true,
    [CHOSEN_KEY]: {},
  });
});

test('capRecord: junk values never throw and never make it over the bytes', () => {
  const huge = 'x'.repeat(PARTNER_BYTES + 1);
  const junk: MemoryRecord[] = [
    {},
    { [PROGRESS_KEY]: [1, 2, 3], [WRITTEN_KEY]: 'x', [AUDIO_KEY]: null, [VARIANTS_KEY]: [1], [STARTS_KEY]: { a: 1 } },
    { [VOLUME_KEY]: huge },
    { [VOLUME_KEY]: 0.4, [MUTED_KEY]: huge },
    { [VOLUME_KEY]: 0.4, [MUTED_KEY]: { huge } },
    { [STARTS_KEY]: [huge] },
    { [AUDIO_KEY]: { 1: huge } },
    { [PROGRESS_KEY]: { 1: huge }, [WRITTEN_KEY]: { 1: Infinity, 2: -5, 3: NaN } },
    { [WRITTEN_KEY]: { 1: 1e308, 2: -1e308 } },
    parseRecord(`{"episodesTimeProgress":{"__proto__":{"1":5},"constructor":3},"player-progress-at":{"__proto__":9,"toString":4,"hasOwnProperty":1}}`)!,
  ];
  for (const record of junk) {
    const capped = capRecord(record);
    assert.ok(size(capped) <= PARTNER_BYTES, `${size(capped)} characters`);
    // What is kept survives a trip through JSON unchanged: no functions, no prototypes in it.
    assert.equal(JSON.parse(JSON.stringify(capped)), capped);
  }
  assert.equal(capRecord({ [VOLUME_KEY]: 0.4, [MUTED_KEY]: huge }), { [VOLUME_KEY]: 0.4, [MUTED_KEY]: false }, 'a good volume outlives a junk mute');
  assert.equal(capRecord({ [PROGRESS_KEY]: { 1: 5 }, [WRITTEN_KEY]: { 1: Infinity } })[WRITTEN_KEY], {}, 'Infinity is no time');
});

test.run();
