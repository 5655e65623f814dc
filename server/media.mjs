// @ts-check
/**
 * /media/...: the generated HLS/MP4/VTT/poster files under server/media/ (scripts/make-media.sh),
 * plus the master descriptor of film 4 (SPEC §3), which is built per request because one of its
 * links is absolute on the origin the client used; and the generated ladder's titles (server/ladder.mjs).
 */
import { HttpError, requestOrigin, sendJson } from './http-util.mjs';
import * as ladder from './ladder.mjs';
import { resolveSafe, serveFile } from './static.mjs';

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  // Before /media/*: the ladder is not under server/media/.
  ladder.register(router, ctx);

  router.add({
    method: 'GET',
    path: '/media/film-4/descriptor.json',
    cors: 'media',
    handler({ req, res }) {
      const origin = requestOrigin(req, ctx.url());
      // One relative link (the player prefixes the descriptor's origin) and one absolute (kept as is).
      sendJson(
        res,
        200,
        {
          sources: [
            { label: 'Русский', link: '/media/desc/rus.m3u8', isDefault: true },
            { label: 'English', link: `${origin}/media/desc/eng.m3u8`, isDefault: false },
          ],
          // The stream has Russian subtitles of its own, so only the English file is offered.
          subtitles: [
            { label: 'Русские', src: '/media/hls/subs/rus.vtt', language: 'ru' },
            { label: 'English', src: '/media/hls/subs/eng.vtt', language: 'en' },
          ],
        },
        // It depends on the Host header, so it must not be cached across hosts.
        { 'Cache-Control': 'no-cache', Vary: 'Host' },
      );
    },
  });

  // Film 7's stream: the HLS master at an address without an extension, as some CDNs and media
  // proxies hand out. Only its Content-Type says what it is (the player asks with HEAD).
  router.add({
    method: 'GET',
    path: '/media/hls/master',
    cors: 'media',
    json: false,
    async handler({ req, res }) {
      const file = resolveSafe(ctx.mediaDir, 'hls/master.m3u8');
      const served = file && (await serveFile(req, res, file, { cacheControl: 'public, max-age=3600', contentType: 'application/vnd.apple.mpegurl' }));
      if (!served) throw new HttpError(404, 'Not found');
    },
  });

  router.add({
    method: 'GET',
    path: '/media/*',
    cors: 'media',
    json: false,
    async handler({ req, res, params }) {
      const file = resolveSafe(ctx.mediaDir, params['*']);
      const served = file && (await serveFile(req, res, file, { cacheControl: 'public, max-age=3600' }));
      if (!served) throw new HttpError(404, 'Not found');
    },
  });
}
