import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installDom } from '../../dom';
import { MENU_DRAG_CLOSE_PX, MENU_DRAG_END_DELAY_MS, createMenuDrag, dragCloses, dragOffset } from '../../../../src/ui/menu/menu-drag';

installDom();

const at = (clientY: number, extra: Partial<PointerEvent> = {}) =>
  ({ clientY, pointerId: 1, pointerType: 'touch', button: 0, currentTarget: null, ...extra }) as unknown as PointerEvent;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('the menu follows a drag downwards only; 48 px closes', () => {
  assert.is(dragOffset(100, 160), 60);
  assert.is(dragOffset(100, 40), 0, 'upwards does not move it');
  assert.is(dragOffset(100, Number.NaN), 0);
  assert.ok(dragCloses(MENU_DRAG_CLOSE_PX));
  assert.not.ok(dragCloses(MENU_DRAG_CLOSE_PX - 1));
});

test('a long drag slides the menu out and closes it after the 300 ms drag end delay', async () => {
  const menu = document.createElement('div');
  let closed = 0;
  const drag = createMenuDrag(() => menu, () => closed++);
  drag.onPointerDown(at(100));
  drag.onPointerMove(at(130));
  assert.is(menu.style.transform, 'translateY(30px)');
  drag.onPointerUp(at(160));
  assert.is(menu.style.opacity, '0');
  assert.match(menu.style.transition, `${MENU_DRAG_END_DELAY_MS}ms`);
  await sleep(MENU_DRAG_END_DELAY_MS / 2);
  assert.is(closed, 0, 'not before the delay');
  drag.onPointerDown(at(10)); // a press while it slides out is ignored
  await sleep(MENU_DRAG_END_DELAY_MS);
  assert.is(closed, 1);
  // And the next drag works again.
  drag.onPointerDown(at(0));
  drag.onPointerUp(at(100));
  await sleep(MENU_DRAG_END_DELAY_MS + 50);
  assert.is(closed, 2);
});

test('a short drag, a cancelled one or a right click snaps back and keeps it open; dispose drops a pending close', async () => {
  const menu = document.createElement('div');
  let closed = 0;
  const drag = createMenuDrag(() => menu, () => closed++);
  drag.onPointerDown(at(100));
  drag.onPointerUp(at(120));
  assert.is(menu.style.transform, '');
  drag.onPointerDown(at(100));
  drag.onPointerMove(at(300));
  drag.onPointerCancel(at(300));
  assert.is(menu.style.transform, '');
  drag.onPointerDown(at(100, { pointerType: 'mouse', button: 2 }));
  drag.onPointerUp(at(300));
  drag.onPointerMove(at(300));
  assert.is(menu.style.transform, '');
  drag.onPointerDown(at(100));
  drag.onPointerUp(at(300));
  drag.dispose();
  await sleep(MENU_DRAG_END_DELAY_MS + 50);
  assert.is(closed, 0);
});

test.run();
