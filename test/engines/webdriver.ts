// A small W3C WebDriver client over fetch: the commands the journeys need, nothing else.
// W3C key values for the DOM key names the journeys press.
const KEYS: Record<string, string> = {
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Escape: '\uE00C',
  Enter: '\uE007',
  Tab: '\uE004',
  Backspace: '\uE003',
};

import { unresponsive } from './driver';

export interface Session {
  id: string;
  capabilities: Record<string, unknown>;
  command(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
  execute(script: string, args?: unknown[]): Promise<unknown>;
  /** Switches into the first iframe whose address contains `urlPart`; `undefined`: the top page. */
  switchToFrame(urlPart: string | undefined): Promise<void>;
  pointer(x: number, y: number, click: boolean): Promise<void>;
  keys(text: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * How long one command may go unanswered. Commands answer in milliseconds, and in seconds on a loaded
 * machine; WebKitGTK's page has been seen to answer none for 20 s and recover, and for good.
 */
const COMMAND_MS = 60000;

async function call(base: string, method: string, path: string, body?: unknown, timeoutMs = COMMAND_MS, giveUp?: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      // A browser that died or hangs leaves the driver's answer pending: fail the command rather than wait.
      signal: giveUp ? AbortSignal.any([AbortSignal.timeout(timeoutMs), giveUp]) : AbortSignal.timeout(timeoutMs),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw unresponsive(`answered no ${method} ${path.replace(/^\/session\/[^/]+/, '')} in ${timeoutMs / 1000} s`);
    throw err;
  }
  const json = (await res.json()) as { value: unknown };
  if (!res.ok) {
    const v = json.value as { error?: string; message?: string };
    throw new Error(`WebDriver ${method} ${path}: ${v.error}: ${v.message}`);
  }
  return json.value;
}

/** `timeoutMs`: how long the browser may take to start and connect; `giveUp`: stop waiting sooner. */
export async function newSession(base: string, capabilities: Record<string, unknown>, timeoutMs?: number, giveUp?: AbortSignal): Promise<Session> {
  const created = (await call(base, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } }, timeoutMs, giveUp)) as {
    sessionId: string;
    capabilities: Record<string, unknown>;
  };
  const prefix = `/session/${created.sessionId}`;
  const command = (method: string, path: string, body?: unknown) => call(base, method, prefix + path, body ?? (method === 'POST' ? {} : undefined));
  const execute = (script: string, args: unknown[] = []) => command('POST', '/execute/sync', { script, args });
  const perform = (actions: unknown[]) => command('POST', '/actions', { actions });
  return {
    id: created.sessionId,
    capabilities: created.capabilities,
    command,
    execute,
    async switchToFrame(urlPart) {
      // Frames are looked up from the top page, whichever frame the session is in now.
      await command('POST', '/frame', { id: null });
      if (urlPart === undefined) return;
      // By index, never by element: the driver tells a node from a plain object by `instanceof Node`
      // of the realm it runs in, and a same-origin player that read its `frameElement` made that
      // element's wrapper in the frame's realm. Returned, it failed the test and was walked as an
      // object: 'cannot serialize cyclic structures', for as long as the frame kept the wrapper.
      const index = await execute(
        'const f = Array.from(document.querySelectorAll("iframe")).find((e) => e.src.includes(arguments[0]));' +
          'for (let i = 0; f && i < window.length; i++) if (window[i] === f.contentWindow) return i;' +
          'return -1',
        [urlPart],
      );
      if (typeof index !== 'number' || index < 0) throw new Error(`webkit: no frame with ${urlPart}`);
      await command('POST', '/frame', { id: index });
    },
    async pointer(x, y, click) {
      const move = { type: 'pointerMove', duration: 0, x, y, origin: 'viewport' };
      const press = click ? [{ type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }] : [];
      await perform([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions: [move, ...press] }]);
    },
    async keys(text) {
      const values = KEYS[text] ? [KEYS[text]] : [...text];
      const actions = values.flatMap((value) => [{ type: 'keyDown', value }, { type: 'keyUp', value }]);
      await perform([{ type: 'key', id: 'keyboard', actions }]);
    },
    close: async () => void (await command('DELETE', '').catch(() => {})),
  };
}
