import { requestJson } from './http';

export type Query = Record<string, string | number | boolean | null | undefined>;

/** A path segment from a caller's value, so an id can never add segments or a query. */
export const seg = (v: string | number) => encodeURIComponent(String(v));

/** '?a=1&b=2' without the empty values, or ''. */
export function qs(q: Query = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null) p.append(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * A secure call of one of the product's services (SPEC §6 "calls are marked secure"): Bearer token,
 * refreshed against `base` when expired. `service` is the base path, e.g. '/catalog-api'.
 */
export const call = <T>(base: string, service: string, method: string, path: string, body?: unknown, signal?: AbortSignal) =>
  requestJson<T>(base + service + path, {
    method,
    signal,
    secure: base,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
  });
