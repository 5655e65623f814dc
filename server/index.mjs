// @ts-check
/**
 * The reference server: the player page and its assets, the catalogue API subset, the media, the
 * demo page and the bare hls.js page `npm run bench` compares with, over plain node:http, with a
 * request log and fault injection for end-to-end tests.
 *
 * Routes live in feature modules that export `register(router, ctx)`; add a module to ROUTE_MODULES
 * to add routes. Order matters only where paths overlap (first match wins).
 */
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ads from './ads.mjs';
import * as authenticator from './authenticator.mjs';
import * as bench from './bench.mjs';
import * as catalogue from './catalogue.mjs';
import * as cspReport from './csp-report.mjs';
import * as demo from './demo.mjs';
import * as media from './media.mjs';
import * as player from './player.mjs';
import * as sentryIngest from './sentry-ingest.mjs';
import { answerStatusFault, captureResponse, createFaultList, sendBodyFault } from './faults.mjs';
import { EVENT_LOG_LIMIT, REQUEST_LOG_LIMIT, appendCapped } from './logs.mjs';
import { applyCors, createRouter, dispatch } from './router.mjs';
import { sendText } from './http-util.mjs';

/** @typedef {import('./faults.mjs').Fault} Fault */

/**
 * @typedef {object} LoggedRequest
 * @property {string} method
 * @property {string} path    raw pathname, e.g. '/catalog-api/contents/1'
 * @property {string} query   '' or the query string including '?'
 * @property {Record<string, string | string[] | undefined>} headers lowercased names
 * @property {number} time    ms since epoch
 */

/**
 * Every array below is a log capped to its newest entries (server/logs.mjs): `requests` to
 * `requestLogLimit`, the others to `eventLogLimit`.
 * @typedef {object} ServerState
 * @property {LoggedRequest[]} requests
 * @property {unknown[]} cspReports
 * @property {Array<{ contentId: number, episodeId: number, body: unknown, time: number }>} timeProgress
 * @property {import('./ads.mjs').AdHit[]} adHits tracking pixels the reference ad server received
 * @property {Array<{ project: string, key: string, event: any, time: number }>} sentryEvents error events the ingest received
 * @property {Array<{ project: string, key: string, type: string, bytes: number, time: number }>} sentryItems envelope items received
 * @property {Array<{ refreshToken: string, accessToken: string | null, token: string, time: number }>} refreshes successful token refreshes
 * @property {Set<string>} revokedRefreshTokens refresh tokens the refresh endpoint refuses
 */

/**
 * What route modules receive.
 * @typedef {object} ServerContext
 * @property {string} root      repository root (dist/ and server/media/ are resolved from it)
 * @property {string} distDir   <root>/dist
 * @property {string} mediaDir  <root>/server/media
 * @property {import('./catalogue.mjs').CatalogueData} catalogue
 * @property {ServerState} state
 * @property {() => string} url the server's own origin, e.g. 'http://127.0.0.1:8080'
 * @property {string} [adListUrl] set on the player page's #root as data-env-ad-list-url (server/player.mjs)
 * @property {string[]} adOrigins http ad origins the player page's policy admits besides any https one (server/player.mjs)
 * @property {number} eventLogLimit how many entries each log but `requests` keeps (route modules append with appendCapped)
 */

/**
 * @typedef {object} StartOptions
 * @property {number} [port]  default 0 (any free port)
 * @property {string} [host]  default '127.0.0.1'
 * @property {string} [root]  default: the repository root containing this server/ directory
 * @property {string} [distDir] default: $DIST_DIR, else <root>/dist (parallel builds each use their own)
 * @property {Fault[]} [faults]
 * @property {import('./router.mjs').RouteDef[]} [routes] extra routes, tried before the built-in ones (tests can override any path)
 * @property {string} [adListUrl] the ad list the player page is configured with (none: the player runs without ads)
 * @property {string[]} [adOrigins] ad servers, pixels and ad media on these origins are admitted by the player page's policy
 *   (https ones always are; this is for http development servers; the ad list's own origin is added by itself)
 * @property {number} [requestLogLimit] newest requests the request log keeps (default REQUEST_LOG_LIMIT, 5,000)
 * @property {number} [eventLogLimit] newest entries each other log keeps (default EVENT_LOG_LIMIT, 1,000)
 */

/**
 * @typedef {object} RunningServer
 * @property {string} url  'http://HOST:PORT', no trailing slash
 * @property {number} port
 * @property {http.Server} server
 * @property {ServerContext} ctx
 * @property {import('./router.mjs').Router} router add() appends routes after the built-in ones
 * @property {(faults: Fault[]) => void} setFaults replaces the active fault list
 * @property {() => void} clearFaults
 * @property {LoggedRequest[]} requests the newest requests received (up to requestLogLimit), in order (cleared in place)
 * @property {() => void} clearRequests
 * @property {unknown[]} cspReports parsed bodies POSTed to /csp-report
 * @property {ServerState['timeProgress']} timeProgress bodies POSTed to .../time-progress
 * @property {ServerState['adHits']} adHits tracking pixels received by /ads/track, in order
 * @property {(url: string | undefined) => void} setAdListUrl changes the ad list the player page is configured with
 * @property {(origins: string[]) => void} setAdOrigins changes the http ad origins the player page's policy admits
 * @property {ServerState['sentryEvents']} sentryEvents
 * @property {ServerState['sentryItems']} sentryItems
 * @property {ServerState['refreshes']} refreshes
 * @property {ServerState['revokedRefreshTokens']} revokedRefreshTokens
 * @property {() => Promise<void>} close closes the server and destroys every open socket, stalled ones included
 */

