// One small, driver-neutral way to drive a page in each browser engine the player is tested in:
// Chromium through playwright-core, Firefox ESR through puppeteer-core over WebDriver BiDi, WebKitGTK's
// MiniBrowser through its W3C WebDriver (test/engines/webdriver.ts). Each engine gives the few raw
// operations below (`RawTab`); `Tab` adds what journeys need on top of them, the same in every engine.
import type { RefServer } from '../e2e/harness';

export type EngineName = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: EngineName[] = ['chromium', 'firefox', 'webkit'];

export interface Viewport {
  width: number;
  height: number;
}

/** What each engine implements: input is trusted (real pointer and key events), coordinates are the top page's. */
export interface RawTab {
  goto(url: string): Promise<void>;
  /** Evaluates a JavaScript expression (a promise is awaited) in the top page or in the first frame whose address contains `frameUrl`. */
  evaluate(expression: string, frameUrl?: string): Promise<unknown>;
  mouseMove(x: number, y: number): Promise<void>;
  mouseClick(x: number, y: number): Promise<void>;
  /** A key by its DOM `key` name: 'k', ' ', 'ArrowRight', 'Escape'… */
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
  screenshot(): Promise<Buffer>;
  setViewport(size: Viewport): Promise<void>;
  close(): Promise<void>;
  /** The page's and its frames' console warnings and errors so far, where the engine's driver hears them (not WebKit's WebDriver). */
  logged?(): string[];
}

const LINE_CHARS = 300;

/** Keeps a tab's console warnings and errors (the player's `[player] …` lines) for a failure's message. */
export function consoleKeeper(): { keep(type: string, text: string): void; logged(): string[] } {
  const lines: string[] = [];
  return {
    keep(type, text) {
      // A line, not a stack: the page's own message is what the reader needs.
      if (/^(warn|warning|error)$/.test(type)) lines.push(`${type}: ${text.split('\n')[0].slice(0, LINE_CHARS)}`);
    },
    logged: () => lines,
  };
}

export interface Engine {
  name: EngineName;
  version: string;
  /** A fresh tab with its own storage and cookies (a new context, user context or session). */
  newTab(viewport: Viewport): Promise<RawTab>;
  close(): Promise<void>;
}

const T = 20000;

/** A page in one engine, seen the same way in every engine. */
export interface Tab {
  engine: EngineName;
  raw: RawTab;
  /** The same page, evaluating and clicking inside the first frame whose address contains `urlPart`. */
  frame(urlPart: string): Tab;
  goto(url: string): Promise<void>;
  /** Reloads the page (or the frame) without waiting for the new document. */
  reload(): Promise<void>;
  /** Runs `fn(arg)` in the page and returns its (JSON) result. `fn` must not use variables from outside. */
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<Awaited<R>>;
  /** Polls `fn(arg)` in the page until it returns something truthy, and returns that. */
  waitFor<R, A = undefined>(fn: (arg: A) => R, arg?: A, timeout?: number, what?: string): Promise<NonNullable<Awaited<R>>>;
  waitForSelector(selector: string, timeout?: number): Promise<void>;
  waitForGone(selector: string, timeout?: number): Promise<void>;
  text(selector: string): Promise<string | null>;
  count(selector: string): Promise<number>;
  /** A real click at the middle of the first visible element matching `selector`. */
  click(selector: string, timeout?: number): Promise<void>;
  hover(selector: string, timeout?: number): Promise<void>;
  /** A real click at a point of the page (or of the frame). */
  clickAt(x: number, y: number): Promise<void>;
  moveTo(x: number, y: number): Promise<void>;
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
  screenshot(): Promise<Buffer>;
  setViewport(size: Viewport): Promise<void>;
  close(): Promise<void>;
}

// tsx compiles with esbuild's keepNames: a named function inside `fn` calls a `__name` helper the
// page does not have; an identity one in scope makes such functions run as written.
const expression = (fn: Function, arg: unknown) =>
  `(() => { const __name = (f) => f; return (${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)}); })()`;

/**
 * `expression` made to resolve to its JSON text: the engines whose own evaluate counts as a user
 * gesture are driven through their protocol's plain evaluate, and read that text back.
 */
export const asJson = (expression: string) => `(async () => { const v = await (${expression}); return v === undefined ? undefined : JSON.stringify(v); })()`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The error of a browser that stopped answering its driver: the journey's outcome is unknown, not failed (test/engines/journey.ts). */
export const unresponsive = (what: string): Error => Object.assign(new Error(`the browser ${what}`), { name: 'EngineUnresponsive' });
export const isUnresponsive = (err: unknown): boolean => (err as Error | undefined)?.name === 'EngineUnresponsive';

