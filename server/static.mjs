// @ts-check
/** Static files: safe path resolution, MIME types, ETag/304, precompressed variants, byte ranges. */
import fs from 'node:fs';
import path from 'node:path';

/** @type {Record<string, string>} */
const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.ts': 'video/mp2t',
  '.aac': 'audio/aac',
  '.vtt': 'text/vtt; charset=utf-8',
  '.mpd': 'application/dash+xml',
  '.gz': 'application/gzip',
  '.br': 'application/octet-stream',
};

/** @param {string} file */
function mimeType(file) {
  // Type declarations (the partner SDK's dist/embed.d.ts) are text, not the MPEG-TS of `.ts`.
  if (/\.d\.m?ts$/i.test(file)) return 'text/plain; charset=utf-8';
  return MIME_TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';
}

/**
 * Maps a raw (percent-encoded) path below a base directory to a file path, or null when the path is
 * malformed or tries to leave the directory: `..`/`.` segments (also encoded), encoded slashes that
 * would become traversal, backslashes, NUL, absolute paths and hidden (dot) files are refused.
 * @param {string} baseDir absolute
 * @param {string} rawRest e.g. 'hls/master.m3u8' (the part after the route prefix)
 * @returns {string | null}
 */
export function resolveSafe(baseDir, rawRest) {
  let rest;
  try {
    rest = decodeURIComponent(rawRest);
  } catch {
    return null;
  }
  if (!rest || rest.includes('\0') || rest.includes('\\')) return null;
  if (rest.startsWith('/') || path.isAbsolute(rest) || /^[a-z]:/i.test(rest)) return null;
  const segments = rest.split('/');
  if (segments.some((s) => s === '' || s.startsWith('.'))) return null;
  const full = path.resolve(baseDir, ...segments);
  const rel = path.relative(baseDir, full);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return full;
}

/**
 * @param {string} file
 * @returns {Promise<fs.Stats | null>} stats of a regular file, else null
 */
async function statFile(file) {
  try {
    const st = await fs.promises.stat(file);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/**
 * Parses Accept-Encoding into the codings the client accepts (q > 0).
 * @param {string | undefined} header
 * @returns {Set<string>}
 */
function acceptedEncodings(header) {
  const out = new Set();
  if (!header) return out;
  /** @type {Map<string, number>} */
  const q = new Map();
  for (const part of header.split(',')) {
    const [name, ...paramsList] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of paramsList) {
      const [k, v] = p.trim().split('=');
      if (k === 'q') weight = Number(v);
    }
    q.set(name, Number.isFinite(weight) ? weight : 0);
  }
  for (const coding of ['br', 'gzip']) {
    const weight = q.has(coding) ? q.get(coding) : q.get('*');
    if (weight !== undefined && weight > 0) out.add(coding);
  }
  return out;
}

/**
 * Parses a Range header against a size.
 * @param {string} header
 * @param {number} size
 * @returns {{ start: number, end: number } | 'unsatisfiable' | null} null = ignore the header, send the whole file
 */
function parseRange(header, size) {
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m) return null; // malformed or several ranges: answering the full file is allowed (RFC 9110 §14.2)
  const [, a, b] = m;
  if (a === '' && b === '') return null;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(a);
  let end = b === '' ? size - 1 : Number(b);
  if (b !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  if (end >= size) end = size - 1;
  return { start, end };
}

/**
 * @param {string | undefined} header If-None-Match
 * @param {string} etag
 */
function etagMatches(header, etag) {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * @typedef {object} ServeOptions
 * @property {string} cacheControl
 * @property {boolean} [precompressed] look for `<file>.br` / `<file>.gz` and negotiate Accept-Encoding
 * @property {string} [contentType] default: from the extension
 * @property {Record<string, string>} [headers] extra headers on every answer (200, 206, 304, 416)
 */

/**
 * Serves one file with ETag/If-None-Match, Last-Modified, Range and HEAD. Returns false (and sends
 * nothing) when the file does not exist, so the caller decides what the 404 looks like.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} file absolute path
 * @param {ServeOptions} options
 * @returns {Promise<boolean>}
 */
export async function serveFile(req, res, file, options) {
  const identity = await statFile(file);
  if (!identity) return false;

  let servedFile = file;
  let stats = identity;
  let encoding = '';
  if (options.precompressed) {
    const accepted = acceptedEncodings(/** @type {string | undefined} */ (req.headers['accept-encoding']));
    for (const [coding, ext] of /** @type {const} */ ([['br', '.br'], ['gzip', '.gz']])) {
      if (!accepted.has(coding)) continue;
      const st = await statFile(file + ext);
      if (st) {
        servedFile = file + ext;
        stats = st;
        encoding = coding;
        break;
      }
    }
    res.setHeader('Vary', 'Accept-Encoding');
  }

  const etag = `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;
  const lastModified = new Date(Math.floor(stats.mtimeMs / 1000) * 1000);
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', lastModified.toUTCString());
  res.setHeader('Cache-Control', options.cacheControl);
  res.setHeader('Accept-Ranges', 'bytes');
  for (const [k, v] of Object.entries(options.headers || {})) res.setHeader(k, v);

  const inm = /** @type {string | undefined} */ (req.headers['if-none-match']);
  const ims = req.headers['if-modified-since'];
  const notModified = inm !== undefined ? etagMatches(inm, etag) : ims !== undefined && Date.parse(ims) >= lastModified.getTime();
  if (notModified) {
    res.statusCode = 304;
    res.end();
    return true;
  }

  res.setHeader('Content-Type', options.contentType || mimeType(file));
  if (encoding) res.setHeader('Content-Encoding', encoding);

  let start = 0;
  let end = stats.size - 1;
  const rangeHeader = req.headers.range;
  const ifRange = req.headers['if-range'];
  // If-Range with a stale validator means "send me the whole new file".
  const rangeAllowed = rangeHeader && (!ifRange || ifRange === etag || ifRange === lastModified.toUTCString());
  if (rangeAllowed) {
    const range = parseRange(rangeHeader, stats.size);
    if (range === 'unsatisfiable') {
      res.removeHeader('Content-Encoding');
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${stats.size}`);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      const body = 'Range not satisfiable\n';
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
      return true;
    }
    if (range) {
      ({ start, end } = range);
      res.statusCode = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${stats.size}`);
    }
  }
  const length = stats.size === 0 ? 0 : end - start + 1;
  res.setHeader('Content-Length', length);

  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return true;
  }
  await new Promise((resolve) => {
    const stream = fs.createReadStream(servedFile, { start, end });
    stream.on('error', (err) => {
      console.error('[server] read error:', servedFile, err.message);
      res.destroy();
      resolve(undefined);
    });
    stream.on('end', () => resolve(undefined));
    res.on('close', () => {
      stream.destroy();
      resolve(undefined);
    });
    stream.pipe(res);
  });
  return true;
}
