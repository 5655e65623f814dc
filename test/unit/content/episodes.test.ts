import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseInitialEpisode, sortEpisodes } from '../../../src/content/episodes';
import { readEpisodes } from '../../../src/content/validate';
import { ep } from './fixtures';

const shuffled = [ep(205, 2, 2), ep(203, 1, 3), ep(204, 2, 1), ep(201, 1, 1, { isCompleted: true }), ep(206, 2, 3), ep(202, 1, 2)];
const sorted = sortEpisodes(shuffled);

test('sorted by season order, then episode order', () => {
  assert.equal(sorted.map((e) => e.id), [201, 202, 203, 204, 205, 206]);
  assert.is(shuffled[0].id, 205, 'input left as it was');
});

test('films (no season) sort by order; junk entries are dropped where the answer is read', () => {
  const junk = [null, {}, { id: 'x', order: 1 }];
  assert.equal(sortEpisodes(readEpisodes([ep(2, null, 2), ...junk, ep(1, null, 1)], 1)).map((e) => e.id), [1, 2]);
});

test('1. the episode with the given id', () => {
  assert.is(chooseInitialEpisode(sorted, { episodeId: 205, season: 1, episode: 1 })?.id, 205);
});

test('2. season and episode number (episode defaults to 1 upstream)', () => {
  assert.is(chooseInitialEpisode(sorted, { season: 2, episode: 3 })?.id, 206);
  assert.is(chooseInitialEpisode(sorted, { season: 2, episode: 1 })?.id, 204);
  assert.is(chooseInitialEpisode(sorted, { episodeId: 999, season: 2, episode: 2 })?.id, 205, 'unknown id falls through');
});

test('3. the first episode not completed', () => {
  assert.is(chooseInitialEpisode(sorted, {})?.id, 202);
  assert.is(chooseInitialEpisode(sorted, { season: 9, episode: 1 })?.id, 202, 'unknown season falls through');
});

test('4. the first episode when all are completed; none when empty', () => {
  const done = sorted.map((e) => ({ ...e, isCompleted: true }));
  assert.is(chooseInitialEpisode(done, {})?.id, 201);
  assert.is(chooseInitialEpisode([], { episodeId: 1 }), undefined);
});

test.run();