export function tabOf(engine: EngineName, raw: RawTab, frameUrl?: string): Tab {
  const evaluate = <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => raw.evaluate(expression(fn, arg), frameUrl) as Promise<Awaited<R>>;
  const waitFor = async <R, A>(fn: (arg: A) => R, arg?: A, timeout = T, what?: string) => {
    const until = Date.now() + timeout;
    let last: Error | undefined;
    for (;;) {
      // A frame not there yet, or a page between two documents, is only "not yet".
      const value = await evaluate(fn, arg).catch((err: Error) => {
        if (isUnresponsive(err)) throw err;
        last = err;
      });
      if (value) return value as NonNullable<Awaited<R>>;
      if (Date.now() > until) {
        const seen = last ? ` (last error: ${last.message.split('\n')[0]})` : '';
        throw new Error(`${engine}: timed out after ${timeout} ms waiting for ${what ?? fn.toString()}${arg === undefined ? '' : ` (${JSON.stringify(arg)})`}${seen}`);
      }
      await sleep(100);
    }
  };
  // The frame's offset in the top page, to turn its coordinates into the top page's.
  const offset = async () => {
    if (!frameUrl) return { x: 0, y: 0 };
    const o = await raw.evaluate(
      expression((u: string) => {
        const f = Array.from(document.querySelectorAll('iframe')).find((e) => e.src.includes(u));
        if (!f) return null;
        const r = f.getBoundingClientRect();
        return { x: r.left + f.clientLeft, y: r.top + f.clientTop };
      }, frameUrl),
    );
    if (!o) throw new Error(`${engine}: no frame with ${frameUrl}`);
    return o as { x: number; y: number };
  };
  const centre = async (selector: string, timeout: number): Promise<{ x: number; y: number }> => {
    const at = await waitFor(
      (s: string) => {
        const visible = Array.from(document.querySelectorAll(s)).find((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
        });
        if (!visible) return null;
        visible.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        const r = visible.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      },
      selector,
      timeout,
      `a visible ${selector}`,
    );
    // A list that scrolls by itself (a menu focusing the item it came back from) moves its items
    // after they are measured: the point is taken once two reads a moment apart agree.
    await sleep(100);
    const again = await evaluate((s: string) => {
      const e = Array.from(document.querySelectorAll(s)).find((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      });
      const r = e?.getBoundingClientRect();
      return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
    }, selector);
    if (!again || Math.abs(again.x - at.x) > 1 || Math.abs(again.y - at.y) > 1) return centre(selector, timeout);
    const o = await offset();
    return { x: Math.round(at.x + o.x), y: Math.round(at.y + o.y) };
  };
  return {
    engine,
    raw,
    frame: (urlPart) => tabOf(engine, raw, urlPart),
    goto: (url) => raw.goto(url),
    reload: async () => void (await evaluate(() => void setTimeout(() => location.reload()))),
    evaluate,
    waitFor,
    waitForSelector: async (selector, timeout = T) => {
      await waitFor((s: string) => !!document.querySelector(s), selector, timeout, selector);
    },
    waitForGone: async (selector, timeout = T) => {
      await waitFor((s: string) => !document.querySelector(s), selector, timeout, `${selector} to go`);
    },
    text: (selector) => evaluate((s: string) => document.querySelector(s)?.textContent ?? null, selector),
    count: (selector) => evaluate((s: string) => document.querySelectorAll(s).length, selector),
    click: async (selector, timeout = T) => {
      const { x, y } = await centre(selector, timeout);
      await raw.mouseClick(x, y);
    },
    hover: async (selector, timeout = T) => {
      const { x, y } = await centre(selector, timeout);
      await raw.mouseMove(x, y);
    },
    clickAt: async (x, y) => {
      const o = await offset();
      await raw.mouseClick(x + o.x, y + o.y);
    },
    moveTo: async (x, y) => {
      const o = await offset();
      await raw.mouseMove(x + o.x, y + o.y);
    },
    press: (key) => raw.press(key),
    type: (text) => raw.type(text),
    screenshot: () => raw.screenshot(),
    setViewport: (size) => raw.setViewport(size),
    close: () => raw.close(),
  };
}

/** Starts the named engine (its path from the environment, as scripts/find-engines.mjs sets it). */
export async function launch(name: EngineName): Promise<Engine> {
  if (name === 'chromium') return (await import('./chromium')).launchChromium();
  if (name === 'firefox') return (await import('./firefox')).launchFirefox();
  return (await import('./webkit')).launchWebKit();
}

export type { RefServer };
