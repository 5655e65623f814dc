// The chain of waits a first frame came at the end of, read back from a run's waterfall: where the time
// went (round trips, transfers, the page's own work between them), so a ratio can be read against the
// floor its chain allows rather than guessed at.

export interface Timed {
  url: string;
  /** ms since navigation start */
  start: number;
  /** Finished by then; none if still loading at the moment looked at. */
  end?: number;
  /** The first bytes of the response arrived by then; none if not yet. */
  firstByte?: number;
  /** The files whose code or markup started it (the browser's initiator: the page, the script's call stack). */
  initiators?: readonly string[];
  /** The response's text (not for scripts or media): the addresses it names. */
  body?: string;
}

const lastSegment = (url: string) => new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';

/** Did `r` wait for `by`: finished before `r` went out, and the code that started `r` or a response naming it. */
const waitedFor = (r: Timed, by: Timed) =>
  by.end !== undefined && by.end <= r.start && ((r.initiators?.includes(by.url) ?? false) || (by.body?.includes(lastSegment(r.url)) ?? false));

/**
 * The requests the moment `at` waited for one after another, first to last. The last link is what
 * arrived last before `at`: the request that finished last, or one still streaming whose first bytes
 * came later (a progressive MP4 plays before it is all in). Each link before is the latest-finished
 * request the next one needed: the script whose code started it, or a response naming it (the page
 * its files, the episodes the master playlist, the master its variants, a VAST its media). A request
 * that needed nothing finished (the page) ends the walk.
 */
export function criticalChain<T extends Timed>(rows: readonly T[], at: number): T[] {
  const latest = (pick: (r: T) => number | undefined) => {
    let best: T | undefined;
    for (const r of rows) {
      const t = pick(r);
      if (t !== undefined && t <= at && (!best || t > pick(best)!)) best = r;
    }
    return best;
  };
  const finished = latest((r) => r.end);
  const streaming = latest((r) => (r.end === undefined || r.end > at ? r.firstByte : undefined));
  let link = streaming && (!finished || streaming.firstByte! > finished.end!) ? streaming : finished;
  const chain: T[] = [];
  while (link) {
    chain.unshift(link);
    const next: T = link;
    link = latest((r) => (!chain.includes(r) && waitedFor(next, r) ? r.end : undefined));
  }
  return chain;
}

export interface ChainTime {
  /** The links' round trips: what no transfer speed can shorten. */
  roundTrips: number;
  /** What each link took beyond its round trip: its bytes arriving (up to `at` for one still streaming). */
  transfers: number;
  /** Before, between and after the links: the page's own work, or a wait for a connection. */
  between: number;
}

/** Splits the time to `at` along the chain; the three add up to `at`. */
export function chainTime(chain: readonly Timed[], at: number, roundTrip: number): ChainTime {
  let roundTrips = 0;
  let transfers = 0;
  let between = 0;
  let from = 0;
  for (const link of chain) {
    between += Math.max(0, link.start - from);
    const end = link.end ?? at;
    const took = Math.max(0, end - Math.max(link.start, from));
    roundTrips += Math.min(took, roundTrip);
    transfers += Math.max(0, took - roundTrip);
    from = Math.max(from, end);
  }
  between += Math.max(0, at - from);
  return { roundTrips, transfers, between };
}
