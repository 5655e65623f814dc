import { AbrController, Events, type FragBufferedData, type Fragment, type FragLoadingData } from 'hls.js';

/**
 * No step up with less than this buffered ahead (ExoPlayer's minDurationForQualityIncreaseMs): a
 * cellular link's estimate, good a moment ago, does not pay for a bigger fragment when the next dip
 * comes with a few seconds in hand. Unless the link pays for it many times over (`gated`).
 */
const UP_MIN_BUFFER_S = 10;
/**
 * Below UP_MIN_BUFFER_S, a step up whose fragment, priced at its level's peak, the estimate fetches
 * within this share of the seconds ahead: the heaviest fragment of the level still leaves half the
 * buffer. Without it every start played its first 12 s at 240p (three fragments to reach 10 s): on
 * the LTE trace the bare hls.js page was on 720p from its second fragment, and those 12 s were most
 * of the player's bitrate gap there (0.92x).
 */
const UP_EARLY_SHARE = 0.5;

/**
 * The buffer that rides out a cellular hole (the 3G trace has half a minute of almost nothing): until
 * this much is ahead, the level is one the link pays for with room to spare, so the buffer grows
 * while it plays; the share of the estimate spent rises with the buffer, from EMPTY_SHARE to FULL_SHARE.
 */
const SAFE_AHEAD_S = 30;
const EMPTY_SHARE = 0.5;
const FULL_SHARE = 0.9;

/**
 * Until the buffer has first been full (`fullAhead`), on a link that carries less than
 * START_LINK_MULTIPLE times the lowest level's average, the share stops at START_SHARE: the start
 * builds the buffer a hole in the signal needs. The 3G trace (2–3 Mb/s at 0 s, 4–5× the ladder's 240p)
 * carries ~140 kb/s from 29 to 80 s, less than the lowest level plays, and that needs ~40 s ahead as it
 * begins; by the buffer's share alone (0.77 with 20 s ahead) the start took 480p at 22 s and met the
 * hole with 26–35 s (in Firefox a stall of 8–12 s; Chromium escaped it by its low first sample). The
 * LTE trace (4–12 Mb/s, 8–20× 240p) dips to ~1 Mb/s, which the lowest level rides out on any buffer:
 * there the start climbs by the buffer's share. The same cap on every link (0.4 or 0.55) held the LTE
 * runs at 480p for half a minute with 4–7 Mb/s estimated (0.8x the bare hls.js page's bitrate at 0 s).
 */
const START_SHARE = 0.55;
const START_LINK_MULTIPLE = 6;

/**
 * The forward buffer, in seconds and in bytes (a phone's data plan and memory): a minute at the low
 * rungs a cellular link plays (it rides out the 3G trace's holes), FORWARD_MAX_BYTES at the high
 * ones, never less than FORWARD_MIN_S. As hls.js applies its maxBufferLength (the floor),
 * maxBufferSize and maxMaxBufferLength to a level's peak bitrate (BANDWIDTH): 60 s at 240p–480p of
 * the ladder, 33 s at 720p, 20 s at 1080p (12 MB where 60 s were 36 MB). 16 MB (22 s at 720p) cost
 * the LTE trace's runs, mostly at 720p, about a tenth of their bitrate against the bare hls.js page.
 * Those are the levels' own targets; a buffer holding less than FORWARD_HELD_BYTES as fetched fills on
 * (`forwardRoom`).
 */
export const FORWARD_MAX_S = 60;
export const FORWARD_MIN_S = 20;
export const FORWARD_MAX_BYTES = 24e6;

/** The seconds hls.js buffers ahead on a level of this peak bitrate (bits/s). */
export const forwardTarget = (peak: number): number =>
  Math.min(FORWARD_MAX_S, peak > 0 ? Math.max(FORWARD_MIN_S, (8 * FORWARD_MAX_BYTES) / peak) : FORWARD_MIN_S);

/**
 * What the main fragments ahead may weigh, as fetched, before the buffer stops at its level's own target
 * (`forwardTarget`): 27 s at the ladder's 1080p (where the target is 20 s), 48 s at 720p (33 s). hls.js
 * sizes the buffer as if all of it were at the level it loads next and at that level's peak: on the LTE
 * trace at 93 s a step up from 480p to 1080p with 36 s ahead (6 MB) stopped every fetch for 16 s of good
 * link, until 1080p's 20 s were left, and its first fragment then met the dip that followed. Counted
 * as fetched, 24 MB carried more than the bare hls.js page left unplayed (19.0 MB against 17.3, LTE);
 * 16 MB left 14.9 against 17.4 with the bitrate at 0.97x its (docs/performance.md).
 */
