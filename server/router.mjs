// @ts-check
/**
 * The route table. Every feature module exports `register(router, ctx)` and adds its routes here;
 * index.mjs lists the modules. Routes are tried in the order they were added, first match wins.
 *
 * Path patterns: literal segments, `:name` (one segment, raw/undecoded, in `params.name`) and a
 * trailing `*` (the raw rest of the path, possibly empty, in `params['*']`). A RegExp is also
 * accepted; its named groups become params.
 */
import { HttpError, sendJson, sendText } from './http-util.mjs';

/**
 * How a route answers cross-origin callers.
 * - 'api': `Access-Control-Allow-Origin: *`, preflights allow the headers the player's API client sends.
 * - 'media': public files fetched without credentials (media, and the player's built assets, which a frame
 *   sandboxed without allow-same-origin fetches in CORS mode from origin 'null'):
 *   `Access-Control-Allow-Origin: *`, exposes Content-Length/Content-Range, preflights allow Range and the
 *   session headers a master descriptor is fetched with.
 * - 'vast': the caller's Origin (`null` too) with `Access-Control-Allow-Credentials: true`, as ad servers
 *   answer VAST documents, which the player fetches with credentials.
 * - 'none' (default): same-origin only.
 * @typedef {'api' | 'media' | 'vast' | 'none'} CorsKind
 */

/**
 * @typedef {object} RequestUrl
 * @property {string} pathname raw (undecoded) path, e.g. '/catalog-api/contents/1'
 * @property {string} search   '' or the query string including '?'
 * @property {URLSearchParams} query
 */

/**
 * @typedef {object} RouteArgs
 * @property {import('node:http').IncomingMessage} req
 * @property {import('node:http').ServerResponse} res
 * @property {RequestUrl} url
 * @property {Record<string, string>} params
 * @property {import('./index.mjs').ServerContext} ctx
 */

/**
 * @typedef {object} RouteDef
 * @property {string | string[]} method  'GET' also answers HEAD (Node drops the body for HEAD).
 * @property {string | RegExp} path
 * @property {CorsKind} [cors]
 * @property {boolean} [json] errors are answered as `{"error": "..."}` (default: true when cors is 'api')
 * @property {(args: RouteArgs) => void | Promise<void>} handler
 */

/**
 * @typedef {object} CompiledRoute
 * @property {Set<string>} methods
 * @property {(pathname: string) => Record<string, string> | null} test
 * @property {CorsKind} cors
 * @property {boolean} json
 * @property {(args: RouteArgs) => void | Promise<void>} handler
 */

/**
 * @typedef {object} RouteMatch
 * @property {CompiledRoute | null} route   the route that answers this method, if any
 * @property {Record<string, string>} params
 * @property {CompiledRoute | null} pathRoute the first route whose path matches, whatever the method
 * @property {string[]} allowed  methods the path answers (for 405 and preflights)
 */

const API_ALLOW_HEADERS = 'Authorization, X-Session-Context, X-XSRF-TOKEN, Content-Type';
const API_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD';
// A master descriptor (film 4's) is a JSON document on the media host, and the player fetches it
// with the API client's session headers: from another origin, or a sandboxed frame (origin 'null'),
// that GET is preflighted.
const MEDIA_ALLOW_HEADERS = 'Range, X-Session-Context, X-XSRF-TOKEN';

/**
 * @param {string | RegExp} pattern
 * @returns {(pathname: string) => Record<string, string> | null}
 */
