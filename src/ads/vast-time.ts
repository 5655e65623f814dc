/** A VAST offset: a time in seconds, or a share of the ad's duration (VAST 3+ `n%`). */
export type Offset = { seconds: number } | { percent: number };

const CLOCK = /^(\d{1,3}):([0-5]\d):([0-5]\d)(\.\d{1,3})?$/;
const PERCENT = /^(\d{1,3}(?:\.\d+)?)%$/;

/** SPEC §5: hours:minutes:seconds with an optional fraction; also `n%`. Anything else is no offset. */
export function parseOffset(text: string | null | undefined): Offset | undefined {
  const s = (text ?? '').trim();
  const m = CLOCK.exec(s);
  if (m) return { seconds: +m[1] * 3600 + +m[2] * 60 + +m[3] + (m[4] ? +m[4] : 0) };
  const p = PERCENT.exec(s);
  if (p && +p[1] <= 100) return { percent: +p[1] };
  return undefined;
}

/** The offset in seconds for an ad of `duration` seconds (NaN while a percentage cannot be resolved). */
export function offsetSeconds(offset: Offset, duration: number): number {
  return 'seconds' in offset ? offset.seconds : duration > 0 ? (duration * offset.percent) / 100 : NaN;
}
