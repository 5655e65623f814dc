import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Window } from 'happy-dom';
import { keptByTarget, keyAction } from '../../../src/ui/keyboard';

test('space and k toggle play', () => {
  assert.equal(keyAction({ key: ' ' }), { type: 'toggle-play' });
  assert.equal(keyAction({ key: 'k' }), { type: 'toggle-play' });
  assert.equal(keyAction({ key: 'K' }), { type: 'toggle-play' });
});

test('arrows seek 10 s and change volume by 5 %', () => {
  assert.equal(keyAction({ key: 'ArrowLeft' }), { type: 'seek-by', seconds: -10 });
  assert.equal(keyAction({ key: 'ArrowRight' }), { type: 'seek-by', seconds: 10 });
  assert.equal(keyAction({ key: 'ArrowUp' }), { type: 'volume-by', delta: 0.05 });
  assert.equal(keyAction({ key: 'ArrowDown' }), { type: 'volume-by', delta: -0.05 });
});

test('m, f, c, also on a Russian layout', () => {
  assert.equal(keyAction({ key: 'm' }), { type: 'mute' });
  assert.equal(keyAction({ key: 'ь' }), { type: 'mute' });
  assert.equal(keyAction({ key: 'f' }), { type: 'fullscreen' });
  assert.equal(keyAction({ key: 'а' }), { type: 'fullscreen' });
  assert.equal(keyAction({ key: 'c' }), { type: 'subtitles' });
  assert.equal(keyAction({ key: 'с' }), { type: 'subtitles' });
});

test('0-9 jump to 0-90 %', () => {
  for (let i = 0; i <= 9; i++) assert.equal(keyAction({ key: String(i) }), { type: 'jump', fraction: i / 10 });
});

test('other keys and modified keys are left alone', () => {
  assert.is(keyAction({ key: 'x' }), undefined);
  assert.is(keyAction({ key: 'Tab' }), undefined);
  assert.is(keyAction({ key: 'f', ctrlKey: true }), undefined);
  assert.is(keyAction({ key: 'k', metaKey: true }), undefined);
});

test('a field being typed in keeps every key, a slider its arrows, a button space and Enter', () => {
  const doc = new Window().document;
  const el = (html: string) => {
    const box = doc.createElement('div');
    box.innerHTML = html;
    return box.firstElementChild as unknown as HTMLElement;
  };
  const [text, range, button, area, link] = ['<input type="text">', '<input type="range">', '<button></button>', '<textarea></textarea>', '<a href="#">x</a>'].map(el);
  for (const key of [' ', 'k', 'm', 'f', '5', 'ArrowLeft']) {
    assert.ok(keptByTarget(text!, key), key);
    assert.ok(keptByTarget(area!, key), key);
  }
  assert.ok(keptByTarget(range!, 'ArrowLeft'));
  assert.ok(keptByTarget(range!, 'ArrowUp'));
  assert.not.ok(keptByTarget(range!, ' '));
  assert.not.ok(keptByTarget(range!, 'm'));
  assert.ok(keptByTarget(button!, ' '));
  assert.ok(keptByTarget(button!, 'Enter'));
  assert.not.ok(keptByTarget(button!, 'ArrowRight'));
  assert.not.ok(keptByTarget(button!, 'f'));
  assert.not.ok(keptByTarget(link!, ' '));
  assert.ok(keptByTarget({ localName: 'div', isContentEditable: true }, ' '));
  // By tag, not by class: an input whose wrapper another realm built (WebKit, a same-origin parent).
  assert.ok(keptByTarget(Object.create(null, { localName: { value: 'input' }, type: { value: 'text' } }), ' '));
  assert.not.ok(keptByTarget({}, ' '), 'the document itself, or no element');
});

test.run();
