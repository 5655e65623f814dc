import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { embeddingAddress } from '../../../src/config/embedding-address';

const href = 'https://player.example/player/?movie_id=1';

test('not in a frame: the page itself', () => {
  assert.is(embeddingAddress({ inFrame: false, ancestorOrigins: ['https://a.example'], referrer: 'https://r.example/x', href }), href);
});

test('in a frame: the referrer when it agrees with ancestorOrigins (it has the path)', () => {
  assert.is(
    embeddingAddress({ inFrame: true, ancestorOrigins: ['https://site.example'], referrer: 'https://site.example/films/1', href }),
    'https://site.example/films/1',
  );
});

test('in a frame: ancestorOrigins wins when the referrer disagrees', () => {
  assert.is(
    embeddingAddress({ inFrame: true, ancestorOrigins: ['https://site.example'], referrer: 'https://other.example/', href }),
    'https://site.example',
  );
});

test('in a frame without ancestorOrigins (Firefox): the referrer, else the page', () => {
  assert.is(embeddingAddress({ inFrame: true, referrer: 'https://site.example/p', href }), 'https://site.example/p');
  assert.is(embeddingAddress({ inFrame: true, referrer: '', href }), href);
  assert.is(embeddingAddress({ inFrame: true, ancestorOrigins: [], referrer: 'not a url', href }), href);
});

test.run();