export const DEFAULT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Feature modules, in registration order. */
const ROUTE_MODULES = [demo, player, catalogue, media, cspReport, ads, sentryIngest, authenticator, bench];

/**
 * Splits a request target into raw pathname and search without normalising it (so traversal
 * attempts reach the route that refuses them rather than being silently rewritten).
 * @param {string} target
 */
function splitTarget(target) {
  let t = target || '/';
  if (!t.startsWith('/')) {
    // Absolute-form (proxies) or garbage.
    try {
      const u = new URL(t);
      t = u.pathname + u.search;
    } catch {
      t = '/';
    }
  }
  const q = t.indexOf('?');
  const pathname = q === -1 ? t : t.slice(0, q);
  const search = q === -1 ? '' : t.slice(q);
  return { pathname, search: search === '?' ? '' : search };
}

/**
 * @param {number | undefined} value
 * @param {number} fallback
 * @param {string} name
 */
function logLimit(value, fallback, name) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  return value;
}

/**
 * @param {StartOptions} [options]
 * @returns {Promise<RunningServer>}
 */
export async function startServer(options = {}) {
  const host = options.host ?? '127.0.0.1';
  const root = path.resolve(options.root ?? DEFAULT_ROOT);
  let origin = '';
  const requestLogLimit = logLimit(options.requestLogLimit, REQUEST_LOG_LIMIT, 'requestLogLimit');
  const eventLogLimit = logLimit(options.eventLogLimit, EVENT_LOG_LIMIT, 'eventLogLimit');

  /** @type {ServerState} */
  const state = {
    requests: [],
    cspReports: [],
    timeProgress: [],
    adHits: [],
    sentryEvents: [],
    sentryItems: [],
    refreshes: [],
    revokedRefreshTokens: new Set(),
  };
  /** @type {ServerContext} */
  const ctx = {
    root,
    distDir: path.resolve(options.distDir ?? process.env.DIST_DIR ?? path.join(root, 'dist')),
    mediaDir: path.join(root, 'server', 'media'),
    catalogue: catalogue.loadCatalogue(),
    state,
    url: () => origin,
    adListUrl: options.adListUrl || undefined,
    adOrigins: options.adOrigins ?? [],
    eventLogLimit,
  };

  const router = createRouter();
  for (const def of options.routes ?? []) router.add(def);
  for (const mod of ROUTE_MODULES) mod.register(router, ctx);

  const faults = createFaultList();
  faults.set(options.faults ?? []);

  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  let closing = false;
  /** @type {Promise<void> | null} */
  let closed = null;

  /** @param {number} ms */
  const wait = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve(undefined);
      }, ms);
      timers.add(timer);
    });

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  async function handle(req, res) {
    const method = (req.method || 'GET').toUpperCase();
    const { pathname, search } = splitTarget(req.url || '/');
    appendCapped(state.requests, { method, path: pathname, query: search, headers: { ...req.headers }, time: Date.now() }, requestLogLimit);
    res.setHeader('X-Content-Type-Options', 'nosniff');

    let query;
    try {
      query = new URLSearchParams(search);
    } catch {
      query = new URLSearchParams();
    }
    const url = { pathname, search, query };
    const match = router.match(method, pathname);
    const route = match && (match.route || match.pathRoute);
    if (route) applyCors(res, route.cors, req.headers.origin);

    const fault = faults.take(method, pathname, search);
    if (fault) {
      if (fault.delay && fault.delay > 0) await wait(fault.delay);
      if (closing || res.destroyed) return;
      if (fault.stall) return; // never answered; close() destroys the socket
      if (fault.status) {
        answerStatusFault(res, fault.status);
        return;
      }
      if (fault.body) {
        const kind = fault.body;
        const real = captureResponse(res, (captured) => sendBodyFault(req, res, kind, real, captured));
      }
    }
    await dispatch(match, { req, res, url, ctx });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error('[server] unexpected error:', err);
      if (!res.headersSent) sendText(res, 500, 'Internal error\n');
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const shownHost = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  origin = `http://${shownHost}:${address.port}`;

  /** @type {RunningServer} */
  const running = {
    url: origin,
    port: address.port,
    server,
    ctx,
    router,
    setFaults: (list) => faults.set(list),
    clearFaults: () => faults.clear(),
    requests: state.requests,
    clearRequests: () => {
      state.requests.length = 0;
    },
    cspReports: state.cspReports,
    timeProgress: state.timeProgress,
    adHits: state.adHits,
    setAdListUrl: (url) => {
      ctx.adListUrl = url || undefined;
    },
    setAdOrigins: (origins) => {
      ctx.adOrigins = origins;
    },
    sentryEvents: state.sentryEvents,
    sentryItems: state.sentryItems,
    refreshes: state.refreshes,
    revokedRefreshTokens: state.revokedRefreshTokens,
    close: () => {
      closed ??= new Promise((resolve) => {
        closing = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
  return running;
}
