// @ts-check
/**
 * /player/: the page partners embed (dist/player.html, built from static/player.html) and every
 * built asset next to it, with the caching and compression a CDN would apply.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { withAdListAttribute } from './ads.mjs';
import { HttpError, originOf, sendText } from './http-util.mjs';
import { resolveSafe, serveFile } from './static.mjs';

/**
 * The player page's Content-Security-Policy, the same wherever dist/player.html is served (this
 * server, a static host: docs/deploying.md "Content policy"; `node scripts/player-csp.mjs` prints it).
 * - Scripts, styles, fonts and frames: the page's own host only (`script-src 'self'`, spelt out so
 *   that widening another directive can never widen it), and the one inline script, the bootstrap,
 *   by the hash the build wrote (`scriptHashes`, from dist/player.csp.json): no other inline script,
 *   no eval. VPAID creatives run in the sandboxed dist/vpaid.html, under VPAID_CSP.
 * - Ads: every real ad server is another origin. The ad list and VAST are fetched (connect-src),
 *   tracking pixels are keepalive fetches (connect-src) or images (img-src), ad media plays in a
 *   <video> (media-src): all three admit any https origin. `adOrigins` adds http ones (a development
 *   ad server, e.g. http://127.0.0.1:PORT); only their origin counts.
 * - media-src blob: carries the MSE stream; media-src data: is a proven need: hls.js gives each
 *   <track> it creates src 'data:,WEBVTT' (against Chrome's captions menu and Safari dropping cues),
 *   and Chromium loads that source when it shows the tracks, as in the picture-in-picture window
 *   (e2e "picture-in-picture" in test/e2e/ads.test.ts). worker-src blob: is hls.js's and Sentry
 *   replay's worker.
 * - report-uri lets end-to-end tests see violations (srv.cspReports) instead of them passing
 *   silently in the browser console; a host without a report endpoint passes `reportUri: null`.
 * @param {{ adOrigins?: string[], reportUri?: string | null, scriptHashes?: string[] }} [options]
 */
