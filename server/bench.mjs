// @ts-check
/**
 * /bench/...: the reference page `npm run bench` measures the player against (bench/first-frame.ts):
 * a bare hls.js page (server/bench/hls.html) and hls.js itself, the same version and full build the
 * player ships (node_modules/hls.js/dist/hls.min.mjs; the player's own dist/hls-*.js piece exports
 * its provider, not Hls). Compressed the way the player's assets are (brotli 11, else gzip), once,
 * in memory. Benchmark pages only: no player CSP applies here, and the player's is not touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { HttpError } from './http-util.mjs';
import { serveFile } from './static.mjs';

const BENCH_DIR = fileURLToPath(new URL('./bench/', import.meta.url));
const HLS_FILE = fileURLToPath(new URL('../node_modules/hls.js/dist/hls.min.mjs', import.meta.url));

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** @type {Promise<{ identity: Buffer, br: Buffer, gzip: Buffer }> | null} */
let hlsVariants = null;

function loadHls() {
  hlsVariants ??= (async () => {
    const identity = await fs.promises.readFile(HLS_FILE);
    const [br, gz] = await Promise.all([
      brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
      gzip(identity, { level: 9 }),
    ]);
    return { identity, br, gzip: gz };
  })();
  hlsVariants.catch(() => {
    hlsVariants = null;
  });
  return hlsVariants;
}

/**
 * Which of br / gzip the request accepts (q > 0), in that order of preference.
 * @param {string | undefined} header
 * @returns {'br' | 'gzip' | ''}
 */
function pickEncoding(header) {
  /** @type {Map<string, number>} */
  const q = new Map();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const weight = params.map((p) => p.trim().split('=')).find(([k]) => k === 'q');
    q.set(name, weight ? Number(weight[1]) || 0 : 1);
  }
  for (const coding of /** @type {const} */ (['br', 'gzip'])) {
    const weight = q.get(coding) ?? q.get('*');
    if (weight !== undefined && weight > 0) return coding;
  }
  return '';
}

/**
 * @param {import('./router.mjs').Router} router
 */
export function register(router) {
  router.add({
    method: 'GET',
    path: '/bench/hls.html',
    async handler({ req, res }) {
      const served = await serveFile(req, res, path.join(BENCH_DIR, 'hls.html'), { cacheControl: 'no-cache', precompressed: false });
      if (!served) throw new HttpError(404, 'Not found');
    },
  });

  router.add({
    method: 'GET',
    path: '/bench/hls.mjs',
    async handler({ req, res }) {
      let variants;
      try {
        variants = await loadHls();
      } catch {
        throw new HttpError(404, 'Not found');
      }
      const encoding = pickEncoding(/** @type {string | undefined} */ (req.headers['accept-encoding']));
      const body = encoding ? variants[encoding] : variants.identity;
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      // As a CDN serves a versioned library (the bench's returning viewer: from the cache, unasked).
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('Vary', 'Accept-Encoding');
      if (encoding) res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Length', body.length);
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  });
}
