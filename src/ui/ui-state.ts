import { signal } from '@preact/signals-core';
import { CLOSED, type MenuAction, type MenuState, menuReducer } from './menu/menu-state';

const TOAST_MS = 2500;

/** State of the lazy interface that is not player state: the open menu page and a short notice. */
export function createUiState() {
  const menu = signal<MenuState>(CLOSED);
  const notice = signal('');
  /** A mouse is over the controls (they then never hide). */
  const pointerOver = signal(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ui = {
    /** Set when a press closed the menu, so that its release is not also a tap on the video. */
    swallowTap: false,
    menu,
    notice,
    pointerOver,
    dispatch(action: MenuAction): void {
      menu.value = menuReducer(menu.value, action);
    },
    /** Shows a short text (e.g. 'Cast not available.') for 2.5 s. */
    notify(text: string): void {
      notice.value = text;
      clearTimeout(timer);
      timer = setTimeout(() => (notice.value = ''), TOAST_MS);
    },
  };
  return ui;
}

export type UiState = ReturnType<typeof createUiState>;
