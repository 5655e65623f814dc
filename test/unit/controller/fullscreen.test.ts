import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFullscreen, shouldStretch } from '../../../src/controller/fullscreen';
import { type PlayerEvents, createBus } from '../../../src/core/bus';
import { createStore } from '../../../src/core/store';
import { installDom } from '../dom';
import { quiet } from '../fakes';

const win = (ua: string, framed: boolean, platform = 'iPhone', touch = 5) => {
  const w: Record<string, unknown> = { navigator: { userAgent: ua, platform, maxTouchPoints: touch } };
  w.self = w;
  w.top = framed ? {} : w;
  return w as unknown as Window;
};
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)';

test('iOS inside a parent frame stretches; outside a frame or elsewhere it does not', () => {
  assert.ok(shouldStretch(undefined, win(IPHONE, true)));
  assert.not.ok(shouldStretch(undefined, win(IPHONE, false)));
  assert.ok(shouldStretch(undefined, win(MAC, true, 'MacIntel', 5)), 'iPadOS reports a Mac with touch');
  assert.not.ok(shouldStretch(undefined, win(MAC, true, 'MacIntel', 0)));
});

test('fullscreen_mode forces either way', () => {
  assert.ok(shouldStretch('stretched', win(MAC, false, 'MacIntel', 0)));
  assert.not.ok(shouldStretch('native', win(IPHONE, true)));
});

function setup(mode: string | undefined) {
  const dom = installDom();
  const store = createStore();
  const bus = createBus();
  const events: Array<PlayerEvents['player:fullscreen']> = [];
  bus.on('player:fullscreen', (e) => events.push(e));
  const fs = createFullscreen(store, bus, mode);
  return { dom, store, fs, events };
}

test('stretched fullscreen toggles the store both ways and tells the bus (the parent enlarges the frame)', () => {
  const s = setup('stretched');
  s.fs.toggle(undefined);
  assert.is(s.store.stretched.value, false, 'nothing before the UI attached its container');
  const root = s.dom.document.createElement('div') as unknown as HTMLElement;
  s.fs.toggle(root);
  assert.equal([s.store.stretched.value, s.store.fullscreen.value], [true, true]);
  s.fs.toggle(root);
  assert.equal([s.store.stretched.value, s.store.fullscreen.value], [false, false]);
  assert.equal(s.events, [
    { active: true, mode: 'stretched' },
    { active: false, mode: 'stretched' },
  ]);
  s.fs.dispose();
});

test('native fullscreen asks the container; the store follows fullscreenchange; no support is only logged', async () => {
  const s = setup('native');
  const root = s.dom.document.createElement('div') as unknown as HTMLElement;
  let asked = 0;
  root.requestFullscreen = async () => void asked++;
  s.fs.toggle(root);
  assert.is(asked, 1);
  Object.defineProperty(s.dom.document, 'fullscreenElement', { configurable: true, get: () => root });
  s.dom.document.dispatchEvent(new s.dom.Event('fullscreenchange'));
  assert.ok(s.store.fullscreen.value);
  assert.equal(s.events, [{ active: true, mode: 'native' }]);
  Object.defineProperty(s.dom.document, 'fullscreenElement', { configurable: true, get: () => null });
  s.dom.document.dispatchEvent(new s.dom.Event('fullscreenchange'));
  assert.not.ok(s.store.fullscreen.value);
  (root as { requestFullscreen?: unknown }).requestFullscreen = undefined;
  const { warnings } = await quiet(() => s.fs.toggle(root));
  assert.equal(warnings.map((w) => w[0]), ['[player] no fullscreen support'], "SPEC §8 'no fullscreen support'");
  root.requestFullscreen = () => Promise.reject(new TypeError('not allowed'));
  const refused = await quiet(async () => {
    s.fs.toggle(root);
    await new Promise((r) => setTimeout(r, 0));
  });
  assert.equal(refused.warnings.map((w) => w[0]), ['[player] no fullscreen support'], 'a refusal too, never thrown');
  s.fs.dispose();
  s.dom.document.dispatchEvent(new s.dom.Event('fullscreenchange'));
  assert.is(s.events.length, 2, 'dispose stops listening');
});

test.run();
