// @ts-check
/**
 * The reference ad server: the ad list (SPEC §7 /ad-list.json), VAST documents for every case the
 * player must handle, a VPAID 2.0 creative, and a tracking endpoint that records every pixel so
 * tests can assert exactly which fired and in what order (srv.adHits).
 *
 *   /ad-list.json?pre=skippable,wrapper&mid=nonskippable   (defaults: pre=skippable, mid=nonskippable)
 *     &vast_origin=http://ads.example:9000                  the VAST URLs on that ad server (default: the list's own origin)
 *   /ads/vast/NAME.xml                                      NAME in VAST_NAMES
 *   /ads/track?ad=NAME&ev=EVENT[&code=…]                     204, recorded
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError, originOf, requestOrigin, sendEmpty, sendJson, sendText } from './http-util.mjs';
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
 * One linear InLine <Ad> whose every pixel names `ad`.
 * @param {string} o
 * @param {string} ad
 * @param {AdOpts} opts
 */
function inlineAd(o, ad, opts) {
  const events = (opts.events ?? LINEAR_EVENTS)
    .map((e) => `          <Tracking event="${e}">${cdata(pixel(o, ad, e))}</Tracking>`)
    .join('\n');
  return `  <Ad id="${ad}-1"${opts.sequence ? ` sequence="${opts.sequence}"` : ''}>
    <InLine>
      <AdSystem>embed-player reference ad server</AdSystem>
      <AdTitle>${ad}</AdTitle>
      <Impression>${cdata(`${pixel(o, ad, 'impression')}&cb=[CACHEBUSTING]&ts=[TIMESTAMP]`)}</Impression>
      <Error>${cdata(`${pixel(o, ad, 'error')}&code=[ERRORCODE]`)}</Error>
${opts.before ?? ''}      <Creatives>
${opts.creatives ?? `        <Creative id="${ad}-creative">
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
        </Creative>`}
      </Creatives>
${opts.extensions ? `      <Extensions>${opts.extensions}</Extensions>\n` : ''}    </InLine>
  </Ad>
`;
}

/**
 * @typedef {object} AdOpts
 * @property {string} [skip] skipoffset
 * @property {string} [media] the MediaFile elements
 * @property {string} [params] AdParameters
 * @property {string[]} [events] the Tracking events
 * @property {number} [sequence] the ad's place in a pod
 * @property {string} [creatives] replaces the one Linear creative
 * @property {string} [extensions] the Extensions' content
 * @property {string} [before] elements before <Creatives>
 */

/**
 * @param {string} ads the <Ad> elements
 * @param {string} [version]
 */
const vast = (ads, version = '4.0') => `<?xml version="1.0" encoding="UTF-8"?>
<VAST version="${version}">
${ads}</VAST>
`;

/**
 * @param {string} o
 * @param {string} ad
 * @param {AdOpts} opts
 */
const inline = (o, ad, opts) => vast(inlineAd(o, ad, opts));

/** Media files a browser cannot play (403). @param {string} o */
const flashOnly = (o) => `              <MediaFile delivery="progressive" type="video/x-flv" width="640" height="360">${cdata(`${o}/media/ads/ad.flv`)}</MediaFile>
              <MediaFile delivery="progressive" type="application/x-shockwave-flash" width="640" height="360">${cdata(`${o}/media/ads/ad.swf`)}</MediaFile>`;

/** @param {string} o @param {string} ad @param {string} ev */
const tracking = (o, ad, ev) => `<Tracking event="${ev}">${cdata(pixel(o, ad, ev))}</Tracking>`;

/**
 * A Wrapper <Ad> to `next` (a fixture name, or a path on this server) with its own pixels.
 * @param {string} o
 * @param {string} ad
 * @param {string} next
 * @param {{ sequence?: number, creatives?: string }} [opts] creatives replaces the one Linear creative
 */
