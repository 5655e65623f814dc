/**
 * SPEC §4: on iOS inside a parent frame, fullscreen is 'stretched' (the player fills the frame and
 * the parent is asked to enlarge it), since iOS gives only the <video> native fullscreen, without
 * our controls. fullscreen_mode=stretched asks for it anywhere; native asks never to.
 */
export function shouldStretch(mode: string | undefined, win: Window = window): boolean {
  if (mode === 'stretched') return true;
  if (mode === 'native') return false;
  const nav = win.navigator;
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
  let framed: boolean;
  try {
    framed = win.self !== win.top;
  } catch {
    framed = true;
  }
  return ios && framed;
}
