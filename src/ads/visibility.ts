/** SPEC §3 playState of the ad. */
export interface PlayState {
  isPIP: boolean;
  /** The viewer's last explicit choice (a click or a parent command); 'none' until there is one. */
  type: 'play' | 'pause' | 'none';
  isVisible: boolean;
  isClick: boolean;
  isDocumentHidden: boolean;
}

/** Intersection ratio at which the ad counts as visible (SPEC §9). */
export const VISIBILITY_THRESHOLD = 0.51;

/** SPEC §4: never while the document is hidden; else a click decides; else visibility does. */
export function shouldPlay(s: PlayState): boolean {
  if (s.isDocumentHidden) return false;
  if (s.isClick) return s.type === 'play';
  return s.isVisible || s.isPIP;
}
