import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readMarkers } from '../../../src/content/markers';
import { quiet } from '../fakes';

test('well-formed markers are kept: the intro and the credits, in seconds', async () => {
  const { result, warnings } = await quiet(() => readMarkers({ introStart: 2, introEnd: 17, creditsStart: 48 }, 60));
  assert.equal(result, { intro: { start: 2, end: 17 }, credits: 48 });
  assert.is(warnings.length, 0);
  assert.equal(readMarkers({ introStart: 0, introEnd: 60 }, 60), { intro: { start: 0, end: 60 } }, 'an intro may end where the episode does');
  assert.equal(readMarkers({ creditsStart: 1860 }, null), { credits: 1860 }, 'no duration known: nothing to check against');
  assert.equal(readMarkers({ creditsStart: 30, extra: 'x' }), { credits: 30 });
});

test('absent markers are nothing, silently', async () => {
  for (const raw of [undefined, null, {}]) {
    const { result, warnings } = await quiet(() => readMarkers(raw, 60));
    assert.equal(result, {});
    assert.is(warnings.length, 0, String(raw));
  }
});

test('markers that are not an object are dropped with a warning', async () => {
  for (const raw of [0, 1, '', '2-17', [], [2, 17], true, NaN]) {
    const { result, warnings } = await quiet(() => readMarkers(raw, 60));
    assert.equal(result, {}, JSON.stringify(raw));
    assert.is(warnings.length, 1, JSON.stringify(raw));
  }
});

test('a malformed intro is dropped with a warning, the credits kept', async () => {
  const bad: unknown[][] = [
    [2, undefined],
    [undefined, 17],
    ['2', 17],
    [2, '17'],
    [17, 2],
    [5, 5],
    [-1, 10],
    [NaN, 10],
    [2, Infinity],
    [2, 61],
    [null, 17],
    [{}, []],
  ];
  for (const [introStart, introEnd] of bad) {
    const { result, warnings } = await quiet(() => readMarkers({ introStart, introEnd, creditsStart: 48 }, 60));
    assert.equal(result, { credits: 48 }, `${String(introStart)}..${String(introEnd)}`);
    assert.is(warnings.length, 1);
  }
});

test('a malformed credits marker is dropped with a warning, the intro kept', async () => {
  for (const creditsStart of [0, -5, 60, 75, '48', null, NaN, Infinity, 10, { at: 48 }]) {
    const { result, warnings } = await quiet(() => readMarkers({ introStart: 2, introEnd: 17, creditsStart }, 60));
    assert.equal(result, { intro: { start: 2, end: 17 } }, String(creditsStart));
    assert.is(warnings.length, 1);
  }
});

test('an object whose fields throw when read is dropped with a warning, never thrown', async () => {
  const raw = Object.defineProperty({ introEnd: 17 }, 'introStart', {
    enumerable: true,
    get() {
      throw new Error('hostile');
    },
  });
  const { result, warnings } = await quiet(() => readMarkers(raw, 60));
  assert.equal(result, {});
  assert.is(warnings.length, 1);
});

test.run();
