import { Window } from 'happy-dom';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the server is plain JS with JSDoc types
import { VAST } from '../../../server/ads.mjs';
import { type CanPlay, type MediaTarget, rankMediaFiles } from '../../../src/ads/media-file';
import { loadVast, resolveAd } from '../../../src/ads/vast-load';
import { MAX_VAST_CHARS, type MediaFile, type VastDoc, type VastFailure, type VastResponse, isFailure, parseVast, safeUrl } from '../../../src/ads/vast-parse';
import { offsetSeconds, parseOffset } from '../../../src/ads/vast-time';
import { isWellFormedXml } from '../../../src/ads/xml-check';

const pickMediaFile = (files: MediaFile[], canPlay: CanPlay, target?: MediaTarget) => rankMediaFiles(files, canPlay, target)[0];
const maybe = (types: string[]): CanPlay => (t) => (types.includes(t) ? 'maybe' : '');

const window = new Window();
(globalThis as Record<string, unknown>).DOMParser = window.DOMParser;

const O = 'http://ads.test';
const fixture = (name: string): string => (VAST as Record<string, (o: string) => string>)[name](O);
const failure = (fn: () => unknown): VastFailure => {
  let r: unknown;
  try {
    r = fn();
  } catch (e) {
    return e as VastFailure;
  }
  if (r && typeof r === 'object' && 'code' in r) return r as VastFailure;
  throw new Error('expected a failure');
};
/** The answer's ads (a failure fails the test). */
const read = (text: string, base?: string): VastResponse => {
  const r = parseVast(text, base);
  if (isFailure(r)) throw new Error(`unexpected failure ${r.code}`);
  return r;
};
/** The answer's only ad. */
const one = (text: string, base?: string): VastDoc => {
  const r = read(text, base);
  assert.is(r.ads.length, 1);
  return r.ads[0];
};
/** fetchText answering with the reference server's fixtures by name (404 for others, as 900). */
const byName = (fetched: string[] = []) => async (url: string) => {
  fetched.push(url);
  const name = /\/([a-z0-9-]+)\.xml$/.exec(url)?.[1] ?? '';
  if (!Object.hasOwn(VAST, name)) throw { code: 900, message: 'Failed load VAST' };
  return fixture(name);
};
const signal = new AbortController().signal;
/** The whole chain for a tag, as the runner does it: its first ad resolved. */
const chain = async (name: string, fetched: string[] = []) => {
  const res = await loadVast(`${O}/ads/vast/${name}.xml`, signal, byName(fetched));
  return resolveAd(res.ads[0], signal, byName(fetched));
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
  const d = one(fixture('skippable'), `${O}/ads/vast/skippable.xml`);
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
  const d = one(fixture('nonskippable'));
  assert.is(d.skipOffset, undefined);
  assert.is(d.mediaFiles.length, 2);
});

test('wrapper: VASTAdTagURI and its own pixels; the loader merges both levels', async () => {
  const w = one(fixture('wrapper'));
  assert.is(w.wrapperUrl, `${O}/ads/vast/wrapped.xml`);
  assert.equal(w.impressions, [`${O}/ads/track?ad=wrapper&ev=impression`]);
  const fetched: string[] = [];
  const loaded = await chain('wrapper', fetched);
  assert.equal(fetched, [`${O}/ads/vast/wrapper.xml`, `${O}/ads/vast/wrapped.xml`]);
  assert.is(loaded.doc.adId, 'wrapped-1');
  assert.equal(loaded.pixels.impressions.map((u) => /ad=([a-z]+)/.exec(u)![1]), ['wrapper', 'wrapped']);
  assert.equal(loaded.pixels.errors.length, 2);
  assert.equal(loaded.pixels.tracking.filter((t) => t.event === 'start').length, 2);
  assert.equal(loaded.pixels.clickTracking.length, 2);
});

