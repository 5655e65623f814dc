import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { shouldStretch } from '../../../src/controller/fullscreen';

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

test.run();
