import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLOSED, type MenuState, menuReducer } from '../../../../src/ui/menu/menu-state';

const main: MenuState = { page: 'main' };
const subs: MenuState = { page: 'subs' };

test('the settings icon opens main, or closes any open menu', () => {
  assert.equal(menuReducer(CLOSED, { type: 'settings' }), main);
  assert.equal(menuReducer(main, { type: 'settings' }), CLOSED);
  assert.equal(menuReducer({ page: 'quality' }, { type: 'settings' }), CLOSED);
  assert.equal(menuReducer(subs, { type: 'settings' }), CLOSED);
});

test('the subtitles icon opens subs or closes', () => {
  assert.equal(menuReducer(CLOSED, { type: 'subtitles' }), subs);
  assert.equal(menuReducer(subs, { type: 'subtitles' }), CLOSED);
  assert.equal(menuReducer({ page: 'playback-rate' }, { type: 'subtitles' }), CLOSED);
});

test('picking an item and a click outside close the menu', () => {
  for (const page of ['main', 'quality', 'playback-rate', 'audio-tracks', 'subs', 'episodes', 'seasons', 'variants-episode'] as const) {
    assert.equal(menuReducer({ page }, { type: 'pick' }), CLOSED);
    assert.equal(menuReducer({ page }, { type: 'outside' }), CLOSED);
  }
  assert.equal(menuReducer(CLOSED, { type: 'outside' }), CLOSED);
});

test('back returns to main, or to the given parent; back on main closes', () => {
  assert.equal(menuReducer({ page: 'quality' }, { type: 'back' }), main);
  const episodes = menuReducer({ page: 'seasons' }, { type: 'open', page: 'episodes', parent: 'seasons', season: 2 });
  assert.equal(episodes, { page: 'episodes', parent: 'seasons', season: 2 });
  assert.equal(menuReducer(episodes, { type: 'back' }), { page: 'seasons' });
  assert.equal(menuReducer(main, { type: 'back' }), CLOSED);
  assert.equal(menuReducer(CLOSED, { type: 'back' }), CLOSED);
});

test('open goes to any page', () => {
  assert.equal(menuReducer(main, { type: 'open', page: 'audio-tracks' }), { page: 'audio-tracks', parent: undefined, season: undefined });
});

test.run();
