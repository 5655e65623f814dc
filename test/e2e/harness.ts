// Shared end-to-end setup: one reference server and one Chromium for the whole run.
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
// @ts-expect-error: plain JS
import { CHROMIUM_FLAGS } from '../../scripts/find-chromium.mjs';
// @ts-expect-error: the server is plain JS with JSDoc types
import { startServer } from '../../server/index.mjs';
import { serversQuiet, watchRequests } from '../server-quiet';

export interface Fault {
  match: string | RegExp;
  status?: number;
  delay?: number;
  stall?: boolean;
  body?: 'truncate' | 'garbage';
  times?: number;
  method?: string;
}

export interface RefServer {
  url: string;
  setFaults(f: Fault[]): void;
  clearFaults(): void;
  requests: Array<{ method: string; path: string; query: string; headers: Record<string, string>; time: number }>;
  clearRequests(): void;
  cspReports: unknown[];
  /** Pixels received by the reference ad server's /ads/track, in order. */
  adHits: Array<{ ad: string; event: string; query: Record<string, string>; time: number }>;
  /** Configures the player page's ad list (data-env-ad-list-url); undefined: no ads. */
  setAdListUrl(url: string | undefined): void;
  /** http ad origins the player page's policy admits (https ones always are). */
  setAdOrigins(origins: string[]): void;
  /** Adds a route after the built-in ones (a path none of them answers). */
  router: { add(def: { method: string; path: string | RegExp; cors?: string; handler(args: { req: import('node:http').IncomingMessage; res: import('node:http').ServerResponse; url: { query: URLSearchParams } }): void | Promise<void> }): void };
  /** Error events the local Sentry ingest received (server/sentry-ingest.mjs). */
  sentryEvents: Array<{ project: string; key: string; event: Record<string, any>; time: number }>;
  /** Successful POST /authenticator/authentication/refresh calls. */
  refreshes: Array<{ refreshToken: string; accessToken: string | null; token: string; time: number }>;
  close(): Promise<void>;
}

