import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PlayerParts } from '../../../src/core/player-api';
import { createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import { attachMessenger } from '../../../src/features/messenger';
import { ep } from '../content/fixtures';

function fakeWindow(ancestor: string[], referrer = '') {
  const posted: Array<[unknown, string]> = [];
  const parent = { postMessage: (m: unknown, o: string) => posted.push([m, o]) };
  let onMessage: ((e: unknown) => void) | undefined;
  const win = {
    parent,
    location: { ancestorOrigins: ancestor },
    document: { referrer },
    addEventListener: (_t: string, f: (e: unknown) => void) => (onMessage = f),
    removeEventListener: () => (onMessage = undefined),
  };
  return { win: win as unknown as Window, parent, posted, send: (e: unknown) => onMessage?.(e) };
}

function setup(ancestor = ['https://partner.ru'], referrer = '', embedOrigins: string[] = []) {
  const store = createStore();
  const bus = createBus();
  const pauses: string[] = [];
  const commands: unknown[] = [];
  bus.on('parent:command', (c) => commands.push(c));
  const parts = { store, bus, requests: { pause: (c: string) => pauses.push(c) }, config: { movieId: 2, embedOrigins } };
  const w = fakeWindow(ancestor, referrer);
  const m = attachMessenger(parts as unknown as PlayerParts, w.win);
  return { ...w, store, bus, pauses, commands, m };
}

test('outgoing messages go to the parent origin in the envelope', () => {
  const s = setup();
  const e = ep(202, 1, 2);
  s.bus.emit('content:episode-changed', { episode: e });
  s.bus.emit('content:episode-changed', { episode: e });
  s.bus.emit('content:variant-changed', { episode: e, variant: { id: 2032, title: 'B', filepath: '/b.mp4' } });
  s.bus.emit('player:fullscreen', { active: true });
  s.bus.emit('player:fullscreen', { active: false });
  s.m.post('timeProgressChanged', { currentTime: 10, duration: 60 });
  assert.equal(
    s.posted.map(([m, o]) => [(m as { type: string }).type, o]),
    [
      ['ready', 'https://partner.ru'],
      ['episodeChanged', 'https://partner.ru'],
      ['episodeVariantChanged', 'https://partner.ru'],
      ['enterFullScreen', 'https://partner.ru'],
      ['exitFullScreen', 'https://partner.ru'],
      ['timeProgressChanged', 'https://partner.ru'],
    ],
    'the same episode again (a variant switch) is not a new episodeChanged',
  );
  assert.equal(s.posted[1][0], { protocol: 'embed-player', version: 1, type: 'episodeChanged', contentId: 2, payload: { episode: e } });
  s.m.dispose();
});

test("pause from the parent pauses; foreign windows, other origins and junk are ignored", () => {
  const s = setup();
  s.send({ source: {}, origin: 'https://partner.ru', data: { actionType: 'pause' } });
  s.send({ source: s.parent, origin: 'https://evil.ru', data: { actionType: 'pause' } });
  s.send({ source: s.parent, origin: 'https://partner.ru', data: '{oops' });
  s.send({ source: s.parent, origin: 'https://partner.ru', data: { actionType: 'destroy' } });
  assert.equal(s.pauses, []);
  s.send({ source: s.parent, origin: 'https://partner.ru', data: { actionType: 'pause' } });
  assert.equal(s.pauses, ['api']);
  assert.equal(s.commands, [{ actionType: 'pause' }], 'on the bus for the ad runner');
  s.m.dispose();
});

test("unknown parent origin: posted with '*', commands still only from window.parent", () => {
  const s = setup([], '');
  s.m.post('exitFullScreen', {});
  assert.is(s.posted[0][1], '*');
  s.send({ source: s.parent, origin: 'https://any.ru', data: { actionType: 'pause' } });
  assert.equal(s.pauses, ['api']);
  s.m.dispose();
});

test('embed_origins: commands and SDK requests from another origin are ignored, with one warning per origin', () => {
  const warn = console.warn;
  const warnings: unknown[] = [];
  console.warn = (...a: unknown[]) => warnings.push(a);
  try {
    const refused = setup(['https://other.ru'], '', ['https://partner.ru']);
    refused.send({ source: refused.parent, origin: 'https://other.ru', data: { actionType: 'pause' } });
    refused.send({ source: refused.parent, origin: 'https://other.ru', data: { protocol: 'embed-player', version: 1, type: 'hello', id: 1 } });
    assert.equal(refused.pauses, []);
    assert.equal(refused.posted.map(([m]) => (m as { type: string }).type), ['ready'], 'no reply to the hello');
    assert.is(warnings.length, 1);
    refused.m.dispose();

    const listed = setup(['https://partner.ru'], '', ['https://partner.ru']);
    listed.send({ source: listed.parent, origin: 'https://partner.ru', data: { protocol: 'embed-player', version: 1, type: 'hello', id: 1 } });
    assert.equal(listed.posted.map(([m, o]) => [(m as { type: string }).type, (m as { id?: number }).id, o]), [['ready', undefined, 'https://partner.ru'], ['reply', 1, 'https://partner.ru']]);
    listed.m.dispose();
  } finally {
    console.warn = warn;
  }
});

test('not in a frame: nothing is posted, nothing accepted', () => {
  const store = createStore();
  const bus = createBus();
  let paused = 0;
  const win = {
    location: { ancestorOrigins: [] },
    document: { referrer: '' },
    addEventListener: () => {},
    removeEventListener: () => {},
  } as unknown as Window & { parent: unknown };
  (win as { parent: unknown }).parent = win;
  const m = attachMessenger({ store, bus, requests: { pause: () => paused++ }, config: {} } as unknown as PlayerParts, win);
  assert.not.throws(() => m.post('enterFullScreen', {}));
  assert.is(paused, 0);
  m.dispose();
});

test.run();
