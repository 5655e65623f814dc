// A Chromium driven over its DevTools pipe with no client library between: the long watch's browser
// (bench/playback-long.ts). Playwright enables the Network domain on every page it drives, with
// Chromium's default buffers: each DevTools session keeps up to 200 MB of the page's response bodies
// for `Network.getResponseBody`, in the renderer, and the renderer's memory then counts them. Measured on
// the 2-hour title, those buffers were the whole of the renderer's growth after the first minute
// (docs/performance.md, "Memory on a long watch"). Here every domain is enabled by the caller, as it
// needs it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

type Listener = (params: Record<string, unknown>, sessionId?: string) => void;

export interface PipedChromium {
  /** A DevTools command: to the browser, or to the target attached as `sessionId`. */
  send<R = Record<string, unknown>>(method: string, params?: object, sessionId?: string): Promise<R>;
  /** Listens to an event of any session; returns the unsubscribe. */
  on(method: string, listener: Listener): () => void;
  version: string;
  close(): Promise<void>;
}

/** Starts `executable` headless on a fresh profile, no window of its own, its DevTools on fds 3 and 4 (NUL-framed JSON). */
export async function launchPipedChromium(executable: string, flags: readonly string[]): Promise<PipedChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const child = spawn(executable, [...flags, '--headless', '--mute-audio', '--no-startup-window', `--user-data-dir=${profile}`, '--remote-debugging-pipe'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const pending = new Map<number, { resolve(result: unknown): void; reject(err: Error): void; method: string }>();
  const listeners = new Map<string, Set<Listener>>();
  let nextId = 1;
  let gone: Error | undefined;
  let partial = Buffer.alloc(0);
  fromBrowser.on('data', (chunk: Buffer) => {
    partial = Buffer.concat([partial, chunk]);
    for (let end = partial.indexOf(0); end >= 0; end = partial.indexOf(0)) {
      const message = JSON.parse(partial.subarray(0, end).toString('utf8')) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
        method?: string;
        params?: Record<string, unknown>;
        sessionId?: string;
      };
      partial = partial.subarray(end + 1);
      if (message.id !== undefined) {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) call?.reject(new Error(`${call.method}: ${message.error.message}`));
        else call?.resolve(message.result);
      } else if (message.method) {
        for (const listener of listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
      }
    }
  });
  child.on('exit', (code, signal) => {
    gone = new Error(`Chromium exited (${code ?? signal}): ${stderr.trim().slice(-500)}`);
    for (const call of pending.values()) call.reject(gone);
    pending.clear();
  });
  const send = <R>(method: string, params: object = {}, sessionId?: string): Promise<R> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    return new Promise<R>((resolve, reject) => pending.set(id, { resolve: resolve as (r: unknown) => void, reject, method }));
  };
  const { product } = await send<{ product: string }>('Browser.getVersion');
  return {
    send,
    on(method, listener) {
      const set = listeners.get(method) ?? listeners.set(method, new Set()).get(method)!;
      set.add(listener);
      return () => set.delete(listener);
    },
    version: product.replace(/^.*?\//, ''),
    async close() {
      if (!gone) {
        const exited = new Promise((done) => child.once('exit', done));
        await send('Browser.close').catch(() => child.kill('SIGKILL'));
        await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
        if (!gone) child.kill('SIGKILL');
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
