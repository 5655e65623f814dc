import { readCookie } from '../storage/cookies';
import { bearer } from './auth';

/** A response that arrived but was not OK. The body is kept for the error report (SPEC §7). */
export interface HttpError extends Error {
  name: 'HttpError';
  status: number;
  url: string;
  body: string;
}

export function httpError(status: number, url: string, body: string): HttpError {
  const err = new Error(`HTTP ${status} for ${url}`) as HttpError;
  err.name = 'HttpError';
  err.status = status;
  err.url = url;
  err.body = body.slice(0, 2000);
  return err;
}

export const isHttpError = (e: unknown): e is HttpError => e instanceof Error && e.name === 'HttpError';
export const isAbortError = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';

/**
 * The headers every request carries (SPEC §7, §9): the device fingerprint (empty when absent) and
 * the XSRF-TOKEN cookie echoed as X-XSRF-TOKEN.
 */
export function commonHeaders(): Record<string, string> {
  const h: Record<string, string> = { 'X-Session-Context': readCookie('device_fp') ?? '' };
  const xsrf = readCookie('XSRF-TOKEN');
  if (xsrf) h['X-XSRF-TOKEN'] = xsrf;
  return h;
}

export interface RequestOptions {
  method?: string;
  /** Already encoded; `headers` says how (call.ts sends JSON). */
  body?: string;
  headers?: Record<string, string>;
  /** Every request is cancellable; none times out by itself (SPEC §9: timeout 0). */
  signal?: AbortSignal;
  /** Marks a secure call: the API base against which the Bearer token is refreshed when expired. */
  secure?: string;
}

/** One request; answers the parsed JSON body (undefined when empty), throws HttpError when not OK. */
export async function requestJson<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...commonHeaders(), ...opts.headers };
  if (opts.secure !== undefined) {
    const token = await bearer(opts.secure);
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  const res = await fetch(url, { method: opts.method, headers, body: opts.body, signal: opts.signal });
  const text = await res.text();
  if (!res.ok) throw httpError(res.status, url, text);
  try {
    return (text ? JSON.parse(text) : undefined) as T;
  } catch {
    throw httpError(res.status, url, text);
  }
}

/** GET a JSON document from anywhere (no Bearer: the address may be another host's). */
export const getJson = <T>(url: string, signal?: AbortSignal): Promise<T> => requestJson<T>(url, { signal });
