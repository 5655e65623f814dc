// @ts-check
/** POST /csp-report: the `report-uri` of the player's Content-Security-Policy. */
import { HttpError, readJson, sendEmpty } from './http-util.mjs';
import { appendCapped } from './logs.mjs';

const ACCEPTED_TYPES = ['application/csp-report', 'application/reports+json', 'application/json'];
const MAX_REPORT_BYTES = 64 * 1024;

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  router.add({
    method: 'POST',
    path: '/csp-report',
    async handler({ req, res }) {
      const type = String(req.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
      if (!ACCEPTED_TYPES.includes(type)) throw new HttpError(415, 'unsupported report type');
      // Stored as sent: `{"csp-report": {...}}` for report-uri, an array of reports for the Reporting API.
      appendCapped(ctx.state.cspReports, await readJson(req, MAX_REPORT_BYTES), ctx.eventLogLimit);
      sendEmpty(res, 204);
    },
  });
}