export function playerPolicy({ adOrigins = [], reportUri = '/csp-report', scriptHashes = [] } = {}) {
  const extra = [...new Set(adOrigins.map(originOf))].map((o) => ` ${o}`).join('');
  for (const h of scriptHashes) if (!SCRIPT_HASH.test(h)) throw new TypeError(`not a script hash source: ${h}`);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    `connect-src 'self' https:${extra}`,
    `media-src 'self' blob: data: https:${extra}`,
    `img-src 'self' data: https:${extra}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    ...(reportUri ? [`report-uri ${reportUri}`] : []),
  ].join('; ');
}

const SCRIPT_HASH = /^'sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;

/** The file the build writes into dist/ (build.mjs CSP_MANIFEST): the page's inline script hashes and its meta policy. */
const CSP_MANIFEST = 'player.csp.json';

/**
 * What the build wrote about the page's policy; nothing when dist/ has no manifest (a page without an
 * inline script, as in tests).
 * @param {string} distDir
 * @returns {{ scriptHashes: string[], metaPolicy?: string }}
 */
export function readCspManifest(distDir) {
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(distDir, CSP_MANIFEST), 'utf8'));
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return { scriptHashes: [] };
    throw err;
  }
  return { scriptHashes: Array.isArray(raw?.scriptHashes) ? raw.scriptHashes : [], metaPolicy: typeof raw?.metaPolicy === 'string' ? raw.metaPolicy : undefined };
}

/**
 * This server's policy: the configured ad origins, and the ad list's own when it is on another host;
 * the bootstrap's hash as the build wrote it.
 * @param {import('./index.mjs').ServerContext} ctx
 * @param {string[]} scriptHashes
 */
function policyOf(ctx, scriptHashes) {
  const list = ctx.adListUrl ? new URL(ctx.adListUrl, ctx.url()).origin : undefined;
  return playerPolicy({ adOrigins: [...ctx.adOrigins, ...(list && list !== ctx.url() ? [list] : [])], scriptHashes });
}

/** @param {string} policy */
const withoutReporting = (policy) =>
  policy
    .split('; ')
    .filter((d) => !d.startsWith('report-uri '))
    .join('; ');

// The built page's meta copy of the policy (for static hosts that cannot send the header).
const META_POLICY = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;

/**
 * The page with its meta policy made this server's (without report-uri, which a meta policy cannot
 * carry): both are enforced, so a meta built for another deploy would refuse what this server admits
 * (its http ad servers). The header stays the source of truth.
 * @param {string} html
 * @param {string} policy
 */
function withMetaPolicy(html, policy) {
  const content = withoutReporting(policy).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return html.replace(META_POLICY, () => `<meta http-equiv="Content-Security-Policy" content="${content}">`);
}

/**
 * The page's own caching (issue 26, docs/performance.md): fresh for 5 minutes, so a viewer who comes
 * back within them (another page of the partner's site, a reload of the frame) starts without the
 * page's round trip, and a new build reaches everyone within 5 minutes. Not stale-while-revalidate:
 * Chromium does not apply it to navigations (measured: the page still waited for its revalidation). A deploy
 * keeps the previous build's hashed files that long: a page from the cache may still name them.
 */
const PAGE_CACHE_CONTROL = 'public, max-age=300';

/** @type {Map<string, Buffer>} the last pages sent, compressed (the body's hash and the coding as the key) */
const compressedPages = new Map();

/**
 * A page rewritten for this server (its meta policy, its ad list), compressed as the build's copies
 * are and revalidated by its ETag, as serveFile serves the file as built.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} html
 * @param {string} policy
 */
function sendPage(req, res, html, policy) {
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const coding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : '';
  const tag = createHash('sha256').update(html).digest('base64url').slice(0, 20);
  const key = `${tag}-${coding}`;
  let body = compressedPages.get(key);
  if (!body) {
    body = coding === 'br' ? brotliCompressSync(html) : coding === 'gzip' ? gzipSync(html) : Buffer.from(html);
    if (compressedPages.size >= 8) compressedPages.delete(/** @type {string} */ (compressedPages.keys().next().value));
    compressedPages.set(key, body);
  }
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('Cache-Control', PAGE_CACHE_CONTROL);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', `"${key}"`);
  if (String(req.headers['if-none-match'] ?? '').includes(`"${key}"`)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  if (coding) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * A player page of dist/ (player.html, or another page beside it) under the player policy. Served as
 * built when the built meta policy is this server's already; else rewritten (sendPage).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {import('./index.mjs').ServerContext} ctx
 * @param {string} file
 * @returns {Promise<boolean>} false when the file is not there
 */
async function servePlayerPage(req, res, ctx, file) {
  const { scriptHashes, metaPolicy } = readCspManifest(ctx.distDir);
  const policy = policyOf(ctx, scriptHashes);
  if (!ctx.adListUrl && (metaPolicy === undefined || metaPolicy === withoutReporting(policy))) {
    const served = await serveFile(req, res, file, { cacheControl: PAGE_CACHE_CONTROL, precompressed: true, headers: { 'Content-Security-Policy': policy } });
    if (!served) res.removeHeader('Content-Security-Policy');
    return served;
  }
  let html;
  try {
    html = await fs.promises.readFile(file, 'utf8');
  } catch {
    return false;
  }
  // A partner configures ads with a data attribute on #root; no inline script needed.
  if (ctx.adListUrl) html = withAdListAttribute(html, ctx.adListUrl);
  sendPage(req, res, withMetaPolicy(html, policy), policy);
  return true;
}

// The sandboxed VPAID frame (dist/vpaid.html) runs third-party creatives: scripts and media from any
// http(s) origin, and nothing of the player's (no same-origin rights).
export const VPAID_CSP =
  "default-src 'none'; script-src 'self' http: https:; media-src 'self' blob: http: https:; img-src 'self' data: http: https:; connect-src 'self' http: https:; report-uri /csp-report";

// esbuild's [name]-[hash] naming: the hash changes with the content, so the file may be cached forever.
const HASHED_NAME = /-[A-Z0-9]{8,}(?:\.[A-Za-z0-9]+)+$/;

/** @param {string} file */
export function isHashedName(file) {
  return HASHED_NAME.test(path.basename(file));
}

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  router.add({
    method: 'GET',
    path: '/player',
    handler({ res, url }) {
      res.statusCode = 301;
      res.setHeader('Location', `/player/${url.search}`);
      res.setHeader('Cache-Control', 'no-cache');
      res.end();
    },
  });

  router.add({
    method: 'GET',
    path: '/player/',
    async handler({ req, res }) {
      if (!(await servePlayerPage(req, res, ctx, path.join(ctx.distDir, 'player.html')))) sendText(res, 503, 'The player is not built: run `npm run build`.\n');
    },
  });

  // The page's own subresources. A module script, a modulepreload, an import() and the
  // <video crossorigin> placeholder are CORS requests, and in a frame sandboxed without
  // allow-same-origin the page's origin is opaque ('null'), so even this host is another origin to it:
  // without Access-Control-Allow-Origin the entry is refused and the frame stays empty. These files are
  // public and fetched without credentials, so `*` is right: reflecting the Origin would only matter for
  // credentialed requests, and would need `Vary: Origin`, splitting every CDN cache entry per partner.
  // The page itself (/player/ above) is a navigation, not a CORS fetch, and needs none.
  router.add({
    method: 'GET',
    path: '/player/*',
    cors: 'media',
    async handler({ req, res, params }) {
      const file = resolveSafe(ctx.distDir, params['*']);
      if (!file) throw new HttpError(404, 'Not found');
      const isVpaid = path.basename(file) === 'vpaid.html';
      const served =
        file.endsWith('.html') && !isVpaid
          ? await servePlayerPage(req, res, ctx, file)
          : await serveFile(req, res, file, {
              cacheControl: isHashedName(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
              precompressed: true,
              headers: isVpaid ? { 'Content-Security-Policy': VPAID_CSP } : {},
            });
      if (!served) {
        res.removeHeader('Vary');
        throw new HttpError(404, 'Not found');
      }
    },
  });
}