test('a wrapper loop stops at the depth limit with 302 and every level\'s error URL', async () => {
  const fetched: string[] = [];
  const err = (await chain('wrapper-loop', fetched).catch((e: VastFailure) => e)) as VastFailure;
  assert.is(fetched.length, 6, 'the tag and five wrappers');
  assert.equal([err.code, err.message, err.errorUrls.length], [302, 'Failed load VAST', 6]);
  const deep: string[] = [];
  const e2 = (await chain('deep', deep).catch((e: VastFailure) => e)) as VastFailure;
  assert.equal(deep.map((u) => /([a-z-]+)\.xml$/.exec(u)![1]), ['deep', 'deep-b', 'deep-c', 'deep-d', 'deep-e', 'deep-f']);
  assert.is(e2.code, 302);
  assert.equal(e2.errorUrls.map((u) => new URL(u).searchParams.get('ad')), ['deep', 'deep-b', 'deep-c', 'deep-d', 'deep-e', 'deep-f']);
});

test('wrapper failures: a target without ads 303, a target that fails or times out 301, no usable tag URI 300', async () => {
  const empty = (await resolveAd(one(fixture('wrapper')), signal, async () => fixture('empty')).catch((e: VastFailure) => e)) as VastFailure;
  assert.equal([empty.code, empty.message], [303, 'Empty vast']);
  assert.equal(empty.errorUrls.map((u) => new URL(u).searchParams.get('ad')), ['wrapper', 'empty'], "the wrapper's and the empty answer's");
  for (const thrown of [{ code: 900, message: 'Failed load VAST' }, { code: 350, message: 'Failed load VAST' }, new TypeError('network')]) {
    const down = (await resolveAd(one(fixture('wrapper')), signal, async () => {
      throw thrown;
    }).catch((e: VastFailure) => e)) as VastFailure;
    assert.equal([down.code, down.message, down.errorUrls.length], [301, 'Failed load VAST', 1]);
  }
  const e404 = (await chain('wrapper-404').catch((e: VastFailure) => e)) as VastFailure;
  assert.equal([e404.code, e404.errorUrls.length], [301, 1]);
  const badTag = one('<VAST version="4.0"><Ad><Wrapper><Error>https://e.test/?c=[ERRORCODE]</Error><VASTAdTagURI>javascript:alert(1)</VASTAdTagURI></Wrapper></Ad></VAST>');
  assert.is(badTag.wrapperUrl, '');
  const e300 = (await resolveAd(badTag, signal, byName()).catch((e: VastFailure) => e)) as VastFailure;
  assert.equal([e300.code, e300.errorUrls], [300, ['https://e.test/?c=[ERRORCODE]']]);
  // The target's own failure is told to every level with its own code.
  const bad = (await resolveAd(one(fixture('wrapper')), signal, async () => fixture('vast-one')).catch((e: VastFailure) => e)) as VastFailure;
  assert.equal([bad.code, bad.errorUrls.length], [102, 2]);
  // A top-level tag that fails to load is SPEC §8's 900, its timeout 350.
  const top = (await loadVast('http://a/missing.xml', signal, byName()).catch((e: VastFailure) => e)) as VastFailure;
  assert.equal([top.code, top.message, top.errorUrls], [900, 'Failed load VAST', []]);
});

test('non-linear and companion-only ads are 201 (a Linear inside Extensions does not count)', async () => {
  for (const name of ['nonlinear', 'extensions-linear']) {
    const d = one(fixture(name));
    assert.is(d.linear, false, name);
    assert.equal(d.mediaFiles, [], name);
    assert.equal(d.tracking, [], `${name}: no pixel from NonLinear, companions or Extensions`);
    assert.equal(d.clickTracking, [], name);
    const e = (await chain(name).catch((x: VastFailure) => x)) as VastFailure;
    assert.equal([e.code, e.errorUrls], [201, [`${O}/ads/track?ad=${name}&ev=error&code=[ERRORCODE]`]], name);
  }
});

