import { AdErrors } from './ad-error';
import type { AdPixels } from './pixels';
import { MAX_VAST_CHARS, type VastDoc, type VastFailure, parseVast } from './vast-parse';

/** Wrappers followed before giving up (VAST's recommended limit). */
const MAX_WRAPPER_DEPTH = 5;
/** Per level: a slow ad server costs the viewer at most this long per document. */
const VAST_TIMEOUT_MS = 4000;

export interface LoadedVast {
  /** The InLine document. */
  doc: VastDoc;
  /** Impressions, errors, tracking and click tracking of every level, outermost first. */
  pixels: AdPixels;
}

export type FetchText = (url: string, signal: AbortSignal) => Promise<string>;

const abortError = () => new DOMException('aborted', 'AbortError');

/** GET a VAST document as text, with its own timeout (350) and SPEC §8's 'Failed load VAST' (900). */
function fetchVastText(timeoutMs = VAST_TIMEOUT_MS): FetchText {
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
      const res = await fetch(url, { signal: ctl.signal, credentials: 'include' });
      if (!res.ok) throw AdErrors.load;
      const len = Number(res.headers.get('content-length'));
      if (len > MAX_VAST_CHARS * 4) throw AdErrors.parse;
      return await res.text();
    } catch (err) {
      if (signal.aborted) throw abortError();
      if (timedOut) throw AdErrors.timeout;
      throw err && typeof err === 'object' && 'code' in err ? err : AdErrors.load;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    }
  };
}

/**
 * Loads a VAST tag and follows Wrapper ads (VASTAdTagURI) down to the InLine, merging every level's
 * pixels: real ad servers answer with wrappers, and each level counts its own impressions.
 * Throws a VastFailure whose errorUrls are those of every level read so far.
 */
export async function loadVast(url: string, signal: AbortSignal, fetchText: FetchText = fetchVastText()): Promise<LoadedVast> {
  const pixels: AdPixels = { impressions: [], errors: [], tracking: [], clickTracking: [] };
  let next = url;
  for (let depth = 0; depth <= MAX_WRAPPER_DEPTH; depth++) {
    let doc: VastDoc;
    try {
      doc = parseVast(await fetchText(next, signal), next);
    } catch (err) {
      if (signal.aborted) throw abortError();
      const f = err as Partial<VastFailure>;
      const failure: VastFailure = {
        code: f.code ?? 900,
        message: f.message ?? 'Unknown error',
        errorUrls: [...pixels.errors, ...(f.errorUrls ?? [])],
      };
      // An inner tag that has no ad is VAST's 303: the wrapper's promise was not kept.
      if (depth > 0 && failure.code === 901) failure.code = 303;
      throw failure;
    }
    pixels.impressions.push(...doc.impressions);
    pixels.errors.push(...doc.errors);
    pixels.tracking.push(...doc.tracking);
    pixels.clickTracking.push(...doc.clickTracking);
    if (!doc.wrapperUrl) return { doc, pixels };
    next = doc.wrapperUrl;
  }
  throw { ...AdErrors.wrapper, errorUrls: pixels.errors } satisfies VastFailure;
}