const FORWARD_HELD_BYTES = 16e6;

/**
 * The seconds hls.js may buffer ahead on `level` with `heldBytes` of main fragments (as fetched) in the
 * `aheadS` seconds ahead: those seconds and what FORWARD_HELD_BYTES leaves, at the level's average;
 * never less than the level's own target, never more than FORWARD_MAX_S.
 */
export function forwardRoom(level: PricedLevel, aheadS: number, heldBytes: number): number {
  const own = forwardTarget(level.peak);
  if (!(level.bitrate > 0) || !(aheadS > 0)) return own;
  const room = Math.max(0, FORWARD_HELD_BYTES - (heldBytes > 0 ? heldBytes : 0));
  return Math.min(FORWARD_MAX_S, Math.max(own, aheadS + (8 * room) / level.bitrate));
}

/** The seconds buffered ahead of the playhead. */
export function ahead(media: Pick<HTMLMediaElement, 'buffered' | 'currentTime'> | null): number {
  if (!media) return 0;
  const b = media.buffered;
  for (let i = 0; i < b.length; i++) {
    if (b.start(i) <= media.currentTime + 0.5 && b.end(i) > media.currentTime) return b.end(i) - media.currentTime;
  }
  return 0;
}

/**
 * The level to load next: ABR's choice, unless it is a step up with less than UP_MIN_BUFFER_S ahead;
 * then the highest level up to it whose fragment of `fragmentS` seconds at its peak the `estimate`
 * (bits/s) fetches within UP_EARLY_SHARE of the seconds ahead, else the current one.
 */
export function gated(levels: readonly PricedLevel[], next: number, current: number, aheadS: number, estimate: number, fragmentS: number): number {
  if (current < 0 || next <= current || aheadS >= UP_MIN_BUFFER_S) return next;
  for (let i = Math.min(next, levels.length - 1); i > current; i--) {
    if ((levels[i].peak * fragmentS) / estimate <= UP_EARLY_SHARE * aheadS) return i;
  }
  return current;
}

/** A level as bufferCap prices it: its average bitrate and its peak (which sizes its buffer), bits/s. */
export interface PricedLevel {
  bitrate: number;
  peak: number;
}

/**
 * The highest level (bitrates ascending) the estimate pays for with the share the buffer allows: half
 * of it with nothing ahead (the buffer grows twice as fast as it plays), nine tenths from SAFE_AHEAD_S
 * on, or from the level's whole forward buffer when that is smaller (a 1080p level buffers 20 s: full,
 * it is as safe as it gets); `starting` on a slow link, never more than START_SHARE. The lowest level
 * when none fits; every level when nothing is estimated yet.
 */
export function bufferCap(levels: readonly PricedLevel[], estimate: number, aheadS: number, starting = false): number {
  if (!(estimate > 0)) return levels.length - 1;
  const most = starting && estimate < START_LINK_MULTIPLE * levels[0].bitrate ? START_SHARE : FULL_SHARE;
  const share = (l: PricedLevel) =>
    Math.min(most, EMPTY_SHARE + (FULL_SHARE - EMPTY_SHARE) * Math.min(1, Math.max(0, aheadS) / Math.min(SAFE_AHEAD_S, forwardTarget(l.peak))));
  let level = 0;
  for (let i = 1; i < levels.length; i++) if (levels[i].bitrate <= estimate * share(levels[i])) level = i;
  return level;
}

/**
 * With this much ahead, the level loading now is kept while the estimate pays for it at FULL_SHARE (the
 * buffer still grows), though the buffer's share would price it out: the share rises with the buffer to
 * choose where to go, not to leave a level the link pays for. On the LTE trace at 47 s a dip of the
 * estimate to 1.5–1.7 Mb/s with 15–33 s ahead priced 480p (1.4 Mb/s) at three quarters of it, and the
 * player played 360p for half a minute where the bare hls.js page (which keeps a level at 0.95) stayed.
 */
const KEEP_AHEAD_S = SAFE_AHEAD_S / 2;

/** Whether the level loading now may stay, whatever the buffer's share (`KEEP_AHEAD_S`). */
const kept = (level: PricedLevel | undefined, estimate: number, aheadS: number): boolean =>
  !!level && aheadS >= KEEP_AHEAD_S && level.bitrate <= FULL_SHARE * estimate;

