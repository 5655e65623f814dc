// SPEC §4 menu state machine: none, or one page. Pure, so every transition is unit-tested.

export type MenuPage =
  | 'main'
  | 'quality'
  | 'playback-rate'
  | 'audio-tracks'
  | 'subs'
  | 'episodes'
  | 'seasons'
  | 'variants-episode';

export interface MenuState {
  page: MenuPage | null;
  /** Where back leads; main when absent. */
  parent?: MenuPage;
  /** The season the episodes page is filtered to (picked on the seasons page). */
  season?: number;
}

export type MenuAction =
  | { type: 'settings' }
  | { type: 'subtitles' }
  | { type: 'open'; page: MenuPage; parent?: MenuPage; season?: number }
  | { type: 'back' }
  | { type: 'pick' }
  | { type: 'outside' };

export const CLOSED: MenuState = { page: null };

export function menuReducer(state: MenuState, action: MenuAction): MenuState {
  switch (action.type) {
    case 'settings':
      return state.page ? CLOSED : { page: 'main' };
    case 'subtitles':
      return state.page ? CLOSED : { page: 'subs' };
    case 'open':
      return { page: action.page, parent: action.parent, season: action.season };
    case 'back':
      if (!state.page) return state;
      return state.page === 'main' ? CLOSED : { page: state.parent ?? 'main' };
    case 'pick':
    case 'outside':
      return CLOSED;
  }
}
