import { lateTicks } from '../core/deadline';
import type { LinkState, MediaTraffic } from '../core/player-api';
import { IDLE_MS, OUTAGE_MS, START_IDLE_MS } from '../playback/deadlines';

/**
 * How long the media may go without progress before the source has failed: the playback policy's
 * deadlines (src/playback/deadlines.ts), watched here on the element and the traffic of every engine.
 * - START_IDLE_MS: from a source set to its first data, without a media byte.
 * - STALL_IDLE_MS: started and waiting for data, a load that has had no byte for this long (however
 *   much else arrives: the audio may flow while a video fragment is stuck) has the server asked
 *   whether it answers.
 * - OUTAGE_BUDGET_MS: a probe that gets no answer means the link itself is out (a tunnel): the spinner
 *   stays this long from the last byte before the screen, and a shorter outage resumes by itself.
 */
export { START_IDLE_MS };
export const STALL_IDLE_MS = IDLE_MS;
export const OUTAGE_BUDGET_MS = OUTAGE_MS;
/** A probe not answered within this counts as the link being out. */
const PROBE_TIMEOUT_MS = 4000;
const TICK_MS = 1000;

export interface Watchdog {
  traffic: MediaTraffic;
  /** A source was set, or played: its start is watched, unless it is already (`url` is what a failure names). */
  starting(url: string, earlier?: MediaTraffic): void;
  /** Its first data is in the element. */
  started(): void;
  /** Playing, waiting for data. */
  stalled(url: string): void;
  /** Playing again, paused, or another source. */
  resumed(): void;
  /** After an engine's fatal network error: whether the link is up, came back, or stayed out (or `signal` aborted). */
  waitForLink(url: string, signal: AbortSignal): Promise<LinkState>;
  dispose(): void;
}

/** Anything answering at `url` (any status, an opaque answer too) within the signal's life: the link is up. */
const probe = (url: string, signal: AbortSignal): Promise<unknown> => fetch(url, { method: 'HEAD', cache: 'no-store', mode: 'no-cors', signal });

/** Watches one element's sources: the start, stalls after it, and the link behind both. */
export function mediaWatchdog(fail: (details: 'start timeout' | 'stalled', url: string) => void): Watchdog {
  const traffic: MediaTraffic = { last: 0, open: new Map() };
  let phase: 'quiet' | 'starting' | 'stalled' = 'quiet';
  let since = 0;
  let url = '';
  let earlier: MediaTraffic | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether a tick ran late, after the page could not run (a new count each watch). */
  let late = lateTicks(TICK_MS);
  let probing: AbortController | undefined;
  let linkOut = false;
  /**
   * When the server answered a probe while a load was stuck (0: it has not). The verdict waits a tick:
   * through a slow link the answer and the load's first bytes come together (queued behind the same
   * bytes), and the loaders record a byte at their next tick.
   */
  let answeredAt = 0;

  const idleFor = () => performance.now() - Math.max(since, traffic.last, earlier?.last ?? 0);
  // The stalest open load; with none open, the time without any byte.
  const stuckFor = () => (traffic.open.size ? performance.now() - Math.min(...traffic.open.values()) : idleFor());
  const stop = () => {
    linkOut = false;
    answeredAt = 0;
    clearTimeout(timer);
    timer = undefined;
    probing?.abort();
    probing = undefined;
    phase = 'quiet';
  };
  const watch = (next: typeof phase, at: string) => {
    stop();
    phase = next;
    url = at;
    since = performance.now();
    late = lateTicks(TICK_MS);
    tick();
  };
  const ask = (at: string, signal: AbortSignal): Promise<boolean> => {
    const ctl = new AbortController();
    const cut = setTimeout(() => ctl.abort(), PROBE_TIMEOUT_MS);
    const forward = () => ctl.abort();
    signal.addEventListener('abort', forward);
    return probe(at, ctl.signal)
      .then(() => ((traffic.answered = performance.now()), true))
      .catch(() => false)
      .finally(() => {
        clearTimeout(cut);
        signal.removeEventListener('abort', forward);
      });
  };

  function tick(): void {
    timer = setTimeout(tick, TICK_MS);
    if (late(performance.now())) return;
    const idle = idleFor();
    if (phase === 'starting' && idle >= START_IDLE_MS) return end('start timeout');
    if (phase !== 'stalled' || probing) return;
    if (idle >= OUTAGE_BUDGET_MS) return end('stalled');
    if (answeredAt) {
      if (performance.now() - answeredAt < TICK_MS) return;
      answeredAt = 0;
      // The server answers, the load still gets nothing: its fault, not the link's.
      if (stuckFor() >= STALL_IDLE_MS) return end('stalled');
    }
    if (stuckFor() < STALL_IDLE_MS) return;
    const ctl = (probing = new AbortController());
    void ask(url, ctl.signal).then((answered) => {
      if (probing !== ctl) return;
      probing = undefined;
      if (!answered) return void (linkOut = true);
      // Back after an outage: the engine's requests (retried, or hung on the dead link) get a
      // fresh window before the media is judged.
      if (linkOut) {
        linkOut = false;
        since = performance.now();
        for (const key of traffic.open.keys()) traffic.open.set(key, since);
      } else if (stuckFor() >= STALL_IDLE_MS) answeredAt = performance.now();
    });
  }

  function end(details: 'start timeout' | 'stalled'): void {
    const at = url;
    stop();
    fail(details, at);
  }

  return {
    traffic,
    starting(at, before) {
      // Asked again (a play while the start is watched): the watch runs on, from when it began.
      if (phase === 'starting') return;
      earlier = before;
      watch('starting', at);
    },
    started() {
      if (phase === 'starting') stop();
    },
    stalled(at) {
      if (phase === 'quiet') watch('stalled', at);
    },
    resumed() {
      if (phase === 'stalled') stop();
    },
    async waitForLink(at, signal) {
      const from = Math.max(traffic.last, performance.now() - STALL_IDLE_MS);
      for (let first = true; !signal.aborted; first = false) {
        if (await ask(at, signal)) return first ? 'up' : 'back';
        if (performance.now() - from >= OUTAGE_BUDGET_MS) return 'gone';
        await new Promise((next) => setTimeout(next, TICK_MS));
      }
      return 'gone';
    },
    dispose: stop,
  };
}
