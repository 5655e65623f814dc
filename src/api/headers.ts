import { readCookie } from '../storage/cookies';

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