/** What `nextLevel` weighs, besides the levels: all of it hls.js's, read as a fragment is to be chosen. */
export interface Choosing {
  /** hls.js's own choice (its estimate at 0.7 for a step up), and the level loading now (-1: none yet). */
  choice: number;
  current: number;
  aheadS: number;
  /** Its bandwidth estimate (bits/s), the fragments' length (s), and the levels ABR may choose from. */
  estimate: number;
  /** The last fragments' rate (`recentRate`; 0: too few): the level the buffer allows is priced by it where it is above `estimate`. */
  recent: number;
  fragmentS: number;
  min: number;
  max: number;
  /** Whether the buffer has been full (`fullAhead`) since the start; until then the start's share (`START_SHARE`). */
  filled: boolean;
}

/**
 * Seconds ahead from which the buffer, not hls.js's choice, sets the level (`nextLevel`): three
 * quarters of the loading level's forward buffer (`fullAhead`), 45 s at the low levels. At 30 s there,
 * the level the buffer allowed was 480p just before the 3G trace's half-minute hole (30–41 s ahead at
 * its start), and the player stalled 10.6 s. A 720p level, whose buffer is 33 s, is full from 25 s.
 */
const FULL_AHEAD_S = 45;
const FULL_SHARE_OF_TARGET = 0.75;

/** The seconds ahead from which a level of this peak bitrate counts as full. */
export const fullAhead = (peak: number): number => Math.min(FULL_AHEAD_S, FULL_SHARE_OF_TARGET * forwardTarget(peak));

/** Whether the buffer of the level loading now is full (`fullAhead`). */
const isFull = (loading: PricedLevel | undefined, aheadS: number): boolean => !!loading && aheadS >= fullAhead(loading.peak);

/**
 * The last fragments' rates as the full buffer's estimate weighs them, each fragment one vote (their
 * harmonic mean): hls.js weighs a sample by its download time, and with the buffer full the loads are
 * one fragment every 4 s, a calm scene's 90 kB in 0.1 s: on the LTE trace four of those at 6–12 Mb/s
 * moved hls.js's estimate from 2.6 to 2.8 Mb/s, and the player stayed on 480p with a minute ahead while
 * the bare hls.js page, buffering on, took two 1 MB fragments at 10 Mb/s and went up to 720p.
 */
const RECENT_SAMPLES = 4;
/** Smaller fragments say more about the round trip than about the link (link-estimate.ts's MIN_BYTES). */
const RECENT_MIN_BYTES = 16000;

/** The harmonic mean of the last RECENT_SAMPLES rates (bits/s); 0 with fewer (too few to trust). */
export function recentRate(rates: readonly number[]): number {
  const last = rates.slice(-RECENT_SAMPLES);
  if (last.length < RECENT_SAMPLES || !last.every((r) => r > 0 && Number.isFinite(r))) return 0;
  return last.length / last.reduce((sum, r) => sum + 1 / r, 0);
}

/**
 * The level to load next: hls.js's choice, a step up `gated`, never above the level the buffer allows
 * (`bufferCap`, at the start's share until the buffer has first been full) unless it is the level
 * loading now and `kept`; and, with the buffer full (`fullAhead`), that level even above hls.js's
 * choice: there the buffer, not hls.js's fraction of the estimate (0.7 for a step up), says what the
 * link pays for (on the LTE trace the bare hls.js page, 70–85 s ahead, went back up to 720p in the
 * second half of its runs while the player, 40–60 s ahead, stayed on 480p: 0.92x its bitrate).
 * The level the buffer allows is priced by the better of hls.js's estimate and the last fragments'
 * rate (`recentRate`), full or not: hls.js weighs each sample by its download time, so after a dip the
 * small fragments of a low level, each in a fraction of a second, barely move it. On the LTE trace at
 * 47 s the estimate stayed under the start's six times the lowest level with the link back at several
 * Mb/s, and the start fetched 36–60 s of the film at 240p in 5 s (Firefox: 1.08 Mb/s played against
 * the bare page's 1.47; priced by both, 1.36–1.41). In a hole the harmonic mean falls with its first
 * slow fragment, and the price is hls.js's estimate again. What it costs: the 3G trace's start takes
 * 360p from 16 s of the film more often, meets the trace's half-minute hole at 0 s with ~38 s ahead and
 * stalls there for a few seconds in most runs (the bare hls.js page longer, in every run), for a bitrate
 * on that trace near the bare page's where it had 0.82–0.86x of it (docs/performance.md keeps the tally
 * of runs, "The level priced by the last fragments").
 */