const CHROMIUM_ARGS = [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'];

let server: RefServer | undefined;
let browser: Browser | undefined;

/** A call of the analytics function as the page sent it with navigator.sendBeacon (`beaconAnalytics`). */
export interface BeaconedCall {
  name: string;
  fields: Record<string, unknown>;
  /** Server time of arrival, ms since epoch. */
  time: number;
}
const beacons: BeaconedCall[] = [];
const BEACON_PATH = '/e2e/analytics-beacon';

export async function boot(): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH;
  if (!executablePath) throw new Error('CHROMIUM_PATH is not set: run the end-to-end tests through `npm test`.');
  // No adListUrl: every suite runs without ads unless it asks for them (ads.test passes
  // env_ad_list_url or calls srv().setAdListUrl()).
  server = (await startServer({ port: 0, host: '127.0.0.1' })) as RefServer;
  watchRequests(server.requests);
  // Collects what `beaconAnalytics` sends: what reached the network even if the page went away.
  server.router.add({
    method: 'POST',
    path: BEACON_PATH,
    async handler({ req, res }) {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const [, name, fields] = JSON.parse(Buffer.concat(chunks).toString('utf8')) as [string, string, Record<string, unknown>];
      beacons.push({ name, fields, time: Date.now() });
      res.statusCode = 204;
      res.end();
    },
  });
  browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

export async function shutdown(): Promise<void> {
  await browser?.close().catch(() => {});
  await server?.close().catch(() => {});
}

export const srv = (): RefServer => server!;

/** The analytics calls received from pages opened with `beaconAnalytics` (cleared in place by the caller). */
export const beaconedAnalytics = (): BeaconedCall[] => beacons;

/**
 * Another reference-server instance: another origin, as a third-party ad server or CDN is. `host`
 * 'localhost' is another origin than '127.0.0.1' on the same machine. Close it when done.
 */
export async function startExtraServer(opts: { host?: string; routes?: unknown[] } = {}): Promise<RefServer> {
  const s = (await startServer({ port: 0, host: '127.0.0.1', routes: opts.routes })) as RefServer;
  watchRequests(s.requests);
  return opts.host ? { ...s, url: s.url.replace('127.0.0.1', opts.host) } : s;
}

export interface Opened {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
  /** CSP violations seen by the page itself. */
  csp: string[];
  close(): Promise<void>;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  isMobile?: boolean;
  hasTouch?: boolean;
  /** Globals set before the player's scripts run (config, timeouts). */
  globals?: Record<string, unknown>;
  /** Open the demo partner page instead of the bare player. */
  path?: string;
  /** Another address of the reference server (e.g. through an emulated link's relay). */
  origin?: string;
  /** Make the page behave like a browser whose autoplay policy refuses playback with sound. */
  refuseUnmutedAutoplay?: boolean;
  /** A script run in the page before its own (e.g. bench/playback-page.ts's PROBE, the benchmark's log of the film). */
  initScript?: string;
  /**
   * Installs a gtag-style global of this name before the page runs; its calls are kept in
   * `window.__analytics` as [command, event, fields] (read them with `analyticsCalls`).
   */
  captureAnalytics?: string;
  /**
   * Installs a gtag-style global of this name that sends each call with navigator.sendBeacon to the
   * reference server, as a real analytics function does (read them with `beaconedAnalytics`).
   */
  beaconAnalytics?: string;
  /** Cookies of the player's origin set before the page loads (e.g. authToken, refreshToken). */
  cookies?: Record<string, string>;
  /** Requests whose address matches fail from the page's first request on (none is served from a cache before). */
  abort?: RegExp;
}

export async function open(query: string, opts: OpenOptions = {}): Promise<Opened> {
  const context = await browser!.newContext({
    viewport: opts.viewport ?? { width: 960, height: 540 },
    isMobile: opts.isMobile,
    hasTouch: opts.hasTouch,
    locale: 'ru-RU',
  });
  if (opts.cookies) {
    await context.addCookies(Object.entries(opts.cookies).map(([name, value]) => ({ name, value, url: server!.url })));
  }
  if (opts.abort) await context.route(opts.abort, (route) => route.abort('failed'));
  const page = await context.newPage();
  const errors: string[] = [];
  const csp: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.exposeFunction('__cspViolation', (s: string) => csp.push(s));
  await page.addInitScript(
    ({ globals }) => {
      Object.assign(window, globals);
      // When the page's first <video> began playing (performance.now()), for tests of what waits for it.
      addEventListener('playing', () => ((window as unknown as { __firstPlaying?: number }).__firstPlaying ??= performance.now()), true);
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __cspViolation(s: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`),
      );
    },
    { globals: opts.globals ?? {} },
  );
  if (opts.initScript) await page.addInitScript(opts.initScript);
  if (opts.refuseUnmutedAutoplay) {
    await page.addInitScript(() => {
      // Only a real (trusted) click or key counts: navigator.userActivation would also count the
      // harness's own page.evaluate polling, which Playwright runs as a user gesture, so whether
      // autoplay was refused depended on which came first.
      // (No named function in here: tsx's keepNames would wrap it in a helper the page does not have.)
      let activated = false;
      for (const type of ['pointerdown', 'keydown']) {
        addEventListener(type, (e) => void (e.isTrusted && (activated = true)), true);
      }
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        if (!this.muted && !activated) {
          (window as unknown as { __refusedPlays: number }).__refusedPlays = ((window as unknown as { __refusedPlays?: number }).__refusedPlays ?? 0) + 1;
          return Promise.reject(new DOMException('play() failed because the user did not interact', 'NotAllowedError'));
        }
        return play.call(this);
      };
    });
  }
  if (opts.captureAnalytics) {
    await page.addInitScript((name) => {
      const w = window as unknown as Record<string, unknown> & { __analytics: unknown[][] };
      w.__analytics = [];
      // The 4th element: when the call was made (performance.now()).
      w[name] = (...args: unknown[]) => w.__analytics.push([...args.slice(0, 3), performance.now()]);
    }, opts.captureAnalytics);
  }
  if (opts.beaconAnalytics) {
    await page.addInitScript(
      ({ name, path }) => {
        (window as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => navigator.sendBeacon(path, JSON.stringify(args));
      },
      { name: opts.beaconAnalytics, path: BEACON_PATH },
    );
  }
  await page.goto(`${opts.origin ?? server!.url}${opts.path ?? '/player/'}${query}`);
  return { page, context, errors, csp, close: () => context.close().then(serversQuiet) };
}

/** Reads the <video> of the player page. */
export async function videoState(page: Page) {
  return page.evaluate(() => {
    const v = document.querySelector('video')!;
    const w = v as HTMLVideoElement & { webkitAudioDecodedByteCount?: number; webkitVideoDecodedByteCount?: number };
    return {
      currentTime: v.currentTime,
      paused: v.paused,
      src: v.currentSrc,
      poster: v.poster,
      readyState: v.readyState,
      audioBytes: w.webkitAudioDecodedByteCount ?? 0,
      videoBytes: w.webkitVideoDecodedByteCount ?? 0,
      videoHeight: v.videoHeight,
    };
  });
}

export async function waitForTime(page: Page, seconds: number, timeout = 20000): Promise<void> {
  await page.waitForFunction((t) => (document.querySelector('video')?.currentTime ?? 0) > t, seconds, { timeout });
}

export async function clickPlay(page: Page): Promise<void> {
  await page.locator('.pl-big-play').click({ timeout: 15000 });
}

/** The calls the page made to the function installed by `captureAnalytics`. */
export async function analyticsCalls(page: Page): Promise<Array<{ name: string; fields: Record<string, unknown>; at: number }>> {
  const calls = await page.evaluate(() => (window as unknown as { __analytics?: unknown[][] }).__analytics ?? []);
  return calls.map((c) => ({ name: String(c[1]), fields: (c[2] ?? {}) as Record<string, unknown>, at: Number(c[3]) }));
}

/**
 * Polls `check` (which may read the reference server's logs or evaluate in the page) every
 * `interval` ms until it returns something truthy, and returns that. After `timeout` ms it fails
 * with "timed out after N ms waiting for WHAT"; `what` may be a function, to put the state seen
 * at that moment in the message.
 */
export async function poll<T>(
  what: string | (() => string | Promise<string>),
  check: () => T | Promise<T>,
  { timeout = 20000, interval = 100 }: { timeout?: number; interval?: number } = {},
): Promise<NonNullable<T>> {
  const until = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) {
      throw new Error(`timed out after ${timeout} ms waiting for ${typeof what === 'string' ? what : await what()}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
