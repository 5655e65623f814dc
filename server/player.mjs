// @ts-check
/**
 * /player/: the page partners embed (dist/player.html, built from static/player.html) and every
 * built asset next to it, with the caching and compression a CDN would apply.
 */
import path from 'node:path';
import fs from 'node:fs';
import { withAdListAttribute } from './ads.mjs';
import { HttpError, originOf, sendText } from './http-util.mjs';
import { resolveSafe, serveFile } from './static.mjs';

/**
 * The player page's Content-Security-Policy, the same wherever dist/player.html is served (this
 * server, a static host: README "Content policy"; `node scripts/player-csp.mjs` prints it).
 * - Scripts, styles, fonts and frames: the page's own host only (`script-src 'self'`, spelt out so
 *   that widening another directive can never widen it): no inline script, no eval. VPAID creatives
 *   run in the sandboxed dist/vpaid.html, under VPAID_CSP.
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
 * @param {{ adOrigins?: string[], reportUri?: string | null }} [options]
 */
export function playerPolicy({ adOrigins = [], reportUri = '/csp-report' } = {}) {
  const extra = [...new Set(adOrigins.map(originOf))].map((o) => ` ${o}`).join('');
  return [
    "default-src 'self'",
    "script-src 'self'",
    `connect-src 'self' https:${extra}`,
    `media-src 'self' blob: data: https:${extra}`,
    `img-src 'self' data: https:${extra}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    ...(reportUri ? [`report-uri ${reportUri}`] : []),
  ].join('; ');
}

/**
 * This server's policy: the configured ad origins, and the ad list's own when it is on another host.
 * @param {import('./index.mjs').ServerContext} ctx
 */
function policyOf(ctx) {
  const list = ctx.adListUrl ? new URL(ctx.adListUrl, ctx.url()).origin : undefined;
  return playerPolicy({ adOrigins: [...ctx.adOrigins, ...(list && list !== ctx.url() ? [list] : [])] });
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
      if (ctx.adListUrl) {
        // A partner configures ads with a data attribute on #root; no inline script needed.
        let html;
        try {
          html = await fs.promises.readFile(path.join(ctx.distDir, 'player.html'), 'utf8');
        } catch {
          sendText(res, 503, 'The player is not built: run `npm run build`.\n');
          return;
        }
        res.setHeader('Content-Security-Policy', policyOf(ctx));
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(withAdListAttribute(html, ctx.adListUrl));
        return;
      }
      const served = await serveFile(req, res, path.join(ctx.distDir, 'player.html'), {
        cacheControl: 'no-cache',
        precompressed: true,
        headers: { 'Content-Security-Policy': policyOf(ctx) },
      });
      if (!served) {
        res.removeHeader('Content-Security-Policy');
        sendText(res, 503, 'The player is not built: run `npm run build`.\n');
      }
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
      const isHtml = file.endsWith('.html');
      const served = await serveFile(req, res, file, {
        cacheControl: isHashedName(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
        precompressed: true,
        headers: isHtml ? { 'Content-Security-Policy': path.basename(file) === 'vpaid.html' ? VPAID_CSP : policyOf(ctx) } : {},
      });
      if (!served) {
        res.removeHeader('Vary');
        throw new HttpError(404, 'Not found');
      }
    },
  });
}
