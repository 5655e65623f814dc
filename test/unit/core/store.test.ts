import { effect } from '@preact/signals';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { playerError } from '../../../src/core/errors';
import { createStore } from '../../../src/core/store';
import { ep } from '../content/fixtures';

const episodes = [ep(201, 1, 1), ep(202, 1, 2), ep(204, 2, 1)];

function setup(current: number | null, available = true) {
  const store = createStore();
  store.episodes.value = episodes;
  store.episode.value = current === null ? null : episodes.find((e) => e.id === current)!;
  store.isAvailable.value = available;
  return store;
}

test('nextEpisode: the one after the current, across seasons (SPEC §4 ended)', () => {
  assert.is(setup(201).nextEpisode.value?.id, 202);
  assert.is(setup(202).nextEpisode.value?.id, 204, 'crosses into the next season');
});

test('nextEpisode: none after the last episode, none without a current one', () => {
  assert.is(setup(204).nextEpisode.value, undefined);
  assert.is(setup(null).nextEpisode.value, undefined);
  const film = createStore();
  film.episodes.value = [ep(101, null, 1)];
  film.episode.value = film.episodes.value[0];
  assert.is(film.nextEpisode.value, undefined, 'a film has no next episode');
});

test('nextEpisode: a current episode missing from the list has no next (never the first one)', () => {
  const store = setup(null);
  store.episode.value = ep(999, 1, 9);
  assert.is(store.nextEpisode.value, undefined);
});

test('nextEpisode: moving on requires that the content is available (SPEC §5), and no error on screen', () => {
  assert.is(setup(201, false).nextEpisode.value, undefined);
  const store = setup(201);
  assert.is(store.nextEpisode.value?.id, 202);
  store.error.value = playerError('content-blocked', 'x');
  assert.is(store.nextEpisode.value, undefined);
  store.error.value = null;
  assert.is(store.nextEpisode.value?.id, 202, 'back once the error is reset');
});

test('nextEpisode follows the current episode and the list as they change', () => {
  const store = setup(201);
  const seen: Array<number | undefined> = [];
  const stop = effect(() => void seen.push(store.nextEpisode.value?.id));
  store.episode.value = episodes[1];
  store.episode.value = episodes[2];
  store.episodes.value = [...episodes, ep(205, 2, 2)];
  stop();
  assert.equal(seen, [202, 204, undefined, 205]);
});

test('savedTime starts unknown; the poster is the episode’s, else the content’s, else none', () => {
  const store = createStore();
  assert.is(store.savedTime.value, undefined);
  assert.is(store.poster.value, '');
  store.content.value = { id: 2, title: 'S', posterUrl: 'https://h/c.jpg' };
  assert.is(store.poster.value, 'https://h/c.jpg');
  store.episode.value = ep(201, 1, 1, { posterPath: 'https://h/e.jpg' });
  assert.is(store.poster.value, 'https://h/e.jpg');
});

test('a new store starts idle: paused, not started, loading, no error, nothing requested', () => {
  const s = createStore();
  assert.equal(
    [s.paused.value, s.started.value, s.loading.value, s.error.value, s.playRequested.value, s.mutedAutoplay.value, s.adState.value, s.sourceUrl.value],
    [true, false, true, null, false, false, 'idle', ''],
  );
});

test.run();
