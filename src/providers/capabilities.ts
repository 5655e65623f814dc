// What the engine can honour of the controls that depend on it (issue 24): a control is offered only
// where its API exists. Firefox and WebKitGTK have no Remote Playback API (no cast), WebKitGTK no
// picture-in-picture, only Safari has AirPlay, and native fullscreen may be off (a frame without
// allow="fullscreen"), where the stretched mode is the fallback if a parent frame can enlarge us.
import type { Offers } from '../core/store';

type Win = Window & typeof globalThis;

/** The Remote Playback API (cast): HTMLMediaElement.prototype.remote and its RemotePlayback class. */
function canCast(win: Win): boolean {
  const proto = win.HTMLMediaElement?.prototype;
  return !!proto && 'remote' in proto && typeof (win as { RemotePlayback?: unknown }).RemotePlayback === 'function';
}

/** WebKit's own picture-in-picture (Safari before the standard API, and iOS). */
export type PresentationVideo = HTMLVideoElement & {
  webkitSupportsPresentationMode?(mode: string): boolean;
  webkitSetPresentationMode?(mode: string): void;
  webkitPresentationMode?: string;
};

/** Picture-in-picture, standard (document.pictureInPictureEnabled) or WebKit's presentation modes. */
function canPip(win: Win): boolean {
  if (!win.HTMLVideoElement) return false;
  if (win.document.pictureInPictureEnabled && 'requestPictureInPicture' in win.HTMLVideoElement.prototype) return true;
  try {
    const video = win.document.createElement('video') as PresentationVideo;
    return typeof video.webkitSetPresentationMode === 'function' && !!video.webkitSupportsPresentationMode?.('picture-in-picture');
  } catch {
    return false;
  }
}

function framed(win: Win): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true;
  }
}

/**
 * Fullscreen of the player's container where the document allows it; else, inside a frame, the
 * stretched mode (the parent is asked to enlarge the frame); else none. `stretch`: the stretched
 * mode is asked for anyway (fullscreen_mode=stretched, iOS in a frame: controller/fullscreen.ts).
 */
function fullscreenKind(win: Win, stretch: boolean): Offers['fullscreen'] {
  if (stretch) return 'stretched';
  if (win.document.fullscreenEnabled && typeof win.HTMLElement?.prototype.requestFullscreen === 'function') return 'native';
  return framed(win) ? 'stretched' : 'none';
}

export function detectOffers(stretch: boolean, win: Win = window): Offers {
  return {
    cast: canCast(win),
    pip: canPip(win),
    airplay: 'WebKitPlaybackTargetAvailabilityEvent' in win,
    fullscreen: fullscreenKind(win, stretch),
  };
}
