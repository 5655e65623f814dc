import { httpError } from '../core/errors';
import { bearer } from './auth';
import { commonHeaders } from './headers';

export interface RequestOptions {
  method?: string;
  /** Already encoded; `headers` says how (call.ts sends JSON). */
  body?: string;
  headers?: Record<string, string>;
  /** Every request is cancellable; none times out by itself (SPEC §9: timeout 0), callers bound their waits. */
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
