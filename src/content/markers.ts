// An episode's intro and credits markers (not in SPEC's data): read where the lazy pieces take them
// from the episode, in the manner of validate.ts. A marker that cannot be right is dropped with a
// warning and the rest of the episode plays as if it had none.

/** Seconds of the episode's own time. */
export interface Markers {
  intro?: { start: number; end: number };
  credits?: number;
}

type Bag = Record<string, unknown>;
const time = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

/**
 * `raw` is the catalogue's `markers` ({ introStart, introEnd, creditsStart }); `duration` the episode's
 * length when known. The intro needs both ends, in order, within the episode; the credits start after
 * the intro and before the end.
 */
export function readMarkers(raw: unknown, duration?: number | null): Markers {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    console.warn('[player] episode markers are not an object, ignored', raw);
    return {};
  }
  try {
    return read(raw as Bag, typeof duration === 'number' && duration > 0 ? duration : Infinity);
  } catch (err) {
    console.warn('[player] episode markers could not be read, ignored', err);
    return {};
  }
}

function read(m: Bag, length: number): Markers {
  const out: Markers = {};
  if (m.introStart !== undefined || m.introEnd !== undefined) {
    const start = time(m.introStart);
    const end = time(m.introEnd);
    if (start !== undefined && end !== undefined && start < end && end <= length) out.intro = { start, end };
    else console.warn('[player] intro markers ignored', m.introStart, m.introEnd);
  }
  if (m.creditsStart !== undefined) {
    const credits = time(m.creditsStart);
    if (credits !== undefined && credits > 0 && credits < length && credits >= (out.intro?.end ?? 0)) out.credits = credits;
    else console.warn('[player] credits marker ignored', m.creditsStart);
  }
  return out;
}
