import { type AdError, AdErrors } from './ad-error';
import { type Offset, parseOffset } from './vast-time';
import { isWellFormedXml } from './xml-check';

export interface MediaFile {
  url: string;
  type: string;
  width: number;
  height: number;
  codec?: string;
  apiFramework?: string;
  /** kbps, from bitrate (or the middle of minBitrate..maxBitrate). */
  bitrate?: number;
}

export interface Tracking {
  event: string;
  url: string;
  /** Only for `progress`. */
  offset?: Offset;
}

/** What the player reads from one <Ad> (SPEC §3 "VAST data read"), each part from its own creative. */
export interface VastDoc {
  adId: string;
  /** Position in an ad pod (VAST 3+ `sequence`); none for a stand-alone ad. */
  sequence?: number;
  /** VASTAdTagURI when the ad is a Wrapper ('' when it has none that is usable). */
  wrapperUrl?: string;
  /** The InLine has a Linear creative (one with NonLinear or companions only cannot play here). */
  linear: boolean;
  impressions: string[];
  errors: string[];
  tracking: Tracking[];
  clickThrough?: string;
  clickTracking: string[];
  skipOffset?: Offset;
  /** Seconds, from Linear/Duration. */
  duration?: number;
  /** Only the media files that have width, height, url and type (SPEC §5). */
  mediaFiles: MediaFile[];
  adParameters?: string;
}

/** A VAST answer: its ads in document order and the root's Error URLs (the "no ad" ones). */
export interface VastResponse {
  ads: VastDoc[];
  errors: string[];
}

/** A failed document, with the error URLs that could still be read from it. */
export type VastFailure = AdError & { errorUrls: string[] };

export const isFailure = (r: VastResponse | VastFailure): r is VastFailure => 'code' in r;

/** Larger answers are refused before parsing: no ad needs them, and a parser fed megabytes stalls the page. */
export const MAX_VAST_CHARS = 256 * 1024;
/** More ads than this in one answer are ignored (a pod or a buffet is a handful). */
const MAX_ADS = 16;
const MAX_URLS = 32;

// CDATA becomes the equivalent escaped text: the same document, and one every DOMParser reads alike
// (some, like happy-dom's, do not support CDATA sections).
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g;
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const fail = (e: AdError, errorUrls: string[] = []): VastFailure => ({ ...e, errorUrls: [...new Set(errorUrls)] });