export function nextLevel(levels: readonly PricedLevel[], c: Choosing): number {
  const clamp = (level: number) => Math.max(Math.min(level, c.max), c.min);
  const loading = levels[c.current];
  const full = c.estimate > 0 && isFull(loading, c.aheadS);
  const allowed = bufferCap(levels, Math.max(c.estimate, c.recent || 0), c.aheadS, !c.filled && !full);
  const cap = clamp(allowed < c.current && kept(loading, c.estimate, c.aheadS) ? c.current : allowed);
  return Math.min(gated(levels, full ? Math.max(c.choice, Math.min(cap, c.current + 1)) : c.choice, c.current, c.aheadS, c.estimate, c.fragmentS), cap);
}

/** An in-flight fragment as `abandonTo` weighs it. */
export interface InFlight {
  /** Its level and length (s). */
  level: number;
  durationS: number;
  /** Bytes in, and the bytes it weighs (Content-Length; 0 when unknown). */
  loaded: number;
  total: number;
  /** Seconds since its first byte. */
  streamingS: number;
  /** Seconds buffered ahead of the playhead. */
  aheadS: number;
}

/**
 * What a lower level's whole fragment may weigh, against what is left of the one in flight, for the
 * switch to pay: its bytes are lost, and the levels' averages count the audio (a 240p fragment of the
 * ladder is 170 kB where 4 s of its average are 270).
 */
const RESTART_SHARE = 0.8;

/**
 * The level to load an in-flight fragment from instead of finishing it, or -1: when it arrives slower
 * than even the lowest level plays (a hole in the signal: the buffer drains whatever is loaded, so
 * each byte must buy the most seconds; a dip that still pays for the lowest level is left to hls.js's
 * own rule: on the LTE trace a rule at the fragment's own level cut 720p and 480p fragments in a row
 * early in a run, 0.89x hls.js's bitrate where it had 0.94x), what is left of it would take more than
 * half the buffer at that rate, and a lower level's fragment of the same stretch weighs less than
 * RESTART_SHARE of that rest (a fragment heavier than its level's average is taken as heavy at every
 * level). hls.js's own abandon rule never goes down to the lowest level (its loop stops above it): on
 * the 3G trace at 0 s a 360p fragment asked just before the half-minute hole took 19 s for 429 kB where
 * the 240p one is 170 kB. The highest level that qualifies; minLevel at the lowest.
 */
export function abandonTo(levels: readonly PricedLevel[], minLevel: number, f: InFlight): number {
  const current = levels[f.level];
  if (!current || f.level <= minLevel || !(f.loaded > 0) || !(f.streamingS >= 1) || !(f.durationS > 0)) return -1;
  const rate = f.loaded / f.streamingS;
  const average = (f.durationS * current.bitrate) / 8;
  const weighs = f.total > f.loaded ? f.total : Math.max(f.loaded, average);
  const rest = weighs - f.loaded;
  const floor = levels[Math.max(0, minLevel)];
  if (!(rate * 8 < floor.bitrate) || !(rest / rate > Math.max(0, f.aheadS) / 2)) return -1;
  const weight = f.total > 0 && average > 0 ? f.total / average : 1;
  for (let i = f.level - 1; i >= Math.max(0, minLevel); i--) {
    if ((weight * f.durationS * levels[i].bitrate) / 8 < RESTART_SHARE * rest) return i;
  }
  return -1;
}

const ABANDON_CHECK_MS = 500;

/**
 * hls.js's ABR (bandwidth estimate, its own no-rebuffer choice and emergency down-switch kept), with
 * up-switches held back until the buffer can pay for them, no level above what the buffer allows, the
 * level the buffer allows once it is full (`nextLevel`), and a main fragment that the link has stopped paying for restarted on a lower level (`abandonTo`).
 */
export class BufferAwareAbr extends AbrController {
  private watching?: ReturnType<typeof setInterval>;
  /** The main fragments' rates (bits/s), first byte to last, the last RECENT_SAMPLES of them. */
  private rates: number[] = [];
  /** The main fragments appended and not yet played, by sequence number (the renditions' are aligned: a stretch loaded again, at another level, replaces it). */
  private held = new Map<Fragment['sn'], Fragment>();
  /** Whether the buffer has been full since this source started (`Choosing.filled`). */
  private filled = false;

