// Pure parsing of the values partners hand us; every function returns undefined for anything it
// cannot use, so bad input never reaches the player as NaN or a half-parsed number.

/** A whole non-negative integer written only with digits (surrounding spaces allowed). */
export function parseInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** SPEC §5: time codes are accepted only if they consist of digits and dots, then parsed as an integer. */
export function parseTimeCode(value: unknown): number | undefined {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string' || !/^[\d.]+$/.test(value)) return undefined;
  const n = parseInt(value, 10);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A flag present in the query: `?x`, `?x=`, `?x=1`, `?x=true` are on; `?x=0`, `?x=false` are off. */
export function parseFlag(value: string | null): boolean {
  return value !== null && !/^(0|false|no|off)$/i.test(value.trim());
}

export function nonEmpty(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  return s ? s : undefined;
}
