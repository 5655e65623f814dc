import type { AdsHost } from '../core/ads-contract';
import { isAbortError } from '../core/errors';
import { safeUrl } from './vast-parse';

type GetJson = AdsHost['getJson'];

/** SPEC §3 ad list: the VAST tags of the pre-roll and of the mid-roll, in order. */
export interface AdList {
  preroll: string[];
  midroll: string[];
}

/** The ad list may hold the content back this long at most (SPEC: the content is always reachable). */
const AD_LIST_TIMEOUT_MS = 5000;
const MAX_TAGS = 10;

const tags = (raw: unknown, base: string): string[] =>
  (Array.isArray(raw) ? raw : [])
    .map((item) => safeUrl(typeof (item as { vastUrl?: unknown })?.vastUrl === 'string' ? (item as { vastUrl: string }).vastUrl : '', base))
    .filter((u): u is string => !!u)
    .slice(0, MAX_TAGS);

function readAdList(raw: unknown, base: string): AdList {
  const r = (raw ?? {}) as { prerollList?: unknown; midrollList?: unknown };
  return { preroll: tags(r.prerollList, base), midroll: tags(r.midrollList, base) };
}

/**
 * GET the ad list with the common headers (SPEC §7), cancellable through `signal`. Resolves to
 * undefined when `signal` aborted it (SPEC §8: abort errors are ignored); a failure or the timeout
 * rejects.
 */
export async function fetchAdList(url: string, getJson: GetJson, signal: AbortSignal, timeoutMs = AD_LIST_TIMEOUT_MS): Promise<AdList | undefined> {
  const ctl = new AbortController();
  const forward = () => ctl.abort();
  signal.addEventListener('abort', forward);
  const timer = setTimeout(() => ctl.abort(new DOMException('ad list timeout', 'TimeoutError')), timeoutMs);
  try {
    const base = new URL(url, document.baseURI).href;
    return readAdList(await getJson(base, ctl.signal), base);
  } catch (err) {
    if (signal.aborted && isAbortError(err)) return undefined;
    throw ctl.signal.aborted ? ctl.signal.reason : err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }
}