  get nextAutoLevel(): number {
    const hls = this.hls;
    const choice = super.nextAutoLevel;
    if (!hls) return choice;
    const aheadS = ahead(hls.media);
    const levels = this.priced();
    if (isFull(levels[hls.loadLevel], aheadS)) this.filled = true;
    const level = nextLevel(levels, {
      filled: this.filled,
      choice,
      current: hls.loadLevel,
      aheadS,
      estimate: this.bwEstimator.getEstimate(),
      recent: recentRate(this.rates),
      fragmentS: hls.levels[hls.loadLevel]?.details?.targetduration ?? Infinity,
      min: hls.minAutoLevel,
      max: hls.maxAutoLevel,
    });
    // hls.js asks for the next level, then sizes the buffer by it (its config read at each tick).
    if (levels[level]) hls.config.maxBufferLength = forwardRoom(levels[level], aheadS, this.heldAhead(aheadS));
    return level;
  }

  set nextAutoLevel(level: number) {
    super.nextAutoLevel = level;
  }

  protected onFragLoading(event: Events.FRAG_LOADING, data: FragLoadingData) {
    super.onFragLoading(event, data);
    clearInterval(this.watching);
    if (data.frag.type === 'main' && !data.frag.bitrateTest && !data.part) {
      const frag = data.frag;
      this.watching = setInterval(() => this.abandonIfStarved(frag), ABANDON_CHECK_MS);
    }
  }

  protected onFragBuffered(event: Events.FRAG_BUFFERED, data: FragBufferedData) {
    const frag = data.frag;
    const stats = frag.stats;
    // hls.js samples the link from the request to the end of parsing; the link's rate is to the last
    // byte. The early start's fragment is parsed once hls.js has arrived, 0.4 s after its last byte:
    // on LTE a 6–14 Mb/s download was sampled at 1.4–2.4 Mb/s, and hls.js's next choice was 240p.
    const parsed = stats.parsing.end;
    if (stats.loading.end > 0) stats.parsing.end = stats.loading.end;
    super.onFragBuffered(event, data);
    stats.parsing.end = parsed;
    if (frag.type !== 'main' || data.part || stats.aborted) return;
    this.held.set(frag.sn, frag);
    const streamingMs = stats.loading.end - stats.loading.first;
    if (stats.loaded < RECENT_MIN_BYTES || !(stats.loading.first > 0) || !(streamingMs > 0)) return;
    this.rates = [...this.rates.slice(1 - RECENT_SAMPLES), (8000 * stats.loaded) / Math.max(streamingMs, 20)];
  }

  destroy() {
    clearInterval(this.watching);
    super.destroy();
  }

  /** The bytes of main fragments (as fetched) in the `aheadS` seconds ahead of the playhead (one partly played, its share); those played are let go. */
  private heldAhead(aheadS: number): number {
    const now = this.hls.media?.currentTime ?? 0;
    let bytes = 0;
    for (const [sn, f] of this.held) {
      if (f.end <= now) this.held.delete(sn);
      const share = (Math.min(f.end, now + aheadS) - Math.max(f.start, now)) / f.duration;
      if (share > 0) bytes += f.stats.loaded * Math.min(1, share);
    }
    return bytes;
  }

  private priced(): PricedLevel[] {
    return this.hls.levels.map((l) => ({ bitrate: l.averageBitrate || l.bitrate, peak: l.maxBitrate }));
  }

  private abandonIfStarved(frag: Fragment) {
    const hls = this.hls;
    const stats = frag.stats;
    if (!hls || stats.aborted || stats.loading.end || hls.levels[frag.level] === undefined) return clearInterval(this.watching);
    if (!hls.autoLevelEnabled || !hls.media || hls.media.paused || !stats.loading.first) return;
    const streamingS = (performance.now() - stats.loading.first) / 1000;
    const level = abandonTo(this.priced(), hls.minAutoLevel, {
      level: frag.level,
      durationS: frag.duration,
      loaded: stats.loaded,
      total: stats.total,
      streamingS,
      aheadS: ahead(hls.media),
    });
    if (level < 0) return;
    clearInterval(this.watching);
    // As hls.js's own abandon: the rate measured so far is the estimate the next choice starts from.
    this.bwEstimator.sample(streamingS * 1000, stats.loaded);
    hls.nextLoadLevel = hls.nextAutoLevel = level;
    frag.abortRequests();
    hls.trigger(Events.FRAG_LOAD_EMERGENCY_ABORTED, { frag, part: null, stats });
  }
}
