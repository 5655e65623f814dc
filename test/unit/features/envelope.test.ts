import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { envelope, parentOrigin, parseCommand } from '../../../src/features/envelope';

test('the envelope is versioned and names the content', () => {
  assert.equal(envelope('timeProgressChanged', { currentTime: 12.5, duration: 60 }, 2), {
    protocol: 'embed-player',
    version: 1,
    type: 'timeProgressChanged',
    contentId: 2,
    payload: { currentTime: 12.5, duration: 60 },
  });
});

test('pause is accepted bare, as JSON text and in our envelope', () => {
  assert.equal(parseCommand({ actionType: 'pause' }), { actionType: 'pause' });
  assert.equal(parseCommand('{"actionType":"pause"}'), { actionType: 'pause' });
  assert.equal(parseCommand({ protocol: 'embed-player', version: 1, actionType: 'pause' }), { actionType: 'pause' });
  assert.equal(parseCommand({ actionType: 'pause', extra: { deep: [1, 2] } }), { actionType: 'pause' }, 'only what is read is kept');
});

test('hostile and unknown input is ignored, never thrown', () => {
  const hostile: unknown[] = [
    undefined,
    null,
    0,
    42,
    NaN,
    true,
    '',
    'pause',
    '{bad json',
    '"pause"',
    'null',
    '[{"actionType":"pause"}]',
    `{"actionType":"pause","pad":"${'x'.repeat(2000)}"}`,
    [],
    [{ actionType: 'pause' }],
    {},
    { actionType: 'PAUSE' },
    { actionType: 'play' },
    { actionType: ['pause'] },
    { actionType: { toString: () => 'pause' } },
    { action: 'pause' },
    { protocol: 'other-player', actionType: 'pause' },
    JSON.parse('{"__proto__":{"actionType":"pause"}}'),
    Object.create({ actionType: 'pause' }) as unknown,
    new Proxy({}, { get: () => { throw new Error('trap'); } }),
    Object.defineProperty({}, 'actionType', { get: () => { throw new Error('getter'); } }),
    () => 'pause',
    Symbol('pause'),
  ];
  for (const [i, h] of hostile.entries()) {
    let out: unknown = 'threw';
    assert.not.throws(() => (out = parseCommand(h)), `input ${i}`);
    assert.is(out, undefined, `input ${i} ignored`);
  }
});

test('the parent origin comes from ancestorOrigins, else the referrer, else it is unknown', () => {
  assert.is(parentOrigin({ ancestorOrigins: ['https://partner.ru'], referrer: 'https://other.ru/x' }), 'https://partner.ru');
  assert.is(parentOrigin({ ancestorOrigins: [], referrer: 'https://partner.ru/page?a=1' }), 'https://partner.ru');
  assert.is(parentOrigin({ referrer: '' }), undefined);
  assert.is(parentOrigin({ ancestorOrigins: ['null'], referrer: 'garbage' }), undefined);
});

test.run();