/** http(s) only: a javascript:, data: or other URL from an ad server is dropped. */
export function safeUrl(raw: string | null | undefined, base?: string): string | undefined {
  const s = (raw ?? '').trim();
  if (!s) return undefined;
  try {
    const u = new URL(s, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a VAST answer; never throws. A DOCTYPE is refused outright, so entity definitions (billion
 * laughs, external entities) never reach the parser, and a document that is not well-formed (or
 * nested too deep) never reaches DOMParser at all: 100. XML that is not VAST is 101, VAST 1.0 or an
 * unknown version 102, an answer without an ad 303 (SPEC §8's 'Empty vast').
 */
export function parseVast(text: string, base?: string): VastResponse | VastFailure {
  try {
    return read(text, base);
  } catch {
    return fail(AdErrors.parse, salvageErrorUrls(text, base));
  }
}

function read(text: string, base?: string): VastResponse | VastFailure {
  // A byte-order mark or a blank line before the XML declaration: the browser's parser would refuse it.
  text = text.trimStart();
  if (text.length > MAX_VAST_CHARS) return fail(AdErrors.parse);
  if (/<!DOCTYPE|<!ENTITY/i.test(text) || !isWellFormedXml(text)) return fail(AdErrors.parse, salvageErrorUrls(text, base));
  const doc = new DOMParser().parseFromString(text.replace(CDATA, (_, c: string) => escapeText(c)), 'application/xml');
  const root = doc?.documentElement;
  if (!root || doc.getElementsByTagName('parsererror').length) return fail(AdErrors.parse, salvageErrorUrls(text, base));
  const urls = (els: Element[]) => {
    const out: string[] = [];
    for (const el of els) {
      const u = safeUrl(el.textContent, base);
      if (u && out.length < MAX_URLS) out.push(u);
    }
    return out;
  };
  // A version it cannot read: every Error URL in it is told (VAST 1.0 keeps them in <Error><URL>).
  const allErrors = () => urls(Array.from(doc.getElementsByTagName('Error')));
  if (root.nodeName === 'VideoAdServingTemplate') return fail(AdErrors.version, allErrors());
  if (root.nodeName !== 'VAST') return fail(AdErrors.schema, allErrors());
  const version = root.getAttribute('version')?.trim();
  if (version && !/^[234](\.\d{1,3}){0,2}$/.test(version)) return fail(AdErrors.version, allErrors());
  const errors = urls(kids(root, 'Error'));
  const adEls = kids(root, 'Ad');
  if (!adEls.length) return fail(AdErrors.empty, errors);
  const ads = adEls
    .slice(0, MAX_ADS)
    .map((ad) => readAd(ad, base, urls))
    .filter((a): a is VastDoc => !!a);
  return ads.length ? { ads, errors } : fail(AdErrors.schema, errors);
}

function readAd(ad: Element, base: string | undefined, urls: (els: Element[]) => string[]): VastDoc | undefined {
  const body = kid(ad, 'InLine') ?? kid(ad, 'Wrapper');
  if (!body) return undefined;
  const wrapper = body.nodeName === 'Wrapper';
  const creatives = kids(kid(body, 'Creatives'), 'Creative');
  const linears = creatives.map((c) => kid(c, 'Linear')).filter((l): l is Element => !!l);
  const linear = linears[0];
  // An InLine plays one Linear creative, and only its pixels count; a Wrapper's every Linear
  // creative adds its trackers to the ad it wraps.
  const scope = wrapper ? linears : linears.slice(0, 1);
  const creative = linear?.parentElement;
  const seq = Number(ad.getAttribute('sequence'));
  const out: VastDoc = {
    adId: ad.getAttribute('id') || creative?.getAttribute('id') || creative?.getAttribute('adId') || '',
    linear: !!linear,
    impressions: urls(kids(body, 'Impression')),
    errors: urls(kids(body, 'Error')),
    tracking: [],
    clickTracking: urls(scope.flatMap((l) => kids(kid(l, 'VideoClicks'), 'ClickTracking'))),
    mediaFiles: [],
  };
  if (Number.isInteger(seq) && seq > 0) out.sequence = seq;
  if (wrapper) out.wrapperUrl = safeUrl(kid(body, 'VASTAdTagURI')?.textContent, base) ?? '';
  for (const el of scope.flatMap((l) => kids(kid(l, 'TrackingEvents'), 'Tracking'))) {
    const event = el.getAttribute('event');
    const url = safeUrl(el.textContent, base);
    if (!event || !url || out.tracking.length >= MAX_URLS * 4) continue;
    const t: Tracking = { event, url };
    if (event === 'progress') {
      const offset = parseOffset(el.getAttribute('offset'));
      if (!offset) continue;
      t.offset = offset;
    }
    out.tracking.push(t);
  }
  if (!linear) return out;
  out.clickThrough = safeUrl(kid(kid(linear, 'VideoClicks'), 'ClickThrough')?.textContent, base);
  out.skipOffset = parseOffset(linear.getAttribute('skipoffset'));
  const d = parseOffset(kid(linear, 'Duration')?.textContent);
  if (d && 'seconds' in d) out.duration = d.seconds;
  const params = kid(linear, 'AdParameters')?.textContent?.trim();
  if (params) out.adParameters = params;
  for (const el of kids(kid(linear, 'MediaFiles'), 'MediaFile').slice(0, MAX_URLS)) {
    const url = safeUrl(el.textContent, base);
    const type = el.getAttribute('type')?.trim();
    const width = num(el.getAttribute('width'));
    const height = num(el.getAttribute('height'));
    if (!url || !type || width === undefined || height === undefined) continue;
    const f: MediaFile = { url, type, width, height };
    const codec = el.getAttribute('codec');
    const api = el.getAttribute('apiFramework');
    const bitrate = num(el.getAttribute('bitrate')) ?? mid(num(el.getAttribute('minBitrate')), num(el.getAttribute('maxBitrate')));
    if (codec) f.codec = codec;
    if (api) f.apiFramework = api;
    if (bitrate) f.bitrate = bitrate;
    out.mediaFiles.push(f);
  }
  return out;
}

const num = (s: string | null) => {
  const n = s === null || s.trim() === '' ? NaN : Number(s);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};
const mid = (a?: number, b?: number) => (a !== undefined && b !== undefined ? (a + b) / 2 : undefined);

const kids = (el: Element | undefined, tag: string) => (el ? Array.from(el.children).filter((c) => c.nodeName === tag) : []);
const kid = (el: Element | undefined, tag: string): Element | undefined => kids(el, tag)[0];

/**
 * A malformed document cannot be walked, but its <Error> URLs usually survive; firing them is how
 * the ad server learns its tag is broken (code 100).
 */
function salvageErrorUrls(text: string, base?: string): string[] {
  const out: string[] = [];
  const re = /<Error>\s*(?:<!\[CDATA\[)?\s*([^<\s]{1,2048}?)\s*(?:\]\]>|<\/Error>)/g;
  const head = text.slice(0, MAX_VAST_CHARS);
  for (let m = re.exec(head); m && out.length < 10; m = re.exec(head)) {
    const u = safeUrl(m[1].replace(/&amp;/g, '&'), base);
    if (u) out.push(u);
  }
  return [...new Set(out)];
}
