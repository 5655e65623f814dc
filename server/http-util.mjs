// @ts-check
/** Small helpers shared by every route module: errors, JSON/text answers, bodies, origins. */

/** An error that carries the HTTP status to answer with. Thrown by handlers, answered by the router. */
export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {Record<string, string>} [headers]
   */
  constructor(status, message, headers) {
    super(message);
    this.status = status;
    this.headers = headers || {};
  }
}

/** Request bodies larger than this are refused with 413. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} data
 * @param {Record<string, string>} [headers]
 */
export function sendJson(res, status, data, headers) {
  const body = Buffer.from(JSON.stringify(data), 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers || {})) res.setHeader(k, v);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} [headers]
 */
export function sendText(res, status, text, headers) {
  const body = Buffer.from(text, 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
  for (const [k, v] of Object.entries(headers || {})) res.setHeader(k, v);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} [status]
 */
export function sendEmpty(res, status = 204) {
  res.statusCode = status;
  res.end();
}

/**
 * Reads the whole request body, refusing more than `limit` bytes with a 413 HttpError.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} [limit]
 * @returns {Promise<Buffer>}
 */
export function readBody(req, limit = MAX_BODY_BYTES) {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      // Node drains the unread rest after the answer, so the client still reads the 413.
      reject(new HttpError(413, 'request body too large', { Connection: 'close' }));
      return;
    }
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    let over = false;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(new HttpError(413, 'request body too large', { Connection: 'close' }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/**
 * Parses a JSON request body; malformed JSON is a 400.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} [limit]
 * @returns {Promise<unknown>}
 */
export async function readJson(req, limit) {
  const buf = await readBody(req, limit);
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    throw new HttpError(400, 'malformed JSON body');
  }
}

// host[:port] where host is a DNS name, an IPv4 address or a bracketed IPv6 address.
const HOST_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin used for absolute URLs in answers: the Host the client asked for when it is plausible,
 * else the server's own address (a forged Host must not be able to inject arbitrary text).
 * @param {import('node:http').IncomingMessage} req
 * @param {string} fallback e.g. 'http://127.0.0.1:8080'
 */
export function requestOrigin(req, fallback) {
  const host = req.headers.host;
  if (typeof host === 'string' && host.length <= 261 && HOST_RE.test(host)) return `http://${host}`;
  return fallback;
}

/**
 * Returns a deep copy of `value` in which every string starting with `/media/` is prefixed with
 * `origin`, so a player on another origin receives working media URLs.
 * @template T
 * @param {T} value
 * @param {string} origin
 * @returns {T}
 */
export function absolutizeMedia(value, origin) {
  if (typeof value === 'string') {
    return /** @type {T} */ (/** @type {unknown} */ (value.startsWith('/media/') ? origin + value : value));
  }
  if (Array.isArray(value)) return /** @type {T} */ (/** @type {unknown} */ (value.map((v) => absolutizeMedia(v, origin))));
  if (value && typeof value === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = absolutizeMedia(v, origin);
    return /** @type {T} */ (/** @type {unknown} */ (out));
  }
  return value;
}

/**
 * The origin of an http(s) address; anything else is a configuration mistake, said at once.
 * @param {string} address
 */
export function originOf(address) {
  let url;
  try {
    url = new URL(address);
  } catch {
    throw new TypeError(`not an absolute address: ${address}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`not an http(s) address: ${address}`);
  return url.origin;
}
