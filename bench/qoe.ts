// The arithmetic of `npm run bench:playback` (bench/playback.ts), pure: what a viewer got from one run,
// read from the log the page's probe kept of its content <video> (events and a sample every 250 ms).
//
// After the first 'playing' every interval between two log entries is one of:
// - idle: paused or ended (the viewer's choice, or the end of the film);
// - a seek: from a seek the benchmark asked for ('seek') until playback moves again past its 'seeked'
//   (counted apart, never as a stall);
// - a stall: after 'waiting' until 'playing', or while currentTime stands still (advances less than a
//   quarter of the wall time) though not paused; seeks the page makes by itself (hls.js nudging over a
//   hole) do not end one;
// - played: currentTime advanced; the advance, at most the wall time, is played time.
// A stall is one run of stalled intervals, counted when it lasts at least MIN_STALL_S.
// Bitrate: each played interval at the rung of the height shown at its start (videoHeight, mapped to the
// master playlist's rungs); a quality switch is a played interval on another rung than the previous one.
// QoE (the common linear form): Σ played s × Mb/s − 4.3 × stall s − Σ |Δ Mb/s| over switches.

export type LogType = 'playing' | 'waiting' | 'pause' | 'play' | 'ended' | 'seeking' | 'seeked' | 'frame' | 'seek' | 'sample' | 'error';

export interface LogEntry {
  /** ms since navigation start (performance.now() of the page). */
  t: number;
  type: LogType;
  /** video.currentTime, s; for 'seek', the target. */
  ct: number;
  paused: boolean;
  /** video.videoHeight (0 before the first frame's metadata). */
  h: number;
  /** On samples: seconds buffered ahead of the playhead. */
  ahead?: number;
}

export interface Rung {
  height: number;
  bitsPerSecond: number;
}

export interface SeekResult {
  /** When the benchmark asked, ms since navigation. */
  atMs: number;
  to: number;
  /** From the request to the first frame presented after 'seeked' (or to playback moving, if sooner); undefined if never. */
  msToFrame: number | undefined;
  /** From the request to currentTime moving again. */
  msToPlay: number | undefined;
}

/** Additive over runs: sums of two runs' Playback are the Playback of both. */
export interface Playback {
  stalls: number;
  stallS: number;
  /** Freezes too short to be stalls (MIN_STALL_S); their time is in neither stallS nor playedS. */
  hiccups: number;
  playedS: number;
  seekS: number;
  /** Σ played s × bits per second of its rung (played time whose height is unknown is left out). */
  bitSeconds: number;
  heightSeconds: number;
  /** Played seconds whose rung was known (the weight of the two sums above). */
  ratedS: number;
  switches: number;
  /** Σ |Δ Mb/s| over the switches. */
  switchMbps: number;
}

export interface RunAccount extends Playback {
  /** The first 'playing' (ms since navigation); undefined if the content never played. */
  firstFrameMs: number | undefined;
  seeks: SeekResult[];
  /** Each stall: when it began (ms since navigation) and how long it lasted (s). */
  stallList: Array<{ atMs: number; s: number }>;
  /** The first error screen seen, ms since navigation. */
  errorMs: number | undefined;
}

export const STALL_PENALTY = 4.3;
/** An interval whose currentTime moved less than this share of its wall time stood still. */
const FROZEN_SHARE = 0.25;
/**
 * A freeze shorter than this is not a stall but a hiccup (counted apart): the sampling's jitter, the
 * audio clock starting a moment after 'playing', or a decoder starved of CPU on a loaded machine
 * (seen at 0.3–0.45 s here while ffmpeg ran); a stall for want of bytes waits for a segment, seconds.
 */
const MIN_STALL_S = 0.5;

export const emptyPlayback = (): Playback => ({
  stalls: 0,
  stallS: 0,
  hiccups: 0,
  playedS: 0,
  seekS: 0,
  bitSeconds: 0,
  heightSeconds: 0,
  ratedS: 0,
  switches: 0,
  switchMbps: 0,
});

export function addPlayback(a: Playback, b: Playback): Playback {
  const sum = emptyPlayback();
  for (const key of Object.keys(sum) as Array<keyof Playback>) sum[key] = a[key] + b[key];
  return sum;
}

/** The rung of a shown height: the one of that height, else the nearest (a player may scale). */
export function rungOf(height: number, rungs: readonly Rung[]): Rung | undefined {
  if (height <= 0 || rungs.length === 0) return undefined;
  let best = rungs[0]!;
  for (const r of rungs) if (Math.abs(r.height - height) < Math.abs(best.height - height)) best = r;
  return best;
}

