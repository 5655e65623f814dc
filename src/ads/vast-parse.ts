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
}

export interface Tracking {
  event: string;
  url: string;
  /** Only for `progress`. */
  offset?: Offset;
}

/** What the player reads from one VAST document (SPEC §3 "VAST data read"). */
export interface VastDoc {
  adId: string;
  /** VASTAdTagURI when the ad is a Wrapper. */
  wrapperUrl?: string;
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

/** A failed document, with the error URLs that could still be read from it. */
export type VastFailure = AdError & { errorUrls: string[] };

/** Larger answers are refused before parsing: no ad needs them, and a parser fed megabytes stalls the page. */
export const MAX_VAST_CHARS = 256 * 1024;

// CDATA becomes the equivalent escaped text: the same document, and one every DOMParser reads alike
// (some, like happy-dom's, do not support CDATA sections).
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g;
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const fail = (e: AdError, errorUrls: string[] = []): VastFailure => ({ ...e, errorUrls });

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
 * Parses a VAST document (SPEC §5: it must be XML with exactly one Ad). Throws a VastFailure.
 * A DOCTYPE is refused outright, so entity definitions (billion laughs, external entities) never
 * reach the parser, and a document that is not well-formed never reaches DOMParser at all.
 */
export function parseVast(text: string, base?: string): VastDoc {
  if (text.length > MAX_VAST_CHARS) throw fail(AdErrors.parse);
  if (/<!DOCTYPE|<!ENTITY/i.test(text) || !isWellFormedXml(text)) throw fail(AdErrors.parse, salvageErrorUrls(text, base));
  let doc: Document | undefined;
  try {
    doc = new DOMParser().parseFromString(text.replace(CDATA, (_, c: string) => escapeText(c)), 'application/xml');
  } catch {
    doc = undefined;
  }
  const root = doc?.documentElement;
  if (!doc || !root || root.nodeName !== 'VAST' || doc.getElementsByTagName('parsererror').length) {
    throw fail(AdErrors.parse, salvageErrorUrls(text, base));
  }
  const urls = (scope: Element, tag: string) => {
    const out: string[] = [];
    for (const el of all(scope, tag)) {
      const u = safeUrl(el.textContent, base);
      if (u) out.push(u);
    }
    return out;
  };
  const ads = children(root, 'Ad');
  if (ads.length !== 1) throw fail(AdErrors.empty, urls(root, 'Error'));
  const ad = ads[0];
  const body = children(ad, 'InLine')[0] ?? children(ad, 'Wrapper')[0];
  if (!body) throw fail(AdErrors.empty, urls(root, 'Error'));
  const linear = all(body, 'Linear')[0];
  const creative = all(body, 'Creative')[0];
  const out: VastDoc = {
    adId: ad.getAttribute('id') || creative?.getAttribute('id') || creative?.getAttribute('adId') || '',
    impressions: urls(body, 'Impression'),
    errors: urls(body, 'Error'),
    tracking: [],
    clickTracking: linear ? urls(linear, 'ClickTracking') : [],
    mediaFiles: [],
  };
  if (body.nodeName === 'Wrapper') {
    const tag = safeUrl(all(body, 'VASTAdTagURI')[0]?.textContent, base);
    if (!tag) throw fail(AdErrors.wrapper, out.errors);
    out.wrapperUrl = tag;
  }
  if (!linear) return out;
  for (const el of all(linear, 'Tracking')) {
    const event = el.getAttribute('event');
    const url = safeUrl(el.textContent, base);
    if (!event || !url) continue;
    const t: Tracking = { event, url };
    if (event === 'progress') {
      const offset = parseOffset(el.getAttribute('offset'));
      if (!offset) continue;
      t.offset = offset;
    }
    out.tracking.push(t);
  }
  out.clickThrough = safeUrl(all(linear, 'ClickThrough')[0]?.textContent, base);
  out.skipOffset = parseOffset(linear.getAttribute('skipoffset'));
  const d = parseOffset(all(linear, 'Duration')[0]?.textContent);
  if (d && 'seconds' in d) out.duration = d.seconds;
  const params = all(linear, 'AdParameters')[0]?.textContent?.trim();
  if (params) out.adParameters = params;
  for (const el of all(linear, 'MediaFile')) {
    const url = safeUrl(el.textContent, base);
    const type = el.getAttribute('type')?.trim();
    const width = num(el.getAttribute('width'));
    const height = num(el.getAttribute('height'));
    if (!url || !type || width === undefined || height === undefined) continue;
    const f: MediaFile = { url, type, width, height };
    const codec = el.getAttribute('codec');
    const api = el.getAttribute('apiFramework');
    if (codec) f.codec = codec;
    if (api) f.apiFramework = api;
    out.mediaFiles.push(f);
  }
  return out;
}

const num = (s: string | null) => {
  const n = s === null || s.trim() === '' ? NaN : Number(s);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

const children = (el: Element, tag: string) => Array.from(el.children).filter((c) => c.nodeName === tag);
const all = (el: Element, tag: string) => Array.from(el.getElementsByTagName(tag));

/**
 * A malformed document cannot be walked, but its <Error> URLs usually survive; firing them is how
 * the ad server learns its tag is broken (code 100).
 */
function salvageErrorUrls(text: string, base?: string): string[] {
  const out: string[] = [];
  const re = /<Error>\s*(?:<!\[CDATA\[)?\s*([^<\s]{1,2048}?)\s*(?:\]\]>|<\/Error>)/g;
  for (let m = re.exec(text); m && out.length < 10; m = re.exec(text)) {
    const u = safeUrl(m[1].replace(/&amp;/g, '&'), base);
    if (u) out.push(u);
  }
  return out;
}
