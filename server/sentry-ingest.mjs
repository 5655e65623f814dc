// @ts-check
/**
 * POST /api/:project/envelope/: a local error-report ingest that speaks the Sentry envelope protocol,
 * so tests run the real SDK end to end (DSN `http://KEY@HOST:PORT/PROJECT`). Every item is recorded;
 * error events are also parsed into `sentryEvents`.
 */
import zlib from 'node:zlib';
import { HttpError, readBody, sendJson } from './http-util.mjs';
import { appendCapped } from './logs.mjs';

const MAX_ENVELOPE_BYTES = 8 * 1024 * 1024;

/**
 * @typedef {object} EnvelopeItem
 * @property {string} type  'event', 'transaction', 'replay_event', 'replay_recording', 'session', 'client_report', ...
 * @property {Record<string, unknown>} header
 * @property {Buffer} payload
 */

/**
 * Splits an envelope: a header line, then items made of a header line and a payload that is either
 * `length` bytes or, without a length, the rest of the line.
 * @param {Buffer} buf
 * @returns {{ header: Record<string, unknown>, items: EnvelopeItem[] }}
 */
export function parseEnvelope(buf) {
  let pos = 0;
  const line = () => {
    const nl = buf.indexOf(10, pos);
    const end = nl === -1 ? buf.length : nl;
    const out = buf.subarray(pos, end);
    pos = end + 1;
    return out;
  };
  /** @param {Buffer} b */
  const json = (b) => {
    try {
      return JSON.parse(b.toString('utf8'));
    } catch {
      throw new HttpError(400, 'malformed envelope');
    }
  };
  const header = json(line());
  /** @type {EnvelopeItem[]} */
  const items = [];
  while (pos < buf.length) {
    const raw = line();
    if (raw.length === 0) continue;
    const itemHeader = json(raw);
    if (!itemHeader || typeof itemHeader.type !== 'string') throw new HttpError(400, 'envelope item without type');
    let payload;
    if (typeof itemHeader.length === 'number') {
      if (pos + itemHeader.length > buf.length) throw new HttpError(400, 'envelope item shorter than its length');
      payload = buf.subarray(pos, pos + itemHeader.length);
      pos += itemHeader.length;
      if (buf[pos] === 10) pos += 1;
    } else {
      payload = line();
    }
    items.push({ type: itemHeader.type, header: itemHeader, payload });
  }
  return { header, items };
}

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  router.add({
    method: 'POST',
    path: '/api/:project/envelope/',
    cors: 'api',
    async handler({ req, res, params, url }) {
      // The SDK authenticates with its DSN's public key, in the query or the X-Sentry-Auth header.
      const auth = String(req.headers['x-sentry-auth'] || '');
      const key = url.query.get('sentry_key') || /sentry_key=([^,\s]+)/.exec(auth)?.[1];
      if (!key) throw new HttpError(401, 'missing sentry_key');
      let body = await readBody(req, MAX_ENVELOPE_BYTES);
      const encoding = String(req.headers['content-encoding'] || '').toLowerCase();
      if (encoding === 'gzip') body = zlib.gunzipSync(body);
      else if (encoding === 'br') body = zlib.brotliDecompressSync(body);
      const envelope = parseEnvelope(body);
      const project = params.project;
      for (const item of envelope.items) {
        appendCapped(ctx.state.sentryItems, { project, key, type: item.type, bytes: item.payload.length, time: Date.now() }, ctx.eventLogLimit);
        if (item.type === 'event') {
          let event;
          try {
            event = JSON.parse(item.payload.toString('utf8'));
          } catch {
            throw new HttpError(400, 'malformed event');
          }
          appendCapped(ctx.state.sentryEvents, { project, key, event, time: Date.now() }, ctx.eventLogLimit);
        }
      }
      sendJson(res, 200, { id: envelope.header.event_id ?? null });
    },
  });
}