test('scoped reading: each part from its own creative; Extensions before Creatives never yield media or pixels', () => {
  const d = one(`<VAST version="4.1"><Ad id="s"><InLine>
    <Impression>https://t.test/imp</Impression>
    <Extensions><Extension><Linear skipoffset="00:00:01"><Duration>00:01:00</Duration>
      <TrackingEvents><Tracking event="start">https://ext.test/start</Tracking></TrackingEvents>
      <VideoClicks><ClickThrough>https://ext.test/land</ClickThrough><ClickTracking>https://ext.test/click</ClickTracking></VideoClicks>
      <MediaFiles><MediaFile type="video/mp4" width="1" height="1">https://ext.test/ext.mp4</MediaFile></MediaFiles></Linear>
      <Impression>https://ext.test/imp</Impression><Error>https://ext.test/err</Error></Extension></Extensions>
    <Creatives>
      <Creative><CompanionAds><Companion><CompanionClickTracking>https://comp.test/click</CompanionClickTracking>
        <TrackingEvents><Tracking event="creativeView">https://comp.test/view</Tracking></TrackingEvents></Companion></CompanionAds></Creative>
      <Creative id="c1"><Linear><Duration>00:00:06</Duration>
        <TrackingEvents><Tracking event="start">https://t.test/start</Tracking></TrackingEvents>
        <VideoClicks><ClickTracking>https://t.test/click</ClickTracking></VideoClicks>
        <Icons><Icon><IconClicks><IconClickTracking>https://icon.test/click</IconClickTracking></IconClicks><IconViewTracking>https://icon.test/view</IconViewTracking></Icon></Icons>
        <MediaFiles><MediaFile type="video/mp4" width="640" height="360">https://t.test/ad.mp4</MediaFile></MediaFiles></Linear>
        <CreativeExtensions><CreativeExtension><TrackingEvents><Tracking event="start">https://cx.test/start</Tracking></TrackingEvents></CreativeExtension></CreativeExtensions></Creative>
      <Creative id="c2"><Linear><TrackingEvents><Tracking event="start">https://second.test/start</Tracking></TrackingEvents>
        <MediaFiles><MediaFile type="video/mp4" width="1" height="1">https://second.test/ad.mp4</MediaFile></MediaFiles></Linear></Creative>
    </Creatives></InLine></Ad></VAST>`);
  assert.is(d.adId, 's');
  assert.equal(d.impressions, ['https://t.test/imp']);
  assert.equal(d.errors, []);
  assert.equal(d.tracking, [{ event: 'start', url: 'https://t.test/start' }]);
  assert.equal(d.clickTracking, ['https://t.test/click']);
  assert.is(d.clickThrough, undefined);
  assert.is(d.skipOffset, undefined);
  assert.is(d.duration, 6);
  assert.equal(d.mediaFiles.map((f) => f.url), ['https://t.test/ad.mp4']);
});

test('click tracking of every wrapper level, from every Linear creative of a wrapper', async () => {
  const loaded = await chain('clicks');
  assert.equal(
    loaded.pixels.clickTracking.map((u) => `${new URL(u).searchParams.get('ad')}:${new URL(u).searchParams.get('part') ?? ''}`),
    ['clicks:a', 'clicks:b', 'clicks-middle:a', 'clicks-middle:b', 'clicks-inner:'],
  );
  assert.is(loaded.doc.adId, 'clicks-inner-1');
});

test('pods and buffets: every Ad read with its sequence and its own pixels only', () => {
  const pod = read(fixture('pod'));
  assert.equal(pod.ads.map((a) => [a.adId, a.sequence]), [['pod-second-1', 2], ['pod-first-1', 1]]);
  for (const a of pod.ads) {
    const name = a.adId.replace(/-1$/, '');
    const all = [...a.impressions, ...a.errors, ...a.clickTracking, ...a.tracking.map((t) => t.url)];
    assert.ok(all.length > 10 && all.every((u) => new URL(u).searchParams.get('ad') === name), name);
  }
  const fb = read(fixture('pod-fallback'));
  assert.equal(fb.ads.map((a) => a.sequence), [1, 2, undefined]);
  const buffet = read(fixture('buffet'));
  assert.equal(buffet.ads.map((a) => [a.adId, a.sequence, a.wrapperUrl]), [
    ['buffet-first-1', undefined, `${O}/ads/vast/missing-target.xml`],
    ['buffet-second-1', undefined, undefined],
    ['buffet-third-1', undefined, undefined],
  ]);
});

