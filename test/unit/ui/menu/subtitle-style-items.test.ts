// The subtitles page's style choices: what it lists and checks, and what a pick does (the page as
// rendered, with its roles, labels and keys, is the engine journeys' test/engines/subtitle-style.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PlayerApi } from '../../../../src/core/player-api';
import { createStore } from '../../../../src/core/store';
import { pageGroups, pick } from '../../../../src/ui/menu/menu-items';
import { pickSubtitleStyle } from '../../../../src/ui/menu/subtitle-style-items';

function player() {
  const store = createStore();
  store.textTracks.value = [{ id: 0, label: 'Русские', language: 'ru' }];
  const asked: number[] = [];
  const requests = { setTextTrack: (id: number) => asked.push(id) };
  const p = { store, requests, config: { langOrder: [] } } as unknown as PlayerApi;
  return { p, store, asked };
}

test('the subs page: the tracks, then size, colour and background, the current ones checked', () => {
  const { store } = player();
  const groups = pageGroups('subs', { page: 'subs' }, store);
  assert.equal(groups.map((g) => g.label), [undefined, 'Размер текста', 'Цвет текста', 'Фон текста']);
  assert.equal(groups.slice(1).map((g) => g.items.map((i) => [i.value, i.label])), [
    [['size:small', 'Мелкий'], ['size:medium', 'Средний'], ['size:large', 'Крупный']],
    [['color:white', 'Белый'], ['color:yellow', 'Жёлтый']],
    [['background:none', 'Без фона'], ['background:shaded', 'Полупрозрачный'], ['background:solid', 'Сплошной']],
  ]);
  const on = () => pageGroups('subs', { page: 'subs' }, store).slice(1).map((g) => g.items.filter((i) => i.checked).map((i) => i.value));
  assert.equal(on(), [['size:medium'], ['color:white'], ['background:shaded']], 'the default until a choice');
  store.subtitleStyle.value = { size: 'large', color: 'yellow', background: 'none' };
  assert.equal(on(), [['size:large'], ['color:yellow'], ['background:none']]);
});

test('a pick sets its field and keeps the others; a track id still picks the track', () => {
  const { p, store, asked } = player();
  assert.equal(pick(p, 'subs', 'size:large'), { type: 'pick' });
  assert.equal(store.subtitleStyle.value, { size: 'large', color: 'white', background: 'shaded' });
  pick(p, 'subs', 'background:solid');
  pick(p, 'subs', 'color:yellow');
  assert.equal(store.subtitleStyle.value, { size: 'large', color: 'yellow', background: 'solid' });
  assert.equal(asked, [], 'no track request for a style');
  pick(p, 'subs', '0');
  pick(p, 'subs', '-1');
  assert.equal(asked, [0, -1]);
  assert.equal(store.subtitleStyle.value, { size: 'large', color: 'yellow', background: 'solid' });
});

test('pickSubtitleStyle: a value that names no choice changes nothing', () => {
  const { store } = player();
  for (const junk of ['', ':', 'size', 'size:', 'size:huge', 'color:large', 'font:large', 'size:large:x', '__proto__:large', 'constructor:white', 'toString:none', '0', '-1'])
    assert.not.ok(pickSubtitleStyle(store, junk), junk);
  assert.is(store.subtitleStyle.value, undefined);
});

test.run();
