// providers/play-intent.ts: the viewer's play and pause are followed; a reset's silent pause and a failing element's own pause are not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { watchPlayIntent } from '../../../src/providers/play-intent';

type Fake = {
  paused: boolean;
  error: { code: number } | null;
  on: Map<string, () => void>;
  addEventListener(type: string, f: () => void): void;
  removeEventListener(type: string): void;
};
const element = (paused: boolean): Fake => ({
  paused,
  error: null,
  on: new Map(),
  addEventListener(type, f) {
    this.on.set(type, f);
  },
  removeEventListener(type) {
    this.on.delete(type);
  },
});
const as = (v: Fake) => v as unknown as HTMLMediaElement;
const fire = (v: Fake, type: 'play' | 'pause') => {
  v.paused = type === 'pause';
  v.on.get(type)?.();
};

test('starts from the element: paused or playing', () => {
  assert.is(watchPlayIntent(as(element(true))).playing(), false);
  assert.is(watchPlayIntent(as(element(false))).playing(), true);
});

test("the viewer's play and pause are followed", () => {
  const v = element(true);
  const intent = watchPlayIntent(as(v));
  fire(v, 'play');
  assert.is(intent.playing(), true);
  fire(v, 'pause');
  assert.is(intent.playing(), false);
});

test('a reset (paused with no event) and a failing element pausing itself keep the film meant to play', () => {
  const v = element(true);
  const intent = watchPlayIntent(as(v));
  fire(v, 'play');
  v.paused = true; // a new MediaSource: the load algorithm sets paused and fires no pause
  assert.is(intent.playing(), true);
  v.paused = false;
  v.error = { code: 3 };
  fire(v, 'pause'); // Chromium: error, then pause
  assert.is(intent.playing(), true);
});

test('a stopped watch follows nothing', () => {
  const v = element(true);
  const intent = watchPlayIntent(as(v));
  intent.stop();
  fire(v, 'play');
  assert.is(intent.playing(), false);
});

test.run();