function wrapperAd(o, ad, next, opts = {}) {
  const events = ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'skip'].map((e) => `            ${tracking(o, ad, e)}`).join('\n');
  return `  <Ad id="${ad}-1"${opts.sequence ? ` sequence="${opts.sequence}"` : ''}>
    <Wrapper>
      <AdSystem>embed-player reference ad server</AdSystem>
      <VASTAdTagURI>${cdata(next.startsWith('/') ? `${o}${next}` : `${o}/ads/vast/${next}.xml`)}</VASTAdTagURI>
      <Impression>${cdata(pixel(o, ad, 'impression'))}</Impression>
      <Error>${cdata(`${pixel(o, ad, 'error')}&code=[ERRORCODE]`)}</Error>
      <Creatives>
${opts.creatives ?? `        <Creative>
          <Linear>
            <TrackingEvents>
${events}
            </TrackingEvents>
            <VideoClicks><ClickTracking>${cdata(pixel(o, ad, 'click'))}</ClickTracking></VideoClicks>
          </Linear>
        </Creative>`}
      </Creatives>
    </Wrapper>
  </Ad>
`;
}

/**
 * @param {string} o
 * @param {string} ad
 * @param {string} next
 */
const wrapper = (o, ad, next) => vast(wrapperAd(o, ad, next));

/**
 * A NonLinear overlay and a companion banner: an ad this player cannot show (201).
 * @param {string} o
 * @param {string} ad
 */
const nonLinearCreatives = (o, ad) => `        <Creative id="${ad}-overlay">
          <NonLinearAds>
            <NonLinear width="480" height="60" minSuggestedDuration="00:00:05">
              <StaticResource creativeType="image/png">${cdata(`${o}/ads/overlay.png`)}</StaticResource>
              <NonLinearClickThrough>${cdata(`${o}/ads/landing?ad=${ad}`)}</NonLinearClickThrough>
            </NonLinear>
            <TrackingEvents>${tracking(o, ad, 'creativeView')}</TrackingEvents>
          </NonLinearAds>
        </Creative>
        <Creative id="${ad}-companion">
          <CompanionAds><Companion width="300" height="250"><StaticResource creativeType="image/png">${cdata(`${o}/ads/companion.png`)}</StaticResource></Companion></CompanionAds>
        </Creative>`;

/** The `deep` chain's wrapper levels: one more than the player follows (5), so it ends in 302. */
const DEEP = ['deep', 'deep-b', 'deep-c', 'deep-d', 'deep-e', 'deep-f'];

/** The wrapper-stall fixture's target answers after this long: past the player's 4 s per level. */
export const STALL_MS = 6000;

