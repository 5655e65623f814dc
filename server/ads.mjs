// @ts-check
/**
 * The reference ad server: the ad list (SPEC §7 /ad-list.json), VAST documents for every case the
 * player must handle, a VPAID 2.0 creative, and a tracking endpoint that records every pixel so
 * tests can assert exactly which fired and in what order (srv.adHits).
 *
 *   /ad-list.json?pre=skippable,wrapper&mid=nonskippable   (defaults: pre=skippable, mid=nonskippable)
 *   /ads/vast/NAME.xml                                      NAME in VAST_NAMES
 *   /ads/track?ad=NAME&ev=EVENT[&code=…]                     204, recorded
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, requestOrigin, sendEmpty, sendJson, sendText } from './http-util.mjs';
import { appendCapped } from './logs.mjs';

const ADS_DIR = fileURLToPath(new URL('./ads/', import.meta.url));
const AD_DURATION = '00:00:06';
const LINEAR_EVENTS = ['loaded', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'pause', 'resume', 'mute', 'unmute', 'skip'];

/**
 * @typedef {object} AdHit
 * @property {string} ad    which fixture the pixel belongs to
 * @property {string} event impression, error, click, start, progress…
 * @property {Record<string, string>} query the whole query string, macros filled in by the player
 * @property {number} time
 */

/** @param {string} s */
const cdata = (s) => `<![CDATA[${s}]]>`;

/**
 * @param {string} o origin
 * @param {string} ad
 * @param {string} ev
 */
const pixel = (o, ad, ev) => `${o}/ads/track?ad=${ad}&ev=${ev}`;

/**
 * @param {string} o
 * @param {string} ad
 * @param {{ skip?: string, media?: string, params?: string, events?: string[] }} opts
 */
function inline(o, ad, opts) {
  const events = (opts.events ?? LINEAR_EVENTS)
    .map((e) => `          <Tracking event="${e}">${cdata(pixel(o, ad, e))}</Tracking>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<VAST version="4.0">
  <Ad id="${ad}-1">
    <InLine>
      <AdSystem>embed-player reference ad server</AdSystem>
      <AdTitle>${ad}</AdTitle>
      <Impression>${cdata(`${pixel(o, ad, 'impression')}&cb=[CACHEBUSTING]&ts=[TIMESTAMP]`)}</Impression>
      <Error>${cdata(`${pixel(o, ad, 'error')}&code=[ERRORCODE]`)}</Error>
      <Creatives>
        <Creative id="${ad}-creative">
          <Linear${opts.skip ? ` skipoffset="${opts.skip}"` : ''}>
            <Duration>${AD_DURATION}</Duration>
            <TrackingEvents>
${events}
              <Tracking event="progress" offset="00:00:02">${cdata(`${pixel(o, ad, 'progress')}&offset=2s`)}</Tracking>
              <Tracking event="progress" offset="50%">${cdata(`${pixel(o, ad, 'progress')}&offset=50pct`)}</Tracking>
            </TrackingEvents>
            ${opts.params ? `<AdParameters>${cdata(opts.params)}</AdParameters>` : ''}
            <VideoClicks>
              <ClickThrough>${cdata(`${o}/ads/landing?ad=${ad}`)}</ClickThrough>
              <ClickTracking>${cdata(pixel(o, ad, 'click'))}</ClickTracking>
            </VideoClicks>
            <MediaFiles>
${opts.media ?? `              <MediaFile delivery="progressive" type="video/x-flv" width="640" height="360">${cdata(`${o}/media/ads/ad.flv`)}</MediaFile>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" codec="avc1.4d401e,mp4a.40.2">${cdata(`${o}/media/ads/ad.mp4`)}</MediaFile>`}
            </MediaFiles>
          </Linear>
        </Creative>
      </Creatives>
    </InLine>
  </Ad>
</VAST>
`;
}

/**
 * @param {string} o
 * @param {string} ad
 * @param {string} next
 */
function wrapper(o, ad, next) {
  const events = ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'skip']
    .map((e) => `            <Tracking event="${e}">${cdata(pixel(o, ad, e))}</Tracking>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<VAST version="4.0">
  <Ad id="${ad}-1">
    <Wrapper>
      <AdSystem>embed-player reference ad server</AdSystem>
      <VASTAdTagURI>${cdata(`${o}/ads/vast/${next}.xml`)}</VASTAdTagURI>
      <Impression>${cdata(pixel(o, ad, 'impression'))}</Impression>
      <Error>${cdata(`${pixel(o, ad, 'error')}&code=[ERRORCODE]`)}</Error>
      <Creatives>
        <Creative>
          <Linear>
            <TrackingEvents>
${events}
            </TrackingEvents>
            <VideoClicks><ClickTracking>${cdata(pixel(o, ad, 'click'))}</ClickTracking></VideoClicks>
          </Linear>
        </Creative>
      </Creatives>
    </Wrapper>
  </Ad>
</VAST>
`;
}

/** @type {Record<string, (o: string) => string>} */
export const VAST = {
  /** Inline, skippable after 2 s. */
  skippable: (o) => inline(o, 'skippable', { skip: '00:00:02' }),
  /** Inline, no skipoffset. */
  nonskippable: (o) => inline(o, 'nonskippable', {}),
  /** A Wrapper whose VASTAdTagURI is `wrapped`: two levels, each with its own pixels. */
  wrapper: (o) => wrapper(o, 'wrapper', 'wrapped'),
  wrapped: (o) => inline(o, 'wrapped', {}),
  /** A Wrapper pointing at itself: the depth limit must end it (303). */
  'wrapper-loop': (o) => wrapper(o, 'wrapper-loop', 'wrapper-loop'),
  /** Valid media files, none of a type a browser plays (403). */
  unsupported: (o) =>
    inline(o, 'unsupported', {
      media: `              <MediaFile delivery="progressive" type="video/x-flv" width="640" height="360">${cdata(`${o}/media/ads/ad.flv`)}</MediaFile>
              <MediaFile delivery="progressive" type="application/x-shockwave-flash" width="640" height="360">${cdata(`${o}/media/ads/ad.swf`)}</MediaFile>`,
    }),
  /** Media files without width/height or URL: none counts (401). */
  'no-media': (o) =>
    inline(o, 'no-media', {
      media: `              <MediaFile delivery="progressive" type="video/mp4">${cdata(`${o}/media/ads/ad.mp4`)}</MediaFile>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"></MediaFile>`,
    }),
  /** Not XML: mismatched tags and a bare ampersand (100); its Error URL is still readable. */
  malformed: (o) => `<?xml version="1.0" encoding="UTF-8"?>
<VAST version="3.0">
  <Error>${cdata(`${pixel(o, 'malformed', 'error')}&code=[ERRORCODE]`)}</Error>
  <Ad id="malformed-1"><InLine><AdTitle>Tom & Jerry</AdTitle></Ad>
</VAST>
`,
  /** No Ad: the VAST "no ad" answer with its Error URL (901). */
  empty: (o) => `<?xml version="1.0" encoding="UTF-8"?>
<VAST version="3.0">
  <Error>${cdata(`${pixel(o, 'empty', 'error')}&code=[ERRORCODE]`)}</Error>
</VAST>
`,
  /** A VPAID 2.0 creative (server/ads/vpaid-creative.js) that plays the ad MP4 in its video slot. */
  vpaid: (o) =>
    inline(o, 'vpaid', {
      params: JSON.stringify({ mediaUrl: `${o}/media/ads/ad.mp4` }),
      media: `              <MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID" width="640" height="360">${cdata(`${o}/ads/vpaid-creative.js`)}</MediaFile>`,
    }),
  /** A VPAID creative whose script does not exist (901). */
  'vpaid-broken': (o) =>
    inline(o, 'vpaid-broken', {
      media: `              <MediaFile delivery="progressive" type="application/javascript" apiFramework="VPAID" width="640" height="360">${cdata(`${o}/ads/missing-creative.js`)}</MediaFile>`,
    }),
};

