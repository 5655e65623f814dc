/**
 * Fills the VAST macros of a tracking URL: [ERRORCODE] (900 when none), [CACHEBUSTING] (8 random
 * digits) and [TIMESTAMP] (ISO 8601), also in their percent-encoded form.
 */
export function fillMacros(url: string, code?: number, now: Date = new Date(), random: () => number = Math.random): string {
  const values: Record<string, string> = {
    ERRORCODE: String(code ?? 900),
    CACHEBUSTING: String(Math.floor(random() * 9e7) + 1e7),
    TIMESTAMP: encodeURIComponent(now.toISOString()),
  };
  return url.replace(/(?:\[|%5B)(ERRORCODE|CACHEBUSTING|TIMESTAMP)(?:\]|%5D)/gi, (_, name: string) => values[name.toUpperCase()]);
}
