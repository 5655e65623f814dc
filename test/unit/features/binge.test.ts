import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { attachBinge, playableNext } from '../../../src/controller/binge';
import type { PlayerParts } from '../../../src/controller/memory-types';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import type { Episode } from '../../../src/core/entities';
import { ep } from '../content/fixtures';

const episodes = [ep(201, 1, 1), ep(202, 1, 2), ep(204, 2, 1)];

function setup(current: number, available = true) {
  const store = createStore();
  const bus = createBus();
  store.episodes.value = episodes;
  store.episode.value = episodes.find((e) => e.id === current)!;
  store.isAvailable.value = available;
  const calls: string[] = [];
  const requests = {
    selectEpisode: (e: Episode) => {
      calls.push(`select ${e.id}`);
      return store.isAvailable.value;
    },
    play: () => calls.push('play'),
  };
  const off = attachBinge({ store, bus, requests } as unknown as PlayerParts);
  return { store, bus, calls, off };
}

test('an ended episode moves on to the next one, across seasons, and plays it', () => {
  const s = setup(202);
  s.bus.emit('media:ended', { currentTime: 60 });
  assert.equal(s.calls, ['select 204', 'play']);
  s.off();
});

test('the last episode stays where it is', () => {
  const s = setup(204);
  assert.is(playableNext(s), undefined);
  s.bus.emit('media:ended', { currentTime: 60 });
  assert.equal(s.calls, []);
});

test('moving on requires that the content is available (SPEC §5), and no error on screen', () => {
  const s = setup(201, false);
  assert.is(playableNext(s), undefined);
  s.bus.emit('media:ended', { currentTime: 3 });
  assert.equal(s.calls, []);
  const t = setup(201);
  assert.is(playableNext(t)?.id, 202);
  t.store.error.value = { type: 'blocked' } as never;
  assert.is(playableNext(t), undefined);
});

test.run();
