import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { PlayerApi } from '../../core/player-api';
import { ruUi } from '../../i18n/ru-ui';
import { BackIcon, ChevronIcon } from '../icons-ui';
import type { UiState } from '../ui-state';
import { createMenuDrag } from './menu-drag';
import { pageGroups, pageTitle, pick } from './menu-items';

/**
 * The settings menu (SPEC §2, §4): 14rem wide, its list at most 12rem high. A pick closes it, a click
 * outside closes it, Escape closes it and gives focus back to the button that opened it.
 */
export function Menu({ player, ui }: { player: PlayerApi; ui: UiState }) {
  const state = ui.menu.value;
  const page = state.page;
  const root = useRef<HTMLDivElement>(null);
  const drag = useMemo(() => createMenuDrag(() => root.current, () => ui.dispatch({ type: 'outside' })), [ui]);
  useEffect(() => drag.dispose, [drag]);

  // Layout effect: listening from the same commit that shows the menu, so a click that follows it at
  // once (before the next frame, when a plain effect would run) still closes it.
  useLayoutEffect(() => {
    if (!page) return;
    const onDown = (e: PointerEvent) => {
      const t = e.target as Element | null;
      if (t?.closest?.('.pl-menu, [data-action="settings"], [data-action="subtitles"]')) return;
      // Its release must not also be a tap on the video; the window hears it after the target did.
      ui.swallowTap = true;
      window.addEventListener('pointerup', () => (ui.swallowTap = false), { once: true });
      ui.dispatch({ type: 'outside' });
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => document.removeEventListener('pointerdown', onDown, true);
  }, [page]);

  // Focus follows the page, on the chosen item, so keyboard users land where they were.
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const target = el.querySelector<HTMLElement>('[aria-checked="true"]') ?? el.querySelector<HTMLElement>('[data-menu-item]');
    target?.focus({ preventScroll: false });
  }, [page, state.season]);

  if (!page) return null;
  const groups = pageGroups(page, state, player.store, player.config.langOrder);
  const opener = page === 'subs' && !state.parent ? 'subtitles' : 'settings';

  const close = () => {
    ui.dispatch({ type: 'pick' });
    root.current?.ownerDocument.querySelector<HTMLElement>(`[data-action="${opener}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      e.stopPropagation();
      const items = Array.from(root.current!.querySelectorAll<HTMLElement>('button'));
      const i = items.indexOf(e.target as HTMLElement);
      items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    } else if (e.key === 'ArrowLeft' && page !== 'main') {
      e.preventDefault();
      e.stopPropagation();
      ui.dispatch({ type: 'back' });
    } else e.stopPropagation();
  };
  const choose = (value: string, opens?: string) => {
    player.bus.emit('ui:menu-click', { page, item: value });
    if (opens) return ui.dispatch({ type: 'open', page: opens as typeof page });
    const next = pick(player, page, value);
    if (next.type === 'pick') close();
    else ui.dispatch(next);
  };

  return (
    <div
      ref={root}
      class="pl-menu"
      data-menu-page={page}
      onKeyDown={onKey}
      onClick={(e) => e.stopPropagation()}
      onPointerDown={(e) => e.stopPropagation()}
    >
      {/* Touch screens only (CSS): drag down to close. */}
      <div
        class="pl-menu__handle"
        aria-hidden="true"
        onPointerDown={drag.onPointerDown}
        onPointerMove={drag.onPointerMove}
        onPointerUp={drag.onPointerUp}
        onPointerCancel={drag.onPointerCancel}
      />
      {page !== 'main' && (
        <button type="button" class="pl-menu__back" aria-label={`${ruUi.back}: ${pageTitle[page]}`} onClick={() => ui.dispatch({ type: 'back' })}>
          <BackIcon />
          <span aria-hidden="true">{pageTitle[page]}</span>
        </button>
      )}
      <div class="pl-menu__list" role="menu" aria-label={pageTitle[page]}>
        {groups.map((g, gi) => (
          <div role="group" aria-label={g.label ?? pageTitle[page]} key={gi}>
            {g.label && (
              <div class="pl-menu__group" aria-hidden="true">
                {g.label}
              </div>
            )}
            {g.items.map((item) =>
              item.opens ? (
                <button type="button" role="menuitem" class="pl-menu__item" data-menu-item={item.value} key={item.value} onClick={() => choose(item.value, item.opens)}>
                  <span class="pl-menu__label">{item.label}</span>
                  {item.detail && <span class="pl-menu__detail">{item.detail}</span>}
                  <ChevronIcon />
                </button>
              ) : (
                <button
                  type="button"
                  role="menuitemradio"
                  aria-checked={!!item.checked}
                  class="pl-menu__item"
                  data-menu-item={item.value}
                  key={item.value}
                  onClick={() => choose(item.value)}
                >
                  <span class="pl-menu__label">{item.label}</span>
                  {item.detail && <span class="pl-menu__detail">{item.detail}</span>}
                </button>
              ),
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
