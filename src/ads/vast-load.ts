import { type AdError, AdErrors, isAdError } from './ad-error';
import type { TakeEarly } from '../core/ads-contract';
import type { AdPixels } from './pixels';
import { MAX_VAST_CHARS, type VastDoc, type VastFailure, type VastResponse, isFailure, parseVast } from './vast-parse';

/** Wrappers followed before giving up (VAST's recommended limit): more is 302. */
const MAX_WRAPPER_DEPTH = 5;
/** Per level: a slow ad server costs the viewer at most this long per document. */
const VAST_TIMEOUT_MS = 4000;

export interface LoadedVast {
  /** The InLine ad. */
  doc: VastDoc;
  /** Impressions, errors, tracking and click tracking of every level, outermost first. */
  pixels: AdPixels;
}

export type FetchText = (url: string, signal: AbortSignal) => Promise<string>;

const abortError = () => new DOMException('aborted', 'AbortError');

/**
 * GET a VAST document as text, with its own timeout (350) and SPEC §8's 'Failed load VAST' (900). The
 * first pre-roll's was started by the bootstrap as soon as the ad list answered (`takeEarly`): the
 * same request, taken over, under the same timeout and the same errors.
 */
export function fetchVastText(timeoutMs = VAST_TIMEOUT_MS, takeEarly?: TakeEarly): FetchText {
  return async (url, signal) => {
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, timeoutMs);
    const forward = () => ctl.abort();
    signal.addEventListener('abort', forward);
    try {
      const early = takeEarly?.(url, ctl.signal);
      if (early) {
        const answer = await early;
        if (!answer.ok) throw AdErrors.load;
        return answer.text;
      }
      const res = await fetch(url, { signal: ctl.signal, credentials: 'include' });
      if (!res.ok) throw AdErrors.load;
      const len = Number(res.headers.get('content-length'));
      if (len > MAX_VAST_CHARS * 4) throw AdErrors.parse;
      return await res.text();
    } catch (err) {
      if (signal.aborted) throw abortError();
      if (timedOut) throw AdErrors.timeout;
      throw isAdError(err) ? err : AdErrors.load;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    }
  };
}

const failure = (e: AdError, errorUrls: string[]): VastFailure => ({ code: e.code, message: e.message, errorUrls });

/**
 * Loads a VAST tag: its ads (a pod, a buffet or a single ad), or a VastFailure with the Error URLs
 * it could read (a failed fetch is SPEC §8's 900, or 350 on timeout; an answer without ads 303).
 */
export async function loadVast(url: string, signal: AbortSignal, fetchText: FetchText = fetchVastText()): Promise<VastResponse> {
  let text: string;
  try {
    text = await fetchText(url, signal);
  } catch (err) {
    if (signal.aborted) throw abortError();
    throw failure(isAdError(err) ? err : AdErrors.load, []);
  }
  const res = parseVast(text, url);
  if (isFailure(res)) throw res;
  return res;
}

/** A wrapper's target answers with one ad: the first of its pod, else its first stand-alone ad. */
const firstAd = (ads: VastDoc[]) => ads.filter((a) => a.sequence !== undefined).sort((a, b) => a.sequence! - b.sequence!)[0] ?? ads[0];

/**
 * Follows an ad's Wrapper chain (VASTAdTagURI) down to its InLine, merging every level's pixels:
 * real ad servers answer with wrappers, and each level counts its own impressions and clicks.
 * Throws a VastFailure carrying the Error URLs of every level it concerns: 300 a wrapper without a
 * usable tag, 301 a target that failed or timed out, 302 past the depth limit, 303 a target without
 * ads, the target's own 100/101/102, and 201 for an InLine without a Linear creative.
 */
export async function resolveAd(ad: VastDoc, signal: AbortSignal, fetchText: FetchText = fetchVastText()): Promise<LoadedVast> {
  const pixels: AdPixels = { impressions: [], errors: [], tracking: [], clickTracking: [] };
  let doc = ad;
  for (let depth = 0; ; depth++) {
    pixels.impressions.push(...doc.impressions);
    pixels.errors.push(...doc.errors);
    pixels.tracking.push(...doc.tracking);
    pixels.clickTracking.push(...doc.clickTracking);
    if (doc.wrapperUrl === undefined) break;
    if (!doc.wrapperUrl) throw failure(AdErrors.wrapper, pixels.errors);
    if (depth >= MAX_WRAPPER_DEPTH) throw failure(AdErrors.wrapperLimit, pixels.errors);
    let text: string;
    try {
      text = await fetchText(doc.wrapperUrl, signal);
    } catch (err) {
      if (signal.aborted) throw abortError();
      throw failure((err as AdError)?.code === 100 ? AdErrors.parse : AdErrors.wrapperLoad, pixels.errors);
    }
    const res = parseVast(text, doc.wrapperUrl);
    if (isFailure(res)) throw failure(res, [...pixels.errors, ...res.errorUrls]);
    doc = firstAd(res.ads);
  }
  if (!doc.linear) throw failure(AdErrors.nonLinear, pixels.errors);
  return { doc, pixels };
}
