import { readCookie } from '../storage/cookies';

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

/** The headers every request carries (SPEC §7): the device fingerprint, empty when absent. */
export function commonHeaders(): Record<string, string> {
  return { 'X-Session-Context': readCookie('device_fp') ?? '' };
}

/** GET a JSON document. Aborts through `signal`; never times out by itself (SPEC §9: timeout 0). */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { headers: { Accept: 'application/json', ...commonHeaders() }, signal });
  const text = await res.text();
  if (!res.ok) throw httpError(res.status, url, text);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw httpError(res.status, url, text);
  }
}
