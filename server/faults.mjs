// @ts-check
/**
 * Fault injection for end-to-end tests: make a matching request fail the way real networks and
 * services fail (error status, latency, a hung answer, a cut-off body, a corrupted body).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { sendJson } from './http-util.mjs';

/**
 * @typedef {object} Fault
 * @property {string | RegExp} match a string matches when the pathname starts with it; a RegExp is tested against pathname + search
 * @property {number} [status] answer this status with `{"error":"injected fault"}`
 * @property {number} [delay] milliseconds to wait before answering (normally, or with the other fault fields)
 * @property {boolean} [stall] accept the request and never answer (the socket is destroyed on close)
 * @property {'truncate' | 'garbage'} [body] truncate: full Content-Length, half the body, then the socket is destroyed; garbage: 200 with random bytes
 * @property {number} [times] apply to the first N matching requests only
 * @property {string} [method] only requests with this method (OPTIONS preflights are skipped unless named here)
 */

/**
 * Keeps the active faults and how often each has fired. Each fault object is copied, so a test can
 * reuse one definition in several setFaults calls.
 */
export function createFaultList() {
  /** @type {{ fault: Fault, used: number }[]} */
  let active = [];
  return {
    /** @param {Fault[]} faults */
    set(faults) {
      if (!Array.isArray(faults)) throw new TypeError('setFaults expects an array of faults');
      for (const f of faults) {
        if (!f || (typeof f.match !== 'string' && !(f.match instanceof RegExp))) {
          throw new TypeError('every fault needs a match (string prefix or RegExp)');
        }
        if (f.body !== undefined && f.body !== 'truncate' && f.body !== 'garbage') {
          throw new TypeError(`unknown fault body kind: ${String(f.body)}`);
        }
      }
      active = faults.map((fault) => ({ fault: { ...fault }, used: 0 }));
    },
    clear() {
      active = [];
    },
    /**
     * Returns the first fault that applies and counts it as used.
     * @param {string} method
     * @param {string} pathname
     * @param {string} search
     * @returns {Fault | null}
     */
    take(method, pathname, search) {
      for (const entry of active) {
        const { fault } = entry;
        if (fault.times !== undefined && entry.used >= fault.times) continue;
        if (fault.method ? fault.method.toUpperCase() !== method : method === 'OPTIONS') continue;
        const hit =
          typeof fault.match === 'string'
            ? pathname.startsWith(fault.match)
            : ((fault.match.lastIndex = 0), fault.match.test(pathname + search));
        if (!hit) continue;
        entry.used += 1;
        return fault;
      }
      return null;
    },
  };
}

/**
 * Answers the injected status with a small JSON body (CORS headers were already set by the caller).
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 */
export function answerStatusFault(res, status) {
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    res.statusCode = status;
    res.end();
    return;
  }
  sendJson(res, status, { error: 'injected fault' });
}

/**
 * Lets the normal handler produce its answer into memory, then calls `done` with status, headers
 * and body instead of sending them. The handler uses the usual response API (setHeader, writeHead,
 * write, end, pipe); nothing reaches the socket until `send` is called.
 * @param {import('node:http').ServerResponse} res
 * @param {(captured: { status: number, body: Buffer }) => void} done
 * @returns {{ writeHead: (status: number) => void, write: (chunk: Buffer, cb?: () => void) => void, end: (chunk?: Buffer) => void }} the real methods
 */
export function captureResponse(res, done) {
  // The prototype methods are reached past the per-instance overrides installed below.
  const proto = /** @type {any} */ (http.ServerResponse.prototype);
  const real = {
    /** @param {number} status */
    writeHead: (status) => {
      proto.writeHead.call(res, status);
    },
    /** @param {Buffer} chunk @param {() => void} [cb] */
    write: (chunk, cb) => {
      proto.write.call(res, chunk, cb || (() => {}));
    },
    /** @param {Buffer} [chunk] */
    end: (chunk) => {
      if (chunk) proto.end.call(res, chunk);
      else proto.end.call(res);
    },
  };
  /** @type {Buffer[]} */
  const chunks = [];
  let ended = false;
  /**
   * @param {unknown} chunk
   * @param {unknown} [encoding]
   */
  const push = (chunk, encoding) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? /** @type {BufferEncoding} */ (encoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const patched = /** @type {any} */ (res);
  /**
   * @param {number} status
   * @param {unknown} [reasonOrHeaders]
   * @param {unknown} [maybeHeaders]
   */
  patched.writeHead = (status, reasonOrHeaders, maybeHeaders) => {
    res.statusCode = status;
    const headers = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
    } else if (headers && typeof headers === 'object') {
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, /** @type {any} */ (v));
    }
    return res;
  };
  /** @param {unknown[]} args */
  patched.write = (...args) => {
    push(args[0], args[1]);
    const cb = args.find((a) => typeof a === 'function');
    if (cb) process.nextTick(/** @type {() => void} */ (cb));
    return true;
  };
  /** @param {unknown[]} args */
  patched.end = (...args) => {
    if (ended) return res;
    ended = true;
    push(args[0], args[1]);
    delete patched.writeHead;
    delete patched.write;
    delete patched.end;
    done({ status: res.statusCode, body: Buffer.concat(chunks) });
    return res;
  };
  return real;
}

/**
 * Applies a body fault to the answer the normal handler produced.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {'truncate' | 'garbage'} kind
 * @param {ReturnType<typeof captureResponse>} real
 * @param {{ status: number, body: Buffer }} captured
 */
export function sendBodyFault(req, res, kind, real, captured) {
  res.removeHeader('Transfer-Encoding');
  if (kind === 'truncate') {
    // Headers promise the full body; half of it arrives, then the connection dies.
    if (req.method !== 'HEAD') res.setHeader('Content-Length', captured.body.length);
    real.writeHead(captured.status);
    const half = captured.body.subarray(0, Math.floor(captured.body.length / 2));
    if (req.method === 'HEAD' || half.length === 0) {
      res.flushHeaders();
      setImmediate(() => res.destroy());
      return;
    }
    real.write(half, () => setImmediate(() => res.destroy()));
    return;
  }
  // Garbage: a plain 200 whose body is random bytes. Validators and encodings of the real
  // representation no longer describe it, so they go.
  for (const h of ['Content-Encoding', 'Content-Range', 'ETag', 'Last-Modified']) res.removeHeader(h);
  const junk = randomBytes(Math.max(64, captured.body.length));
  res.setHeader('Content-Length', junk.length);
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/octet-stream');
  real.writeHead(200);
  real.end(junk);
}
