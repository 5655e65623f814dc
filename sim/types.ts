// The simulator's contract: what a manifest and a trace are, what a policy sees and answers.
// The engine (sim/engine.ts) runs any SimPolicy in virtual time; the baselines and the player's own
// policy (src/playback/, through sim/policies/player.ts) implement it.

/** A bitrate ladder with the real size of every segment (Sabre's manifest, read or derived). */
export interface Manifest {
  /** Segment length, s. */
  segmentS: number;
  /** Each level's mean bitrate, kb/s, ascending (Sabre's `bitrates_kbps`). */
  bitratesKbps: number[];
  /** [level][segment index] → bits (Sabre's `segment_sizes_bits`, transposed to level first). */
  segmentBits: number[][];
  /**
   * [segment index] → the bits of its audio, which `segmentBits` include: the audio loads beside the
   * video in requests of its own, so a policy measures the video alone (sim/engine.ts). Absent: none.
   */
  audioBits?: number[];
  /**
   * What the master playlist declares of each level, kb/s: AVERAGE-BANDWIDTH and BANDWIDTH (the peak
   * segment's rate). A browser's player prices a level at these, not at its segments' sizes: hls.js at
   * both (sim/policies/hlsjs.ts), ours at the average (providers/policy-abr.ts). They cover the audio
   * group's largest rendition, which may be more than the default one the segments carry. Absent: the
   * mean (`bitratesKbps`) and the largest segment's rate, as a ladder's own master would say them.
   */
  declared?: { averageKbps: number[]; peakKbps: number[] };
}

/** One period of a trace: the link carries `kbps` for `durationMs`; a request started in it waits `latencyMs` for its first byte. */
export interface TracePeriod {
  durationMs: number;
  kbps: number;
  latencyMs: number;
}

export interface Trace {
  /** The file's name, relative to the folder it was read from. */
  name: string;
  /** Played in order, repeating from the first when it ends. */
  periods: TracePeriod[];
}

/** What a policy sees whenever it is asked. */
export interface SimView {
  /** Virtual time since the session began (the first request), ms. */
  nowMs: number;
  /** Seconds of content buffered ahead of the playhead. */
  bufferS: number;
  /** The index of the segment the next request is for. */
  index: number;
  /** The level of the last segment that went into the buffer; -1 before the first. */
  lastLevel: number;
  /** Whether the playhead moves: false before the first frame, while stalled and while seeking. */
  playing: boolean;
  /** The session's ladder: the engine repeats the segments to cover the session (sim/engine.ts sessionManifest), so `segmentBits[level][index]` exists for every index asked about. */
  manifest: Manifest;
}

/** A finished (or abandoned) request. */
export interface Download {
  level: number;
  index: number;
  /** Bits of the video that arrived (all of it unless abandoned; the audio's beside it are not counted: Manifest.audioBits). */
  bits: number;
  /** When it was asked, when its first byte came, when its last byte came (or it was cut), ms. */
  startMs: number;
  firstByteMs: number;
  endMs: number;
  abandoned: boolean;
  /** The server answered with an error (a failing rendition): no bits, nothing buffered. */
  failed: boolean;
}

/** A request in flight, as an abandon rule weighs it. */
export interface Progress {
  level: number;
  index: number;
  /** The video's bits so far and in all (as Download.bits). */
  bitsLoaded: number;
  bitsTotal: number;
  startMs: number;
  /** When its first byte came; undefined while it waits for it. */
  firstByteMs: number | undefined;
}

/**
 * What a policy answers about a request in flight: keep it (-1), restart the same segment at a lower
 * level (that level), or give up the whole session ('fail': the server is taken for dead, SPEC §8's screen).
 */
export type Verdict = number | 'fail';

export interface SimPolicy {
  /** The level of segment `view.index`. */
  choose(view: SimView): number;
  /** The forward buffer: no request starts while more than this is buffered ahead (s). */
  bufferTargetS(view: SimView): number;
  /** Asked every CHECK_MS of virtual time while a request is in flight (also while no byte has come). */
  abandon?(view: SimView, progress: Progress): Verdict;
  /** While not playing (start, stall) with something buffered: whether the playhead may move now. Default: yes. */
  mayPlay?(view: SimView): boolean;
  /** Every request's outcome, failed and abandoned ones included. */
  onDownload(view: SimView, download: Download): void;
  /** A stall began, or a seek the viewer made (the buffer was emptied unless the target was in it). */
  onStall?(view: SimView): void;
  onSeek?(view: SimView, toS: number): void;
}

/** A fresh policy for one session, given the session's ladder (as SimView.manifest). */
export type PolicyFactory = (manifest: Manifest) => SimPolicy;

/** One session's outcome (the JSON's M), per trace and, averaged, per policy. */
export interface Metrics {
  /** The linear QoE, per second of content played: Σ Mb/s played − 4.3 × (stall s + start s) − Σ |Δ Mb/s| at switches, ÷ content s. */
  qoe: number;
  /** stall s ÷ (stall s + played s); the start is not a stall here. */
  rebufferRatio: number;
  stalls: number;
  stallS: number;
  startupS: number;
  /** Mean bitrate of the content played, kb/s. */
  kbps: number;
  switches: number;
  /** MB (10^6 bytes) fetched but never played: abandoned requests, and what is buffered when the viewer leaves. */
  unplayedMB: number;
}
