// @ts-check
/** GET /: a partner page embedding the player, with a title list and a log of the player's messages. */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { HttpError, sendEmpty } from './http-util.mjs';
import { serveFile } from './static.mjs';

export const DEMO_DIR = fileURLToPath(new URL('./demo/', import.meta.url));
export const DEMO_CSP = "default-src 'self'; frame-src 'self'; img-src 'self' data:";

/**
 * @param {import('./router.mjs').Router} router
 */
export function register(router) {
  router.add({
    method: 'GET',
    path: '/',
    async handler({ req, res }) {
      const served = await serveFile(req, res, path.join(DEMO_DIR, 'index.html'), {
        cacheControl: 'no-cache',
        headers: { 'Content-Security-Policy': DEMO_CSP },
      });
      if (!served) throw new HttpError(404, 'Not found');
    },
  });

  router.add({
    method: 'GET',
    path: /^\/demo\/(?<file>demo\.js|demo\.css)$/,
    async handler({ req, res, params }) {
      const served = await serveFile(req, res, path.join(DEMO_DIR, params.file), { cacheControl: 'no-cache' });
      if (!served) throw new HttpError(404, 'Not found');
    },
  });

  // Browsers ask for it on every top-level page; an empty answer keeps their consoles free of 404s.
  router.add({
    method: 'GET',
    path: '/favicon.ico',
    handler({ res }) {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      sendEmpty(res, 204);
    },
  });
}
