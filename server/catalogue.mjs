// @ts-check
/**
 * The subset of the catalogue service (SPEC §7, base path /catalog-api) the player calls, answered
 * from server/catalogue.json. Every string starting with /media/ is made absolute with the request
 * origin, so a player on another origin gets working URLs. The episodes are stored out of order on
 * purpose: ordering is the player's job (SPEC §3).
 */
import fs from 'node:fs';
import { HttpError, absolutizeMedia, readJson, requestOrigin, sendEmpty, sendJson } from './http-util.mjs';
import { appendCapped } from './logs.mjs';

/**
 * @typedef {object} CatalogueData
 * @property {Array<{ id: number } & Record<string, unknown>>} contents
 * @property {Record<string, Array<{ id: number, order: number, title: string }>>} seasons  content id → seasons
 * @property {Array<{ id: number, contentId: number } & Record<string, unknown>>} episodes
 * @property {Record<string, boolean>} available  content id → may be played on any domain
 */

export const CATALOGUE_FILE = new URL('./catalogue.json', import.meta.url);

/** @returns {CatalogueData} a fresh copy, so one server's state never leaks into another's */
export function loadCatalogue() {
  return JSON.parse(fs.readFileSync(CATALOGUE_FILE, 'utf8'));
}

/**
 * Parses an id from the path or query: a positive integer written canonically.
 * @param {string | null | undefined} raw
 */
function parseId(raw) {
  if (typeof raw !== 'string' || !/^[1-9][0-9]{0,14}$/.test(raw)) throw new HttpError(400, 'bad id');
  return Number(raw);
}

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  const data = ctx.catalogue;

  /** @param {number} id */
  const findContent = (id) => {
    const content = data.contents.find((c) => c.id === id);
    if (!content) throw new HttpError(404, 'not found');
    return content;
  };

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {unknown} value
   */
  const answer = (req, res, value) => sendJson(res, 200, absolutizeMedia(value, requestOrigin(req, ctx.url())));

  router.add({
    method: 'GET',
    path: '/catalog-api/contents/:id',
    cors: 'api',
    handler({ req, res, params }) {
      answer(req, res, findContent(parseId(params.id)));
    },
  });

  router.add({
    method: 'GET',
    path: '/catalog-api/contents/:id/seasons',
    cors: 'api',
    handler({ req, res, params }) {
      const id = parseId(params.id);
      findContent(id);
      answer(req, res, data.seasons[String(id)] || []);
    },
  });

  router.add({
    method: 'GET',
    path: '/catalog-api/episodes',
    cors: 'api',
    handler({ req, res, url }) {
      const id = parseId(url.query.get('content-id'));
      findContent(id);
      answer(req, res, data.episodes.filter((e) => e.contentId === id));
    },
  });

  router.add({
    method: 'GET',
    path: '/catalog-api/contents/:id/available',
    cors: 'api',
    handler({ req, res, params, url }) {
      const id = parseId(params.id);
      if (!url.query.get('domain')) throw new HttpError(400, 'missing domain');
      findContent(id);
      answer(req, res, { available: data.available[String(id)] !== false });
    },
  });

  router.add({
    method: 'POST',
    path: '/catalog-api/contents/:id/episodes/:episodeId/time-progress',
    cors: 'api',
    async handler({ req, res, params }) {
      const contentId = parseId(params.id);
      const episodeId = parseId(params.episodeId);
      findContent(contentId);
      if (!data.episodes.some((e) => e.id === episodeId && e.contentId === contentId)) throw new HttpError(404, 'not found');
      const body = await readJson(req);
      appendCapped(ctx.state.timeProgress, { contentId, episodeId, body, time: Date.now() }, ctx.eventLogLimit);
      sendEmpty(res, 204);
    },
  });
}
