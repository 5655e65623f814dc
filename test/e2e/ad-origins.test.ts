// Ads from third-party origins, as every real ad server is: the ad list and a wrapper on one origin,
// the inline VAST on a second one, the media on the first (a CDN), each level's pixels on its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../server/ads.mjs';
import { type RefServer, open, poll, srv, startExtraServer, waitForTime } from './harness';
import { firingOrder } from '../pixel-order';

type Route = { req: IncomingMessage; res: ServerResponse };
const QUARTILES = ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'];

let adServer: RefServer; // http://localhost:A: the ad list, the wrapper, the ad media
let inlineServer: RefServer; // http://127.0.0.1:B: the inline VAST

const hostOrigin = (req: IncomingMessage) => `http://${req.headers.host}`;
const xml = (res: ServerResponse, body: string) => {
  res.setHeader('Content-Type', 'application/xml; charset=utf-8');
  res.end(body);
};

test.before(async () => {
  inlineServer = await startExtraServer({
    routes: [
      {
        method: 'GET',
        // An ad server's answer to a credentialed VAST request: the caller's origin, with credentials.
        cors: 'vast',
        path: '/ads/vast/wrapped.xml',
        handler: ({ req, res }: Route) => {
          const own = hostOrigin(req);
          // The creative is on the ad server's CDN, not on the host of this document.
          xml(res, String(VAST.wrapped(own)).replaceAll(`${own}/media/ads/`, `${adServer.url}/media/ads/`));
        },
      },
    ],
  });
  adServer = await startExtraServer({
    host: 'localhost',
    routes: [
      {
        method: 'GET',
        cors: 'vast',
        path: '/ads/vast/wrapper.xml',
        handler: ({ req, res }: Route) => {
          const body = String(VAST.wrapper(hostOrigin(req))).replace(
            /<VASTAdTagURI><!\[CDATA\[[^\]]*\]\]><\/VASTAdTagURI>/,
            `<VASTAdTagURI><![CDATA[${inlineServer.url}/ads/vast/wrapped.xml]]></VASTAdTagURI>`,
          );
          xml(res, body);
        },
      },
    ],
  });
});

test.after(async () => {
  srv().setAdListUrl(undefined);
  srv().setAdOrigins([]);
  await adServer?.close();
  await inlineServer?.close();
});

test('a wrapper on one origin, the inline VAST on another, the media on a CDN: the ad plays, every pixel is recorded, no policy violation', async () => {
  assert.is.not(new URL(adServer.url).origin, new URL(srv().url).origin);
  // How a partner configures it: the ad list on the player page; the policy admits that origin by
  // itself and the http development origins configured besides (https ones always).
  srv().setAdListUrl(`${adServer.url}/ad-list.json?pre=wrapper&mid=`);
  srv().setAdOrigins([inlineServer.url]);
  srv().cspReports.length = 0;
  const p = await open('?movie_id=1&auto_play=1');
  try {
    await p.page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.pl-ad__video')?.currentTime ?? 0) > 1, null, { timeout: 25000 });
    const src = await p.page.evaluate(() => document.querySelector<HTMLVideoElement>('.pl-ad__video')!.currentSrc);
    assert.is(src, `${adServer.url}/media/ads/ad.mp4`, 'the ad media comes from the CDN origin');
    await waitForTime(p.page, 1, 30000);
    const events = (s: RefServer, ad: string) => firingOrder(s.adHits.filter((h) => h.ad === ad).map((h) => h.event));
    await poll(
      () => `every pixel (wrapper: ${events(adServer, 'wrapper')}; inline: ${events(inlineServer, 'wrapped')})`,
      () => QUARTILES.every((e) => events(adServer, 'wrapper').includes(e) && events(inlineServer, 'wrapped').includes(e)),
      { timeout: 10000 },
    );
    assert.equal(events(inlineServer, 'wrapped').filter((e) => QUARTILES.includes(e)), QUARTILES, 'the inline pixels, in order, once each');
    assert.equal(events(adServer, 'wrapper').filter((e) => QUARTILES.includes(e)), QUARTILES, 'the wrapper pixels, in order, once each');
    assert.ok(adServer.requests.some((r) => r.path === '/ad-list.json'), 'the ad list came from the ad server');
    assert.ok(inlineServer.requests.some((r) => r.path === '/ads/vast/wrapped.xml'), 'the inline VAST from the second origin');
    // The bootstrap asks for the first pre-roll's VAST as the list answers; the ads piece takes it over.
    const gets = (s: RefServer, path: string) => s.requests.filter((r) => r.method === 'GET' && r.path === path).length;
    assert.is(gets(adServer, '/ads/vast/wrapper.xml'), 1, 'the wrapper asked for once');
    assert.is(gets(inlineServer, '/ads/vast/wrapped.xml'), 1, 'its target once');
    assert.is(gets(adServer, '/ad-list.json'), 1, 'the list once');
    assert.equal(p.csp, [], 'no violation seen by the page');
    assert.equal(srv().cspReports, [], 'no violation reported');
    assert.equal(p.errors, []);
  } finally {
    await p.close();
  }
});

test.run();
