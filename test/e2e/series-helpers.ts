// Helpers shared by the series suites: the demo partner page as the parent, and the player frame in it.
import type { Frame, Page } from 'playwright-core';
import { type Opened, open } from './harness';

export interface Envelope {
  protocol: string;
  version: number;
  type: string;
  contentId: number | null;
  payload: Record<string, unknown>;
}

export interface DemoPlayer extends Opened {
  frame: Frame;
  /** Every message the parent page received from the player, for a given content. */
  messages(contentId: number): Promise<Envelope[]>;
}

/** Opens the demo partner page and points its player frame at `src` (a /player/ address). */
export async function demo(src: string): Promise<DemoPlayer> {
  const p = await open('', { path: '/' });
  await p.page.evaluate((s) => {
    const w = window as unknown as { __messages: unknown[] };
    w.__messages = [];
    addEventListener('message', (e) => w.__messages.push(e.data));
    (document.getElementById('player') as HTMLIFrameElement).src = s;
  }, src);
  const frame = p.page.frame({ name: 'player' })!;
  await frame.waitForURL((u) => u.href.endsWith(src), { timeout: 15000 });
  return {
    ...p,
    frame,
    messages: (contentId) =>
      p.page.evaluate(
        (id) =>
          (window as unknown as { __messages: Envelope[] }).__messages.filter(
            (m) => m && m.protocol === 'embed-player' && m.contentId === id,
          ),
        contentId,
      ),
  };
}

export const currentTime = (f: Frame | Page) => f.evaluate(() => document.querySelector('video')!.currentTime);
export const isPaused = (f: Frame | Page) => f.evaluate(() => document.querySelector('video')!.paused);

export async function timeAbove(f: Frame | Page, seconds: number, timeout = 20000): Promise<void> {
  await f.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) > t, seconds, { timeout });
}

/** Wakes the auto-hidden controls so a control-bar button can be clicked. */
export async function wake(f: Frame | Page): Promise<void> {
  await f.locator('.pl').hover({ position: { x: 40, y: 40 } });
}

export const storedJson = (f: Frame | Page, key: string) =>
  f.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null'), key);
