import { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../../server/ads.mjs';
import { pickMediaFile } from '../../../src/ads/media-file';
import { loadVast } from '../../../src/ads/vast-load';
import { MAX_VAST_CHARS, type VastFailure, parseVast, safeUrl } from '../../../src/ads/vast-parse';
import { offsetSeconds, parseOffset } from '../../../src/ads/vast-time';
import { isWellFormedXml } from '../../../src/ads/xml-check';

const window = new Window();
(globalThis as Record<string, unknown>).DOMParser = window.DOMParser;

const O = 'http://ads.test';
const fixture = (name: string): string => (VAST as Record<string, (o: string) => string>)[name](O);
const failure = (fn: () => unknown): VastFailure => {
  try {
    fn();
  } catch (e) {
    return e as VastFailure;
  }
  throw new Error('expected a failure');
};

test('time strings: hh:mm:ss with an optional fraction, n%; anything else is no offset', () => {
  assert.equal(parseOffset('00:00:05'), { seconds: 5 });
  assert.equal(parseOffset('01:02:03.250'), { seconds: 3723.25 });
  assert.equal(parseOffset(' 00:00:02 '), { seconds: 2 });
  assert.equal(parseOffset('25%'), { percent: 25 });
  assert.equal(parseOffset('12.5%'), { percent: 12.5 });
  for (const bad of ['5', '00:05', '00:60:00', '00:00:61', 'aa:bb:cc', '101%', '-1%', '', '00:00:05.', '1e3:00:00', null, undefined]) {
    assert.is(parseOffset(bad), undefined, String(bad));
  }
  assert.is(offsetSeconds({ percent: 50 }, 6), 3);
  assert.ok(Number.isNaN(offsetSeconds({ percent: 50 }, 0)), 'a percentage waits for the duration');
  assert.is(offsetSeconds({ seconds: 2 }, 0), 2);
});

test('inline skippable: every field read', () => {
  const d = parseVast(fixture('skippable'), `${O}/ads/vast/skippable.xml`);
  assert.is(d.adId, 'skippable-1');
  assert.is(d.wrapperUrl, undefined);
  assert.equal(d.skipOffset, { seconds: 2 });
  assert.is(d.duration, 6);
  assert.equal(d.impressions, [`${O}/ads/track?ad=skippable&ev=impression&cb=[CACHEBUSTING]&ts=[TIMESTAMP]`]);
  assert.equal(d.errors, [`${O}/ads/track?ad=skippable&ev=error&code=[ERRORCODE]`]);
  assert.is(d.clickThrough, `${O}/ads/landing?ad=skippable`);
  assert.equal(d.clickTracking, [`${O}/ads/track?ad=skippable&ev=click`]);
  const events = d.tracking.map((t) => t.event);
  for (const e of ['loaded', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'pause', 'resume', 'mute', 'unmute', 'skip']) {
    assert.ok(events.includes(e), e);
  }
  assert.equal(
    d.tracking.filter((t) => t.event === 'progress').map((t) => t.offset),
    [{ seconds: 2 }, { percent: 50 }],
  );
  assert.equal(
    d.mediaFiles.map((f) => f.type),
    ['video/x-flv', 'video/mp4'],
  );
  assert.is(d.mediaFiles[1].codec, 'avc1.4d401e,mp4a.40.2');
});

test('inline non-skippable: no skip offset', () => {
  const d = parseVast(fixture('nonskippable'));
  assert.is(d.skipOffset, undefined);
  assert.is(d.mediaFiles.length, 2);
});

test('wrapper: VASTAdTagURI and its own pixels; the loader merges both levels', async () => {
  const w = parseVast(fixture('wrapper'));
  assert.is(w.wrapperUrl, `${O}/ads/vast/wrapped.xml`);
  assert.equal(w.impressions, [`${O}/ads/track?ad=wrapper&ev=impression`]);
  const fetched: string[] = [];
  const loaded = await loadVast(`${O}/ads/vast/wrapper.xml`, new AbortController().signal, async (url) => {
    fetched.push(url);
    return fixture(/\/([a-z-]+)\.xml$/.exec(url)![1]);
  });
  assert.equal(fetched, [`${O}/ads/vast/wrapper.xml`, `${O}/ads/vast/wrapped.xml`]);
  assert.is(loaded.doc.adId, 'wrapped-1');
  assert.equal(loaded.pixels.impressions.map((u) => /ad=([a-z]+)/.exec(u)![1]), ['wrapper', 'wrapped']);
  assert.equal(loaded.pixels.errors.length, 2);
  assert.equal(loaded.pixels.tracking.filter((t) => t.event === 'start').length, 2);
  assert.equal(loaded.pixels.clickTracking.length, 2);
});

test('a wrapper loop stops at the depth limit with 303 and every level\'s error URL', async () => {
  let n = 0;
  const err = await loadVast(`${O}/ads/vast/wrapper-loop.xml`, new AbortController().signal, async () => {
    n++;
    return fixture('wrapper-loop');
  }).catch((e: VastFailure) => e);
  assert.is(n, 6, 'the tag and five wrappers');
  assert.is((err as VastFailure).code, 303);
  assert.is((err as VastFailure).errorUrls.length, 6);
});

test('a wrapper whose target has no ad is 303; a failing fetch keeps the outer error URLs', async () => {
  const signal = new AbortController().signal;
  const empty = await loadVast('http://a/w.xml', signal, async (url) => (url.endsWith('w.xml') ? fixture('wrapper') : fixture('empty'))).catch((e: VastFailure) => e);
  assert.is((empty as VastFailure).code, 303);
  assert.is((empty as VastFailure).errorUrls.length, 2, 'the wrapper\'s and the empty answer\'s');
  const down = await loadVast('http://a/w.xml', signal, async (url) => {
    if (url.endsWith('w.xml')) return fixture('wrapper');
    throw { code: 900, message: 'Failed load VAST' };
  }).catch((e: VastFailure) => e);
  assert.equal([(down as VastFailure).code, (down as VastFailure).message, (down as VastFailure).errorUrls.length], [900, 'Failed load VAST', 1]);
});

test('no supported media file: 403; no valid media file: 401', () => {
  const files = parseVast(fixture('unsupported')).mediaFiles;
  const canPlay = (t: string) => t === 'video/mp4' || t === 'video/webm';
  assert.equal(failure(() => pickMediaFile(files, canPlay)), { code: 403, message: 'Not found supported mediaFile' } as unknown as VastFailure);
  const none = parseVast(fixture('no-media')).mediaFiles;
  assert.is(none.length, 0, 'missing width/height or URL does not count');
  assert.equal(failure(() => pickMediaFile(none, canPlay)), { code: 401, message: 'Not found mediaFiles in VAST' } as unknown as VastFailure);
});

test('media file choice: the first the video element can play, or a VPAID script', () => {
  const f = (type: string, extra: object = {}) => ({ url: `http://a/${type}`, type, width: 1, height: 1, ...extra });
  const canPlay = (t: string) => t === 'video/mp4' || t === 'video/webm';
  assert.is(pickMediaFile([f('video/x-flv'), f('video/webm'), f('video/mp4')], canPlay).type, 'video/webm');
  const vpaid = parseVast(fixture('vpaid'));
  const chosen = pickMediaFile(vpaid.mediaFiles, canPlay);
  assert.is(chosen.apiFramework, 'VPAID');
  assert.is(chosen.url, `${O}/ads/vpaid-creative.js`);
  assert.equal(JSON.parse(vpaid.adParameters!), { mediaUrl: `${O}/media/ads/ad.mp4` });
  assert.is(pickMediaFile([f('application/javascript', { apiFramework: 'VPAID' }), f('video/mp4')], canPlay).apiFramework, 'VPAID');
  // A JavaScript file for another framework is not a video and not VPAID.
  assert.throws(() => pickMediaFile([f('application/javascript', { apiFramework: 'SIMID' })], () => false));
});

test('malformed XML: 100, with the Error URL still read from the text', () => {
  const e = failure(() => parseVast(fixture('malformed')));
  assert.is(e.code, 100);
  assert.is(e.message, 'Failed parsing xml');
  assert.equal(e.errorUrls, [`${O}/ads/track?ad=malformed&ev=error&code=[ERRORCODE]`]);
});

test('empty VAST: 901 with its root Error URL', () => {
  const e = failure(() => parseVast(fixture('empty')));
  assert.equal([e.code, e.message], [901, 'Empty vast']);
  assert.equal(e.errorUrls, [`${O}/ads/track?ad=empty&ev=error&code=[ERRORCODE]`]);
});

test('exactly one Ad: two ads or an Ad without InLine/Wrapper is empty (901)', () => {
  const two = '<VAST version="3.0"><Ad id="a"><InLine/></Ad><Ad id="b"><InLine/></Ad></VAST>';
  assert.is(failure(() => parseVast(two)).code, 901);
  assert.is(failure(() => parseVast('<VAST><Ad id="a"></Ad></VAST>')).code, 901);
  assert.is(failure(() => parseVast('<NotVast><Ad/></NotVast>')).code, 100);
});

test('hostile input: huge documents, entity tricks, javascript: URLs, missing attributes', () => {
  const huge = `<VAST><Ad><InLine><AdTitle>${'x'.repeat(MAX_VAST_CHARS)}</AdTitle></InLine></Ad></VAST>`;
  assert.is(failure(() => parseVast(huge)).code, 100);
  const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><VAST><Ad><InLine><AdTitle>&lol2;</AdTitle></InLine></Ad></VAST>`;
  assert.is(failure(() => parseVast(laughs)).code, 100);
  const xxe = `<?xml version="1.0"?><!DOCTYPE v [<!ENTITY x SYSTEM "file:///etc/passwd">]><VAST><Ad><InLine><AdTitle>&x;</AdTitle></InLine></Ad></VAST>`;
  assert.is(failure(() => parseVast(xxe)).code, 100);
  assert.is(failure(() => parseVast('<VAST><Ad><InLine><AdTitle>&undefined;</AdTitle></InLine></Ad></VAST>')).code, 100);
  const js = `<VAST version="3.0"><Ad id="x"><InLine>
    <Impression><![CDATA[javascript:alert(1)]]></Impression>
    <Impression><![CDATA[https://ok.test/imp]]></Impression>
    <Error>data:text/html,boom</Error>
    <Creatives><Creative><Linear>
      <TrackingEvents><Tracking event="start"><![CDATA[JavaScript:alert(2)]]></Tracking><Tracking>https://no-event.test/</Tracking>
        <Tracking event="progress" offset="soon">https://bad-offset.test/</Tracking></TrackingEvents>
      <VideoClicks><ClickThrough><![CDATA[javascript:alert(3)]]></ClickThrough><ClickTracking> vbscript:x </ClickTracking></VideoClicks>
      <MediaFiles>
        <MediaFile type="video/mp4" width="640" height="360"><![CDATA[javascript:alert(4)]]></MediaFile>
        <MediaFile type="video/mp4" width="wide" height="360">https://a.test/a.mp4</MediaFile>
        <MediaFile width="640" height="360">https://a.test/no-type.mp4</MediaFile>
        <MediaFile type="video/mp4" width="640" height="360">  https://a.test/ok.mp4  </MediaFile>
      </MediaFiles>
    </Linear></Creative></Creatives></InLine></Ad></VAST>`;
  const d = parseVast(js);
  assert.equal(d.impressions, ['https://ok.test/imp']);
  assert.equal(d.errors, []);
  assert.equal(d.tracking, []);
  assert.is(d.clickThrough, undefined);
  assert.equal(d.clickTracking, []);
  assert.equal(d.mediaFiles.map((f) => f.url), ['https://a.test/ok.mp4']);
  const wrapperJs = '<VAST><Ad><Wrapper><VASTAdTagURI>javascript:alert(1)</VASTAdTagURI></Wrapper></Ad></VAST>';
  assert.is(failure(() => parseVast(wrapperJs)).code, 303);
  assert.is(safeUrl('/relative/x', 'https://base.test/a/b.xml'), 'https://base.test/relative/x');
  assert.is(safeUrl('::nonsense'), undefined);
});

test('the well-formedness check', () => {
  for (const ok of [
    '<a/>',
    '<?xml version="1.0"?>\n<a x="1" y=\'2\'><b>t &amp; &#38; &#x26;</b><!-- c --><c><![CDATA[<raw> & ]]></c></a>\n',
  ]) {
    assert.ok(isWellFormedXml(ok), ok);
  }
  for (const bad of ['', 'text', '<a>', '<a></b>', '<a><b></a></b>', '<a/><b/>', '<a>&</a>', '<a x=1/>', '<a x="<"/>', '<!DOCTYPE a><a/>', '<a><![CDATA[x</a>', '<a><!-- x</a>', 'x<a/>', '<a/>x', '<a>\n<b></a>']) {
    assert.not.ok(isWellFormedXml(bad), bad);
  }
  // Linear time on a long run of tags.
  const t0 = Date.now();
  assert.ok(isWellFormedXml(`<a>${'<b x="1"/>'.repeat(20000)}</a>`));
  assert.not.ok(isWellFormedXml(`<a${' x="1"'.repeat(20000)}`));
  assert.ok(Date.now() - t0 < 1000);
});

test.run();