/** @type {Record<string, (o: string) => string>} */
export const VAST = {
  /** Inline, skippable after 2 s. */
  skippable: (o) => inline(o, 'skippable', { skip: '00:00:02' }),
  /** Inline, no skipoffset. */
  nonskippable: (o) => inline(o, 'nonskippable', {}),
  /** A Wrapper whose VASTAdTagURI is `wrapped`: two levels, each with its own pixels. */
  wrapper: (o) => wrapper(o, 'wrapper', 'wrapped'),
  wrapped: (o) => inline(o, 'wrapped', {}),
  /** A Wrapper pointing at itself: the depth limit must end it (302). */
  'wrapper-loop': (o) => wrapper(o, 'wrapper-loop', 'wrapper-loop'),
  /** Valid media files, none of a type a browser plays (403). */
  unsupported: (o) =>
    inline(o, 'unsupported', { media: flashOnly(o) }),
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
  /** No Ad: the VAST "no ad" answer with its Error URL (303, 'Empty vast'). */
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
  /** A pod of two skippable ads, listed out of order: `sequence` decides (pod-first, then pod-second). */
  pod: (o) => vast(inlineAd(o, 'pod-second', { sequence: 2, skip: '00:00:02' }) + inlineAd(o, 'pod-first', { sequence: 1, skip: '00:00:02' })),
  /** A pod whose second ad cannot play (403): the stand-alone ad takes its place. */
  'pod-fallback': (o) =>
    vast(
      inlineAd(o, 'podfb-first', { sequence: 1, skip: '00:00:02' }) +
        inlineAd(o, 'podfb-broken', { sequence: 2, media: flashOnly(o) }) +
        inlineAd(o, 'podfb-standalone', { skip: '00:00:02' }),
    ),
  /** Stand-alone ads only: the first (a wrapper to a 404, 301) fails, the second plays, the third is never needed. */
  buffet: (o) =>
    vast(wrapperAd(o, 'buffet-first', '/ads/vast/missing-target.xml') + inlineAd(o, 'buffet-second', { skip: '00:00:02' }) + inlineAd(o, 'buffet-third', {})),
  /** A well-formed VAST 1.0 answer (102), its Error URL in <Error><URL>. */
  'vast-one': (o) => `<?xml version="1.0" encoding="UTF-8"?>
<VideoAdServingTemplate xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="vast.xsd">
  <Ad id="vast-one-1">
    <InLine>
      <AdSystem>embed-player reference ad server</AdSystem>
      <AdTitle>vast-one</AdTitle>
      <Error><URL>${cdata(`${pixel(o, 'vast-one', 'error')}&code=[ERRORCODE]`)}</URL></Error>
      <Impression><URL id="imp">${cdata(pixel(o, 'vast-one', 'impression'))}</URL></Impression>
      <Video>
        <Duration>${AD_DURATION}</Duration>
        <MediaFiles>
          <MediaFile delivery="progressive" bitrate="500" width="640" height="360" type="video/mp4"><URL>${cdata(`${o}/media/ads/ad.mp4`)}</URL></MediaFile>
        </MediaFiles>
      </Video>
    </InLine>
  </Ad>
</VideoAdServingTemplate>
`,
  /** A VAST version this player does not know (102). */
  'unknown-version': (o) => vast(inlineAd(o, 'unknown-version', {}), '9.1'),
  /** A NonLinear overlay and a companion, no Linear: skipped with 201. */
  nonlinear: (o) => inline(o, 'nonlinear', { creatives: nonLinearCreatives(o, 'nonlinear') }),
  /** No Linear creative, but a Linear with a playable file inside <Extensions>: never played (201). */
  'extensions-linear': (o) =>
    inline(o, 'extensions-linear', {
      creatives: nonLinearCreatives(o, 'extensions-linear'),
      extensions: `
        <Extension type="vendor">
          <Linear>
            <Duration>${AD_DURATION}</Duration>
            <TrackingEvents>${tracking(o, 'extensions-linear', 'ext-start')}</TrackingEvents>
            <VideoClicks><ClickTracking>${cdata(pixel(o, 'extensions-linear', 'ext-click'))}</ClickTracking></VideoClicks>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360">${cdata(`${o}/media/ads/ad.mp4`)}</MediaFile></MediaFiles>
          </Linear>
          <Impression>${cdata(pixel(o, 'extensions-linear', 'ext-impression'))}</Impression>
        </Extension>
      `,
    }),
  /** A Wrapper whose target answers 404 (301 at the wrapper's Error URL). */
  'wrapper-404': (o) => vast(wrapperAd(o, 'wrapper-404', '/ads/vast/missing-target.xml')),
  /** A Wrapper whose target answers after STALL_MS, past the player's wrapper timeout (301). */
  'wrapper-stall': (o) => vast(wrapperAd(o, 'wrapper-stall', 'stall')),
  stall: (o) => inline(o, 'stall', {}),
  /** Six wrapper levels (deep → deep-b → … → deep-f → deep-g): one too many, 302 at every level. */
  ...Object.fromEntries(DEEP.map((name, i) => [name, (/** @type {string} */ o) => wrapper(o, name, DEEP[i + 1] ?? 'deep-g')])),
  'deep-g': (o) => inline(o, 'deep-g', {}),
  /**
   * Click tracking on three levels: `clicks` has two Linear creatives (after a companion), each with
   * one ClickTracking; `clicks-middle` has two ClickTracking; `clicks-inner` one. A click fires all five.
   */
  clicks: (o) =>
    vast(
      wrapperAd(o, 'clicks', 'clicks-middle', {
        creatives: `        <Creative><CompanionAds><Companion width="300" height="250"><StaticResource creativeType="image/png">${cdata(`${o}/ads/companion.png`)}</StaticResource></Companion></CompanionAds></Creative>
        <Creative><Linear><TrackingEvents>${tracking(o, 'clicks', 'start')}</TrackingEvents><VideoClicks><ClickTracking>${cdata(`${pixel(o, 'clicks', 'click')}&part=a`)}</ClickTracking></VideoClicks></Linear></Creative>
        <Creative><Linear><VideoClicks><ClickTracking>${cdata(`${pixel(o, 'clicks', 'click')}&part=b`)}</ClickTracking></VideoClicks></Linear></Creative>`,
      }),
    ),
  'clicks-middle': (o) =>
    vast(
      wrapperAd(o, 'clicks-middle', 'clicks-inner', {
        creatives: `        <Creative><Linear><TrackingEvents>${tracking(o, 'clicks-middle', 'start')}</TrackingEvents><VideoClicks>
          <ClickTracking>${cdata(`${pixel(o, 'clicks-middle', 'click')}&part=a`)}</ClickTracking>
          <ClickTracking>${cdata(`${pixel(o, 'clicks-middle', 'click')}&part=b`)}</ClickTracking>
        </VideoClicks></Linear></Creative>`,
      }),
    ),
  'clicks-inner': (o) => inline(o, 'clicks-inner', {}),
  /**
   * Three media files, the first two of which never play: an FLV (WebKit answers 'maybe' to its
   * type; here a 404) and an MP4 that every engine says it plays but whose bytes are not a video
   * (/ads/broken.mp4). The player must go on to the third, the real MP4, and report no error.
   */
  'media-fallback': (o) =>
    inline(o, 'media-fallback', {
      skip: '00:00:02',
      media: `              <MediaFile delivery="progressive" type="video/x-flv" width="640" height="360">${cdata(`${o}/media/ads/ad.flv`)}</MediaFile>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" codec="avc1.4d401e,mp4a.40.2">${cdata(`${o}/ads/broken.mp4`)}</MediaFile>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" codec="avc1.4d401e,mp4a.40.2">${cdata(`${o}/media/ads/ad.mp4`)}</MediaFile>`,
    }),
  /** Only media files that never play (a 404 and bytes that are not a video): one 405, once none played. */
  'media-broken': (o) =>
    inline(o, 'media-broken', {
      media: `              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360">${cdata(`${o}/ads/broken.mp4`)}</MediaFile>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360">${cdata(`${o}/media/ads/missing.mp4`)}</MediaFile>`,
    }),
  /** Valid XML names in Cyrillic inside <Extensions>: the ad plays. */
  'non-ascii': (o) =>
    inline(o, 'non-ascii', {
      extensions: `<Extension type="ru"><Расширение><Значение_1>да</Значение_1><Пусто/></Расширение></Extension>`,
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
 * An http(s) origin to name in the list's VAST URLs (an ad server apart from the API, as in production).
 * @param {string | null} value
 */
function vastOrigin(value) {
  if (value === null) return undefined;
  let origin;
  try {
    origin = originOf(value);
  } catch {
    origin = undefined;
  }
  if (origin !== value) throw new HttpError(400, 'vast_origin: an http(s) origin, e.g. http://127.0.0.1:9000');
  return origin;
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
      const o = vastOrigin(url.query.get('vast_origin')) ?? requestOrigin(req, ctx.url());
      const list = (/** @type {string[]} */ n) => n.map((name) => ({ vastUrl: `${o}/ads/vast/${name}.xml` }));
      sendJson(res, 200, {
        prerollList: list(names(url.query.get('pre'), DEFAULT_PREROLL)),
        midrollList: list(names(url.query.get('mid'), DEFAULT_MIDROLL)),
      });
    },
  });

  router.add({
    method: 'GET',
    path: /^\/ads\/vast\/(?<name>[a-z0-9-]+)\.xml$/,
    cors: 'vast',
    async handler({ req, res, params }) {
      const make = Object.hasOwn(VAST, params.name) ? VAST[params.name] : undefined;
      if (!make) throw new HttpError(404, 'Not found');
      // The wrapper-stall target: a slow ad server, answering (if anyone still waits) after STALL_MS.
      if (params.name === 'stall') {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, STALL_MS);
          res.once('close', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
        });
        if (res.destroyed || res.writableEnded) return;
      }
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
    path: '/ads/broken.mp4',
    cors: 'media',
    handler({ res }) {
      // Served as a video, yet no engine can decode it: a media file that fails after its type passed.
      sendText(res, 200, 'not a video\n'.repeat(64), { 'Content-Type': 'video/mp4', 'Cache-Control': 'no-cache' });
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