function compilePath(pattern) {
  if (pattern instanceof RegExp) {
    return (pathname) => {
      const m = pattern.exec(pathname);
      return m ? { ...(m.groups || {}) } : null;
    };
  }
  const names = /** @type {string[]} */ ([]);
  const source = pattern
    .split('/')
    .map((seg, i, all) => {
      if (seg === '*' && i === all.length - 1) {
        names.push('*');
        return '(.*)';
      }
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const re = new RegExp(`^${source}$`);
  return (pathname) => {
    const m = re.exec(pathname);
    if (!m) return null;
    /** @type {Record<string, string>} */
    const params = {};
    names.forEach((n, i) => {
      params[n] = m[i + 1];
    });
    return params;
  };
}

export function createRouter() {
  /** @type {CompiledRoute[]} */
  const routes = [];

  return {
    /** @param {RouteDef} def */
    add(def) {
      const methods = new Set((Array.isArray(def.method) ? def.method : [def.method]).map((m) => m.toUpperCase()));
      if (methods.has('GET')) methods.add('HEAD');
      const cors = def.cors || 'none';
      routes.push({ methods, test: compilePath(def.path), cors, json: def.json ?? cors === 'api', handler: def.handler });
    },

    /**
     * @param {string} method
     * @param {string} pathname
     * @returns {RouteMatch | null} null when no route has this path
     */
    match(method, pathname) {
      /** @type {RouteMatch | null} */
      let found = null;
      const allowed = new Set();
      for (const route of routes) {
        const params = route.test(pathname);
        if (!params) continue;
        if (!found) found = { route: null, params, pathRoute: route, allowed: [] };
        for (const m of route.methods) allowed.add(m);
        if (!found.route && route.methods.has(method)) {
          found.route = route;
          found.params = params;
        }
      }
      if (found) found.allowed = [...allowed];
      return found;
    },
  };
}

/** @typedef {ReturnType<typeof createRouter>} Router */

/**
 * Sets the CORS headers every answer of this kind carries (normal answers and injected faults alike).
 * @param {import('node:http').ServerResponse} res
 * @param {CorsKind} kind
 * @param {string | undefined} [origin] the request's Origin header
 */
export function applyCors(res, kind, origin) {
  if (kind === 'api') {
    res.setHeader('Access-Control-Allow-Origin', '*');
    // The token refresh reads the new token from the Authorization response header (SPEC §7).
    res.setHeader('Access-Control-Expose-Headers', 'Authorization');
  } else if (kind === 'media') {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range');
  } else if (kind === 'vast') {
    // The player sends the ad server's cookies with a VAST request (src/ads/vast-load.ts), and a
    // credentialed answer may not say `*`: it names the caller, `null` for a frame sandboxed without
    // allow-same-origin. The answer differs per caller, so caches must key it on Origin.
    res.setHeader('Vary', 'Origin');
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
  }
}

/**
 * Answers a CORS preflight for a route.
 * @param {import('node:http').ServerResponse} res
 * @param {CorsKind} kind
 */
function answerPreflight(res, kind) {
  if (kind === 'api') {
    res.setHeader('Access-Control-Allow-Methods', API_ALLOW_METHODS);
    res.setHeader('Access-Control-Allow-Headers', API_ALLOW_HEADERS);
  } else {
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
    res.setHeader('Access-Control-Allow-Headers', MEDIA_ALLOW_HEADERS);
  }
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {boolean} json
 * @param {number} status
 * @param {string} message
 * @param {Record<string, string>} [headers]
 */
function sendError(res, json, status, message, headers) {
  if (json) sendJson(res, status, { error: message }, headers);
  else sendText(res, status, `${message}\n`, headers);
}

/**
 * Runs the matched route (or answers 404/405/preflight). Handler errors become HTTP answers.
 * @param {RouteMatch | null} match
 * @param {Omit<RouteArgs, 'params'>} args
 */
export async function dispatch(match, args) {
  const { req, res } = args;
  const method = req.method || 'GET';
  if (!match) {
    sendText(res, 404, 'Not found\n');
    return;
  }
  const { route, pathRoute } = match;
  if (!route) {
    if (method === 'OPTIONS' && pathRoute && pathRoute.cors !== 'none') {
      answerPreflight(res, pathRoute.cors);
      return;
    }
    const json = pathRoute ? pathRoute.json : false;
    sendError(res, json, 405, 'method not allowed', { Allow: match.allowed.join(', ') });
    return;
  }
  try {
    await route.handler({ ...args, params: match.params });
  } catch (err) {
    if (res.headersSent || res.writableEnded) {
      res.destroy();
      return;
    }
    if (err instanceof HttpError) {
      sendError(res, route.json, err.status, err.message, err.headers);
    } else {
      console.error('[server] handler error:', err);
      sendError(res, route.json, 500, 'internal error');
    }
  }
}
