// Touch screens close the settings menu by dragging its handle down, as a bottom sheet. SPEC §9:
// "Menu drag end delay 300 ms": the menu slides out over that time after the release, then closes.

export const MENU_DRAG_END_DELAY_MS = 300;
/** A release this far below the press (CSS px) closes; a shorter drag snaps back. */
export const MENU_DRAG_CLOSE_PX = 48;

/** How far the menu follows a drag: only downwards. */
export const dragOffset = (startY: number, y: number): number => (y - startY > 0 ? y - startY : 0);

export const dragCloses = (offset: number): boolean => offset >= MENU_DRAG_CLOSE_PX;

/**
 * Pointer handlers for the handle that move `menu` with the drag and, on a release far enough down,
 * slide it out and call `close` after the drag end delay. Returns them with `dispose`, which drops a
 * pending close (the menu went away first).
 */
export function createMenuDrag(menu: () => HTMLElement | null, close: () => void) {
  let startY: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const move = (offset: number, animate: boolean) => {
    const el = menu();
    if (!el) return;
    el.style.transition = animate ? `transform ${MENU_DRAG_END_DELAY_MS}ms ease-out, opacity ${MENU_DRAG_END_DELAY_MS}ms` : 'none';
    el.style.transform = offset ? `translateY(${offset}px)` : '';
  };
  const end = (e: PointerEvent, cancelled: boolean) => {
    if (startY === null) return;
    const offset = dragOffset(startY, e.clientY);
    startY = null;
    if (cancelled || !dragCloses(offset)) return move(0, true);
    const el = menu();
    move(offset + (el?.offsetHeight ?? 0), true);
    if (el) el.style.opacity = '0';
    timer = setTimeout(() => {
      timer = undefined;
      close();
    }, MENU_DRAG_END_DELAY_MS);
  };
  return {
    onPointerDown(e: PointerEvent) {
      if (timer !== undefined || (e.pointerType === 'mouse' && e.button !== 0)) return;
      startY = e.clientY;
      (e.currentTarget as Element | null)?.setPointerCapture?.(e.pointerId);
      move(0, false);
    },
    onPointerMove(e: PointerEvent) {
      if (startY !== null) move(dragOffset(startY, e.clientY), false);
    },
    onPointerUp: (e: PointerEvent) => end(e, false),
    onPointerCancel: (e: PointerEvent) => end(e, true),
    dispose() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