export const DEFAULT_PREROLL = ['skippable'];
export const DEFAULT_MIDROLL = ['nonskippable'];

/**
 * @param {string | null} value
 * @param {string[]} fallback
 */
function names(value, fallback) {
  if (value === null) return fallback;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of list) if (!Object.hasOwn(VAST, n)) throw new HttpError(400, `unknown VAST fixture: ${n.slice(0, 40)}`);
  return list;
}

/**
 * The player page's root with the ad list URL as a data attribute (how a partner configures it).
 * @param {string} html
 * @param {string} url
 */
export function withAdListAttribute(html, url) {
  const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return html.replace(/<div id="root"/, `<div id="root" data-env-ad-list-url="${escaped}"`);
}

/**
 * @param {import('./router.mjs').Router} router
 * @param {import('./index.mjs').ServerContext} ctx
 */
export function register(router, ctx) {
  router.add({
    method: 'GET',
    path: '/ad-list.json',
    cors: 'api',
    handler({ req, res, url }) {
      const o = requestOrigin(req, ctx.url());
      const list = (/** @type {string[]} */ n) => n.map((name) => ({ vastUrl: `${o}/ads/vast/${name}.xml` }));
      sendJson(res, 200, {
        prerollList: list(names(url.query.get('pre'), DEFAULT_PREROLL)),
        midrollList: list(names(url.query.get('mid'), DEFAULT_MIDROLL)),
      });
    },
  });

  router.add({
    method: 'GET',
    path: /^\/ads\/vast\/(?<name>[a-z-]+)\.xml$/,
    cors: 'vast',
    handler({ req, res, params }) {
      const make = Object.hasOwn(VAST, params.name) ? VAST[params.name] : undefined;
      if (!make) throw new HttpError(404, 'Not found');
      sendText(res, 200, make(requestOrigin(req, ctx.url())), { 'Content-Type': 'application/xml; charset=utf-8' });
    },
  });

  router.add({
    method: 'GET',
    path: '/ads/track',
    handler({ res, url }) {
      const query = Object.fromEntries(url.query);
      appendCapped(ctx.state.adHits, { ad: query.ad ?? '', event: query.ev ?? '', query, time: Date.now() }, ctx.eventLogLimit);
      res.setHeader('Cache-Control', 'no-store');
      sendEmpty(res);
    },
  });

  router.add({
    method: 'GET',
    path: '/ads/landing',
    handler({ res }) {
      sendText(res, 200, '<!doctype html><html lang="ru"><meta charset="utf-8"><title>Рекламодатель</title><h1>Сайт рекламодателя</h1></html>\n', {
        'Content-Type': 'text/html; charset=utf-8',
      });
    },
  });

  router.add({
    method: 'GET',
    path: '/ads/vpaid-creative.js',
    cors: 'media',
    async handler({ res }) {
      const script = await fs.promises.readFile(path.join(ADS_DIR, 'vpaid-creative.js'), 'utf8');
      sendText(res, 200, script, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' });
    },
  });
}