test('versions: VAST 2, 3, 4 and no version read; VAST 1.0 and unknown versions are 102, other XML 101', () => {
  for (const v of ['2.0', '3.0', '4.0', '4.1', '4.2', '4']) assert.ok(!isFailure(parseVast(`<VAST version="${v}"><Ad><InLine/></Ad></VAST>`)), v);
  assert.ok(!isFailure(parseVast('<VAST><Ad><InLine/></Ad></VAST>')));
  const one0 = failure(() => parseVast(fixture('vast-one')));
  assert.equal([one0.code, one0.message, one0.errorUrls], [102, 'VAST version not supported', [`${O}/ads/track?ad=vast-one&ev=error&code=[ERRORCODE]`]]);
  const unknown = failure(() => parseVast(fixture('unknown-version')));
  assert.equal([unknown.code, unknown.errorUrls], [102, [`${O}/ads/track?ad=unknown-version&ev=error&code=[ERRORCODE]`]]);
  for (const v of ['1.0', '5.0', 'x', '4.0.0.0']) assert.is(failure(() => parseVast(`<VAST version="${v}"><Ad><InLine/></Ad></VAST>`)).code, 102, v);
  assert.is(failure(() => parseVast('<html><body/></html>')).code, 101);
});

test('non-ASCII element names (valid XML) inside Extensions: the ad reads', () => {
  const d = one(fixture('non-ascii'));
  assert.is(d.adId, 'non-ascii-1');
  assert.is(d.mediaFiles.length, 2);
  assert.ok(isWellFormedXml('<a><Расширение вид="да"><Значение_1/></Расширение></a>'), 'attribute names too');
});

test('no supported media file: 403; no valid media file: 401', () => {
  const files = one(fixture('unsupported')).mediaFiles;
  const canPlay = maybe(['video/mp4', 'video/webm']);
  assert.equal(failure(() => pickMediaFile(files, canPlay)), { code: 403, message: 'Not found supported mediaFile' } as unknown as VastFailure);
  const none = one(fixture('no-media')).mediaFiles;
  assert.is(none.length, 0, 'missing width/height or URL does not count');
  assert.equal(failure(() => pickMediaFile(none, canPlay)), { code: 401, message: 'Not found mediaFiles in VAST' } as unknown as VastFailure);
});

test('media file choice: the first the video element can play, or a VPAID script', () => {
  const f = (type: string, extra: object = {}) => ({ url: `http://a/${type}`, type, width: 1, height: 1, ...extra });
  const canPlay = maybe(['video/mp4', 'video/webm']);
  assert.is(pickMediaFile([f('video/x-flv'), f('video/webm'), f('video/mp4')], canPlay).type, 'video/webm');
  const vpaid = one(fixture('vpaid'));
  const chosen = pickMediaFile(vpaid.mediaFiles, canPlay);
  assert.is(chosen.apiFramework, 'VPAID');
  assert.is(chosen.url, `${O}/ads/vpaid-creative.js`);
  assert.equal(JSON.parse(vpaid.adParameters!), { mediaUrl: `${O}/media/ads/ad.mp4` });
  assert.is(pickMediaFile([f('application/javascript', { apiFramework: 'VPAID' }), f('video/mp4')], canPlay).apiFramework, 'VPAID');
  // A JavaScript file for another framework is not a video and not VPAID.
  assert.throws(() => pickMediaFile([f('application/javascript', { apiFramework: 'SIMID' })], () => 'probably'));
  // Another apiFramework on a playable video file does not exclude it.
  assert.is(pickMediaFile([f('video/x-flv'), f('video/mp4', { apiFramework: 'SIMID' })], canPlay).apiFramework, 'SIMID');
});