export function accountRun(log: readonly LogEntry[], rungs: readonly Rung[]): RunAccount {
  const entries = [...log].sort((a, b) => a.t - b.t);
  const run: RunAccount = { ...emptyPlayback(), firstFrameMs: undefined, seeks: [], stallList: [], errorMs: undefined };
  let prev: LogEntry | undefined;
  let waiting = false;
  let episode: { atMs: number; s: number } | undefined;
  const endEpisode = () => {
    if (episode && episode.s >= MIN_STALL_S) {
      run.stalls++;
      run.stallS += episode.s;
      run.stallList.push(episode);
    } else if (episode && episode.s > 0) run.hiccups++;
    episode = undefined;
  };
  let lastRung: Rung | undefined;
  let seek: (SeekResult & { seeked: boolean }) | undefined;

  const endSeek = (at: number) => {
    seek!.msToPlay = at - seek!.atMs;
    seek!.msToFrame ??= seek!.msToPlay;
    run.seeks.push({ atMs: seek!.atMs, to: seek!.to, msToFrame: seek!.msToFrame, msToPlay: seek!.msToPlay });
    seek = undefined;
  };

  for (const e of entries) {
    if (e.type === 'error') run.errorMs ??= e.t;
    if (run.firstFrameMs === undefined) {
      if (e.type === 'playing') {
        run.firstFrameMs = e.t;
        prev = e;
      }
      continue;
    }
    const dt = Math.max(0, (e.t - prev!.t) / 1000);
    const advance = Math.min(Math.max(0, e.ct - prev!.ct), dt);
    const idle = prev!.paused || prev!.type === 'ended';
    if (seek) {
      run.seekS += dt;
      if (seek.seeked && (advance > 0 || e.type === 'playing')) endSeek(e.t);
      // The interval up to a 'seek' is not read: its entry carries the target, not where playback was.
    } else if (e.type !== 'seek' && !idle && dt > 0) {
      const stalled = waiting || advance < dt * FROZEN_SHARE;
      run.playedS += advance;
      if (advance > 0) {
        const rung = rungOf(prev!.h, rungs);
        if (rung) {
          run.bitSeconds += advance * rung.bitsPerSecond;
          run.heightSeconds += advance * rung.height;
          run.ratedS += advance;
          if (lastRung && rung !== lastRung) {
            run.switches++;
            run.switchMbps += Math.abs(rung.bitsPerSecond - lastRung.bitsPerSecond) / 1e6;
          }
          lastRung = rung;
        }
      }
      if (stalled) {
        episode ??= { atMs: prev!.t, s: 0 };
        episode.s += dt - advance;
      } else endEpisode();
    }

    if (e.type === 'waiting') waiting = true;
    if (e.type === 'playing') waiting = false;
    if (e.type === 'seek') {
      if (seek) run.seeks.push({ atMs: seek.atMs, to: seek.to, msToFrame: seek.msToFrame, msToPlay: undefined });
      seek = { atMs: e.t, to: e.ct, msToFrame: undefined, msToPlay: undefined, seeked: false };
      endEpisode();
      waiting = false;
    }
    if (seek && e.type === 'seeked') seek.seeked = true;
    if (seek?.seeked && e.type === 'frame') seek.msToFrame ??= e.t - seek.atMs;
    prev = e;
  }
  endEpisode();
  if (seek) run.seeks.push({ atMs: seek.atMs, to: seek.to, msToFrame: seek.msToFrame, msToPlay: undefined });
  return run;
}

/** Stall time over stall and played time; NaN when neither (nothing played). */
export const rebufferRatio = (p: Playback) => p.stallS / (p.stallS + p.playedS);

/** Mean bits per second of the played seconds; NaN when none. */
export const meanBitrate = (p: Playback) => p.bitSeconds / p.ratedS;

export const meanHeight = (p: Playback) => p.heightSeconds / p.ratedS;

/** Σ played s × Mb/s − 4.3 × stall s − Σ |Δ Mb/s| at switches (additive: the sum over runs is the runs' sum). */
export const qoeScore = (p: Playback) => p.bitSeconds / 1e6 - STALL_PENALTY * p.stallS - p.switchMbps;

/** One media segment the page fetched: `slot` names the stretch of film it holds (the same for every rendition of it). */
export interface SegmentFetch {
  slot: string;
  /** Film time it covers, s. */
  start: number;
  end: number;
  bytes: number;
  /** When it finished, ms (orders the fetches of a slot). */
  doneMs: number;
}

/**
 * Bytes of the segments whose film time was played: per slot, the last fetch of it that finished (the
 * one the buffer kept), counted when its time range overlaps a played range.
 */
export function playedBytes(fetches: readonly SegmentFetch[], played: ReadonlyArray<readonly [number, number]>): number {
  const kept = new Map<string, SegmentFetch>();
  for (const f of fetches) {
    const known = kept.get(f.slot);
    if (!known || f.doneMs >= known.doneMs) kept.set(f.slot, f);
  }
  let bytes = 0;
  for (const f of kept.values()) if (played.some(([a, b]) => Math.min(b, f.end) - Math.max(a, f.start) > 0.01)) bytes += f.bytes;
  return bytes;
}
