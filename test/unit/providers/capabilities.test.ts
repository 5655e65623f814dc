// providers/capabilities.ts (issue 24): a control is offered only where the engine has its API.
// Each case is a happy-dom window given (or stripped of) exactly the APIs one engine has.
import { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectOffers } from '../../../src/providers/capabilities';

type Win = NonNullable<Parameters<typeof detectOffers>[1]>;
type Api = 'remote' | 'pip' | 'webkitPip' | 'fullscreen' | 'airplay' | 'framed';

// happy-dom's element classes are shared by its windows: each case sets or removes every API anew.
const mediaProto = new Window().HTMLMediaElement.prototype as unknown as Record<string, unknown>;
const remoteDescriptor = Object.getOwnPropertyDescriptor(mediaProto, 'remote');

/** Defines `key` on `target` when `on`, removes it otherwise. */
function toggle(target: Record<string, unknown>, key: string, on: boolean, value: unknown): void {
  if (on) Object.defineProperty(target, key, { configurable: true, writable: true, value });
  else delete target[key];
}

/** A window with the named APIs and none of the others. */
function engine(...apis: Api[]): Win {
  const w = new Window() as unknown as Win & Record<string, unknown>;
  const has = (a: Api) => apis.includes(a);
  const media = w.HTMLMediaElement.prototype as unknown as Record<string, unknown>;
  const video = w.HTMLVideoElement.prototype as unknown as Record<string, unknown>;
  const element = w.HTMLElement.prototype as unknown as Record<string, unknown>;
  const doc = w.document as unknown as Record<string, unknown>;
  if (has('remote') && remoteDescriptor) Object.defineProperty(media, 'remote', remoteDescriptor);
  else delete media.remote;
  assert.is('remote' in media, has('remote'), 'the Remote Playback API as asked');
  toggle(doc, 'pictureInPictureEnabled', has('pip'), true);
  toggle(video, 'requestPictureInPicture', has('pip'), async () => ({}));
  toggle(video, 'webkitSupportsPresentationMode', has('webkitPip'), (mode: string) => mode === 'picture-in-picture');
  toggle(video, 'webkitSetPresentationMode', has('webkitPip'), () => {});
  toggle(doc, 'fullscreenEnabled', has('fullscreen'), true);
  toggle(element, 'requestFullscreen', has('fullscreen'), async () => {});
  toggle(w, 'WebKitPlaybackTargetAvailabilityEvent', has('airplay'), class {});
  if (has('framed')) Object.defineProperty(w, 'top', { configurable: true, value: {} });
  return w;
}

test('Chromium: cast, picture-in-picture and native fullscreen; no AirPlay', () => {
  assert.equal(detectOffers(false, engine('remote', 'pip', 'fullscreen')), { cast: true, pip: true, airplay: false, fullscreen: 'native' });
});

test('Firefox: no Remote Playback API (no cast), no picture-in-picture API; fullscreen', () => {
  assert.equal(detectOffers(false, engine('fullscreen')), { cast: false, pip: false, airplay: false, fullscreen: 'native' });
});

test('WebKitGTK: no cast, no picture-in-picture of either kind; fullscreen', () => {
  const offers = detectOffers(false, engine('fullscreen'));
  assert.not.ok(offers.cast, 'no cast button');
  assert.not.ok(offers.pip, 'no picture-in-picture button');
});

test("Safari: AirPlay, and WebKit's own picture-in-picture where the standard API is missing", () => {
  assert.equal(detectOffers(false, engine('webkitPip', 'fullscreen', 'airplay')), { cast: false, pip: true, airplay: true, fullscreen: 'native' });
  // A presentation-mode setter that does not support the mode is no picture-in-picture.
  const w = engine('fullscreen');
  (w.HTMLVideoElement.prototype as unknown as Record<string, unknown>).webkitSetPresentationMode = () => {};
  (w.HTMLVideoElement.prototype as unknown as Record<string, unknown>).webkitSupportsPresentationMode = () => false;
  assert.not.ok(detectOffers(false, w).pip);
});

test('each API missing alone takes only its own control away', () => {
  const all: Api[] = ['remote', 'pip', 'fullscreen', 'airplay'];
  const full = detectOffers(false, engine(...all));
  assert.equal(full, { cast: true, pip: true, airplay: true, fullscreen: 'native' });
  const without = (api: Api) => detectOffers(false, engine(...all.filter((a) => a !== api)));
  assert.equal(without('remote'), { ...full, cast: false });
  assert.equal(without('pip'), { ...full, pip: false });
  assert.equal(without('airplay'), { ...full, airplay: false });
  assert.equal(without('fullscreen'), { ...full, fullscreen: 'none' }, 'a top-level page without fullscreen: no button');
});

test('fullscreen: stretched in a frame whose document may not go fullscreen, or when asked for (iOS in a frame)', () => {
  assert.is(detectOffers(false, engine('framed')).fullscreen, 'stretched', 'a frame without allow="fullscreen": the parent enlarges it');
  assert.is(detectOffers(false, engine('framed', 'fullscreen')).fullscreen, 'native');
  assert.is(detectOffers(true, engine('fullscreen')).fullscreen, 'stretched');
  assert.is(detectOffers(true, engine()).fullscreen, 'stretched');
});

test.run();