test('media file choice: closest to the player size among those the bandwidth carries (IMA)', () => {
  const f = (w: number, h: number, bitrate?: number, type = 'video/mp4') => ({ url: `http://a/${w}x${h}-${bitrate}`, type, width: w, height: h, ...(bitrate ? { bitrate } : {}) });
  const canPlay = maybe(['video/mp4']);
  const files = [f(320, 180, 300), f(1920, 1080, 6000), f(1280, 720, 2500), f(640, 360, 800), f(1280, 720, 2400, 'video/x-flv')];
  const pick = (width: number, height: number, kbps: number) => pickMediaFile(files, canPlay, { width, height, kbps }).url;
  assert.is(pick(1280, 720, 0), 'http://a/1280x720-2500', 'bandwidth unknown: the size decides');
  assert.is(pick(1280, 720, 10000), 'http://a/1280x720-2500');
  assert.is(pick(1920, 1080, 10000), 'http://a/1920x1080-6000');
  assert.is(pick(1920, 1080, 3000), 'http://a/1280x720-2500', 'the largest the bandwidth carries');
  assert.is(pick(640, 360, 10000), 'http://a/640x360-800');
  assert.is(pick(1280, 720, 500), 'http://a/320x180-300');
  assert.is(pick(1280, 720, 100), 'http://a/320x180-300', 'nothing fits: the lightest');
  assert.is(pick(300, 170, 0), 'http://a/320x180-300');
  // No target (as in SPEC §5): the first playable.
  assert.is(pickMediaFile(files, canPlay).url, 'http://a/320x180-300');
  const ranged = one(`<VAST version="4.0"><Ad><InLine><Creatives><Creative><Linear><MediaFiles>
    <MediaFile type="video/mp4" width="640" height="360" minBitrate="400" maxBitrate="600">https://a.test/r.mp4</MediaFile>
    <MediaFile type="video/mp4" width="640" height="360" bitrate="700">https://a.test/b.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`);
  assert.equal(ranged.mediaFiles.map((m) => m.bitrate), [500, 700]);
});

test('media files in the order to try them: a guessed type (WebKit\'s "maybe" to FLV) last, "probably" before "maybe" at equal fit', () => {
  const f = (type: string, extra: Partial<MediaFile> = {}) => ({ url: `http://a/${type}/${extra.width ?? 640}`, type, width: 640, height: 360, ...extra });
  const webkit: CanPlay = (t) => (/^video\/mp4/.test(t) ? (t.includes('codecs') ? 'probably' : 'maybe') : t === 'video/x-flv' ? 'maybe' : '');
  const urls = (files: MediaFile[], target?: MediaTarget) => rankMediaFiles(files, webkit, target).map((m) => m.url);
  const flv = f('video/x-flv');
  const mp4 = f('video/mp4');
  const mp4Codecs = f('video/mp4', { codec: 'avc1.4d401e,mp4a.40.2', url: 'http://a/mp4-codecs' });
  assert.equal(urls([flv, mp4]), [mp4.url, flv.url], 'FLV is tried only after the MP4 fails');
  assert.equal(urls([flv, mp4], { width: 640, height: 360, kbps: 0 }), [mp4.url, flv.url]);
  assert.equal(urls([mp4, mp4Codecs]), [mp4Codecs.url, mp4.url], 'the codecs are asked about: "probably" first');
  assert.equal(urls([f('video/webm'), mp4]), [mp4.url], 'a type the engine refuses is never tried');
  // A nearer size outweighs "probably" among web video types; a guessed type stays last whatever its size.
  const small = f('video/mp4', { width: 320, height: 180 });
  const flvSmall = f('video/x-flv', { width: 320, height: 180 });
  assert.equal(urls([mp4Codecs, small, flvSmall], { width: 320, height: 180, kbps: 0 }), [small.url, mp4Codecs.url, flvSmall.url]);
  // The codecs only raise the answer: a codec written loosely or not supported leaves the container's 'maybe'.
  const hevc = f('video/mp4', { codec: 'hev1.1.6.L93.B0', url: 'http://a/hevc' });
  const hevcRefused: CanPlay = (t) => (t.includes('hev1') ? '' : webkit(t));
  assert.equal(rankMediaFiles([hevc, mp4Codecs], hevcRefused).map((m) => m.url), [mp4Codecs.url, hevc.url]);
});

