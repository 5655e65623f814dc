import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createStore } from '../../../../src/core/store';
import { pageGroups } from '../../../../src/ui/menu/menu-items';
import type { Episode } from '../../../../src/core/entities';

const ep = (id: number, season: number, order: number, extra: Partial<Episode> = {}): Episode => ({
  id,
  contentId: 2,
  title: `E${order}`,
  order,
  season: { id: season, order: season },
  m3u8MasterFilePath: '/x.m3u8',
  ...extra,
});

function seriesStore() {
  const store = createStore();
  store.content.value = { id: 2, title: 'S', hasMultipleEpisodes: true };
  store.seasons.value = [{ id: 2, order: 2 }, { id: 1, order: 1 }];
  store.episodes.value = [ep(11, 1, 1), ep(12, 1, 2), ep(13, 1, 3, { episodeVariants: [{ id: 2031, title: 'A', filepath: 'a' }, { id: 2032, title: 'B', filepath: 'b' }] }), ep(21, 2, 1), ep(22, 2, 2)];
  store.episode.value = store.episodes.value[2];
  store.activeVariantId.value = 2032;
  store.qualities.value = [
    { id: 0, width: 426, height: 240, bitrate: 65814, codec: '' },
    { id: 1, width: 1280, height: 720, bitrate: 100650, codec: '' },
  ];
  store.level.value = 1;
  store.textTracks.value = [{ id: 0, label: 'Русские', language: 'ru' }];
  return store;
}

const values = (groups: ReturnType<typeof pageGroups>) => groups.flatMap((g) => g.items.map((i) => i.value));

test('main lists the pages the content has, with the current choices', () => {
  const store = seriesStore();
  const [main] = pageGroups('main', { page: 'main' }, store);
  const byValue = Object.fromEntries(main.items.map((i) => [i.value, i]));
  assert.ok(['seasons', 'episodes', 'variants-episode', 'quality', 'playback-rate', 'subs'].every((p) => p in byValue));
  assert.is(byValue.quality.detail, 'Auto (720p)');
  assert.is(byValue['playback-rate'].detail, 'Обычная');
  assert.is(byValue.subs.detail, 'Выкл.');
  assert.is(byValue['variants-episode'].detail, 'B');
});

test('episodes default to the current season, or the season picked', () => {
  const store = seriesStore();
  assert.equal(values(pageGroups('episodes', { page: 'episodes' }, store)), ['11', '12', '13']);
  assert.equal(values(pageGroups('episodes', { page: 'episodes', season: 2 }, store)), ['21', '22']);
  assert.equal(values(pageGroups('seasons', { page: 'seasons' }, store)), ['1', '2']);
  const variants = pageGroups('variants-episode', { page: 'variants-episode' }, store)[0].items;
  assert.equal(variants.map((v) => [v.value, v.checked]), [['2031', false], ['2032', true]]);
});

test('quality: Auto first, then heights high to low with Mbps; subs: Выкл. first', () => {
  const store = seriesStore();
  const q = pageGroups('quality', { page: 'quality' }, store)[0].items;
  assert.equal(q.map((i) => [i.value, i.label, i.detail ?? '']), [['-1', 'Auto (720p)', ''], ['1', '720p', '0.10 Mbps'], ['0', '240p', '0.07 Mbps']]);
  const subs = pageGroups('subs', { page: 'subs' }, store)[0].items;
  assert.equal(subs.map((i) => [i.value, i.label, i.checked]), [['-1', 'Выкл.', true], ['0', 'Русские', false]]);
});

test('audio: descriptor sources when there are several, else the stream tracks', () => {
  const store = seriesStore();
  store.audioTracks.value = [{ id: 0, label: 'Русский', language: 'ru' }, { id: 1, label: 'English', language: 'en' }];
  store.audioTrack.value = 1;
  assert.equal(pageGroups('audio-tracks', { page: 'audio-tracks' }, store)[0].items.map((i) => [i.label, i.checked]), [['Русский', false], ['English', true]]);
  store.descriptor.value = { sources: [{ label: 'RU', link: 'https://h/r.m3u8', isDefault: true }, { label: 'EN', link: 'https://h/e.m3u8', isDefault: false }], subtitles: [] };
  store.sourceUrl.value = 'https://h/e.m3u8';
  assert.equal(pageGroups('audio-tracks', { page: 'audio-tracks' }, store)[0].items.map((i) => [i.value, i.label, i.checked]), [['0', 'RU', false], ['1', 'EN', true]]);
});

test('audio: the initial choice\'s rule — tracks labelled AC3 dropped (unless playing), lang_order languages first', () => {
  const store = seriesStore();
  store.audioTracks.value = [
    { id: 0, label: 'Русский', language: 'ru' },
    { id: 1, label: 'Русский AC3', language: 'ru' },
    { id: 2, label: 'English', language: 'eng' },
    { id: 3, label: 'Dolby', language: 'en', codec: 'ac-3' },
  ];
  store.audioTrack.value = 0;
  const list = (order: string[]) => pageGroups('audio-tracks', { page: 'audio-tracks' }, store, order)[0].items.map((i) => i.value);
  assert.equal(list([]), ['0', '2']);
  assert.equal(list(['en', 'ru']), ['2', '0'], 'en and eng are one language');
  store.audioTrack.value = 1;
  assert.equal(list([]), ['0', '2', '1'], 'the one playing stays listed');
  store.audioTracks.value = [{ id: 5, label: 'AC3', language: 'ru' }];
  store.audioTrack.value = 5;
  assert.equal(list([]), ['5'], 'all when the rule drops every one');
});

test.run();
