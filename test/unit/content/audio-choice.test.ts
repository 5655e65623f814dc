import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseAudioTrack, orderAudioTracks } from '../../../src/content/audio-choice';
import type { MediaTrack } from '../../../src/core/tracks';

const t = (id: number, label: string, language: string, extra: Partial<MediaTrack> = {}): MediaTrack => ({ id, label, language, ...extra });
const tracks = [
  t(0, 'Русский', 'ru', { isDefault: true }),
  t(1, 'English', 'en'),
  t(2, 'Русский AC3', 'ru'),
  t(3, 'LostFilm', 'rus'),
  t(4, 'Dolby', 'en', { codec: 'ac-3' }),
];

test('tracks labelled AC3 are dropped, preferred languages come first (ISO 639-1 and -2 alike)', () => {
  assert.equal(orderAudioTracks(tracks, []).map((x) => x.id), [0, 1, 3]);
  assert.equal(orderAudioTracks(tracks, ['en']).map((x) => x.id), [1, 0, 3]);
  assert.equal(orderAudioTracks(tracks, ['eng', 'ru']).map((x) => x.id), [1, 0, 3]);
  assert.equal(orderAudioTracks([t(0, 'AC3', 'ru'), t(1, 'ac-3 5.1', 'ru')], []), []);
  assert.equal(orderAudioTracks([t(0, 'AC30 band', 'ru')], []).length, 1, 'AC3 as a word only');
});

test('1. the saved label wins', () => {
  assert.is(chooseAudioTrack(tracks, { saved: 'English', voiceAuthor: 'lostfilm', langOrder: ['ru'] })?.id, 1);
});

test('a saved label that is gone (or was AC3) falls through', () => {
  assert.is(chooseAudioTrack(tracks, { saved: 'Gone', langOrder: [] })?.id, 0);
  assert.is(chooseAudioTrack(tracks, { saved: 'Русский AC3', langOrder: [] })?.id, 0);
});

test('2. else the voice author (case-insensitive, part of the label)', () => {
  assert.is(chooseAudioTrack(tracks, { voiceAuthor: 'lostfilm', langOrder: [] })?.id, 3);
  assert.is(chooseAudioTrack(tracks, { voiceAuthor: '  LOST ', langOrder: ['en'] })?.id, 3);
});

test('3. else the first, preferred languages first; the stream\'s DEFAULT flag plays no part', () => {
  assert.is(chooseAudioTrack(tracks, { langOrder: ['en'] })?.id, 1);
  assert.is(chooseAudioTrack(tracks, { langOrder: ['de'] })?.id, 0, 'no preferred language on offer: the first');
  assert.is(chooseAudioTrack([t(5, 'A', 'de'), t(6, 'B', 'fr', { isDefault: true })], { langOrder: [] })?.id, 5, 'the first, not the default');
  assert.is(chooseAudioTrack([], { langOrder: ['en'] }), undefined);
  assert.is(chooseAudioTrack([t(0, 'AC3', 'ru')], { langOrder: [] }), undefined, 'nothing left to choose');
});

test.run();