test('malformed XML: 100, with the Error URL still read from the text', () => {
  const e = failure(() => parseVast(fixture('malformed')));
  assert.is(e.code, 100);
  assert.is(e.message, 'Failed parsing xml');
  assert.equal(e.errorUrls, [`${O}/ads/track?ad=malformed&ev=error&code=[ERRORCODE]`]);
});

test('empty VAST: 303 (no ads) with its root Error URL', () => {
  const e = failure(() => parseVast(fixture('empty')));
  assert.equal([e.code, e.message], [303, 'Empty vast']);
  assert.equal(e.errorUrls, [`${O}/ads/track?ad=empty&ev=error&code=[ERRORCODE]`]);
});

test('several ads are all read; an Ad without InLine/Wrapper is left out (101 when none is left)', () => {
  const two = '<VAST version="3.0"><Ad id="a"><InLine/></Ad><Ad id="x"/><Ad id="b"><InLine/></Ad></VAST>';
  assert.equal(read(two).ads.map((a) => a.adId), ['a', 'b']);
  assert.is(failure(() => parseVast('<VAST><Error>https://e.test/</Error><Ad id="a"></Ad></VAST>')).code, 101);
  assert.is(failure(() => parseVast('<NotVast><Ad/></NotVast>')).code, 101);
  // Nested Ads are not ads of the answer, and their Error URLs are not the root's.
  const nested = failure(() => parseVast('<VAST><Error>https://root.test/</Error><Extensions><Ad><InLine><Error>https://nested.test/</Error></InLine></Ad></Extensions></VAST>'));
  assert.equal([nested.code, nested.errorUrls], [303, ['https://root.test/']]);
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
  const d = one(js);
  assert.equal(d.impressions, ['https://ok.test/imp']);
  assert.equal(d.errors, []);
  assert.equal(d.tracking, []);
  assert.is(d.clickThrough, undefined);
  assert.equal(d.clickTracking, []);
  assert.equal(d.mediaFiles.map((f) => f.url), ['https://a.test/ok.mp4']);
  const wrapperJs = '<VAST><Ad><Wrapper><VASTAdTagURI>javascript:alert(1)</VASTAdTagURI></Wrapper></Ad></VAST>';
  assert.is(one(wrapperJs).wrapperUrl, '', 'no usable tag: the loader reports 300');
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
  for (const bad of ['<a>&#0;</a>', '<a>&#xD800;</a>', '<a>\u0001</a>', '<a x="1" x="2"/>', '<p:a/>', '<a><!-- a -- b --></a>', '<a>]]></a>', '<a/><?xml version="1.0"?>', '</a x="1">']) {
    assert.not.ok(isWellFormedXml(bad), JSON.stringify(bad));
  }
  assert.ok(isWellFormedXml('<p:a xmlns:p="urn:x" xsi:b="1" xmlns:xsi="urn:y"/>'));
  assert.ok(isWellFormedXml(`${'<a>'.repeat(64)}${'</a>'.repeat(64)}`));
  assert.not.ok(isWellFormedXml(`${'<a>'.repeat(65)}${'</a>'.repeat(65)}`), 'nesting is capped');
});

test('the well-formedness check is linear: long runs of tags and attributes end (a loose bound, far above linear time)', () => {
  // Quadratic work on these inputs would be about 10^10 steps (minutes); linear is milliseconds.
  const t0 = performance.now();
  assert.ok(isWellFormedXml(`<a>${'<b x="1"/>'.repeat(100000)}</a>`));
  assert.not.ok(isWellFormedXml(`<a${' x="1"'.repeat(100000)}`));
  assert.not.ok(isWellFormedXml(`<a>${'&amp;'.repeat(100000)}&</a>`));
  assert.ok(performance.now() - t0 < 15000);
});

test.run();
