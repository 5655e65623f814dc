import { AbrController } from 'hls.js';

/**
 * No step up with less than this buffered ahead (ExoPlayer's minDurationForQualityIncreaseMs): a
 * cellular link's estimate, good a moment ago, does not pay for a bigger fragment when the next dip
 * comes with a few seconds in hand. The start (4 s after the first fragment) climbs once it is built.
 */
const UP_MIN_BUFFER_S = 10;
/**
 * The buffer that rides out a cellular hole (the 3G trace has half a minute of almost nothing): until
 * this much is ahead, the level is one the link pays for with room to spare, so the buffer grows
 * while it plays; the share of the estimate spent rises with the buffer, from EMPTY_SHARE to FULL_SHARE.
 */
const SAFE_AHEAD_S = 30;
const EMPTY_SHARE = 0.5;
const FULL_SHARE = 0.9;

/**
 * The forward buffer, in seconds and in bytes (a phone's data plan and memory): a minute at the low
 * rungs a cellular link plays (it rides out the 3G trace's holes), FORWARD_MAX_BYTES at the high
 * ones, never less than FORWARD_MIN_S. As hls.js applies its maxBufferLength (the floor),
 * maxBufferSize and maxMaxBufferLength to a level's peak bitrate (BANDWIDTH): 60 s at 240p–480p of
 * the ladder, 33 s at 720p, 20 s at 1080p (12 MB where 60 s were 36 MB). 16 MB (22 s at 720p) cost
 * the LTE trace's runs, mostly at 720p, about a tenth of their bitrate against the bare hls.js page.
 */
export const FORWARD_MAX_S = 60;
export const FORWARD_MIN_S = 20;
export const FORWARD_MAX_BYTES = 24e6;

/** The seconds hls.js buffers ahead on a level of this peak bitrate (bits/s). */
export const forwardTarget = (peak: number): number =>
  Math.min(FORWARD_MAX_S, peak > 0 ? Math.max(FORWARD_MIN_S, (8 * FORWARD_MAX_BYTES) / peak) : FORWARD_MIN_S);

/** The seconds buffered ahead of the playhead. */
export function ahead(media: Pick<HTMLMediaElement, 'buffered' | 'currentTime'> | null): number {
  if (!media) return 0;
  const b = media.buffered;
  for (let i = 0; i < b.length; i++) {
    if (b.start(i) <= media.currentTime + 0.5 && b.end(i) > media.currentTime) return b.end(i) - media.currentTime;
  }
  return 0;
}

/** The level to load next: ABR's choice, unless it is a step up with less than UP_MIN_BUFFER_S ahead. */
export const gated = (next: number, current: number, aheadS: number): number =>
  current >= 0 && next > current && aheadS < UP_MIN_BUFFER_S ? current : next;

/** A level as bufferCap prices it: its average bitrate and its peak (which sizes its buffer), bits/s. */
export interface PricedLevel {
  bitrate: number;
  peak: number;
}

/**
 * The highest level (bitrates ascending) the estimate pays for with the share the buffer allows: half
 * of it with nothing ahead (the buffer grows twice as fast as it plays), nine tenths from SAFE_AHEAD_S
 * on, or from the level's whole forward buffer when that is smaller (a 1080p level buffers 20 s: full,
 * it is as safe as it gets). The lowest level when none fits; every level when nothing is estimated yet.
 */
export function bufferCap(levels: readonly PricedLevel[], estimate: number, aheadS: number): number {
  if (!(estimate > 0)) return levels.length - 1;
  const share = (l: PricedLevel) =>
    EMPTY_SHARE + (FULL_SHARE - EMPTY_SHARE) * Math.min(1, Math.max(0, aheadS) / Math.min(SAFE_AHEAD_S, forwardTarget(l.peak)));
  let level = 0;
  for (let i = 1; i < levels.length; i++) if (levels[i].bitrate <= estimate * share(levels[i])) level = i;
  return level;
}

/**
 * hls.js's ABR (bandwidth estimate, its own no-rebuffer choice and emergency down-switch kept), with
 * up-switches held back until the buffer can pay for them, and no level above what the buffer allows.
 */
export class BufferAwareAbr extends AbrController {
  get nextAutoLevel(): number {
    const hls = this.hls;
    const choice = super.nextAutoLevel;
    if (!hls) return choice;
    const aheadS = ahead(hls.media);
    const cap = bufferCap(
      hls.levels.map((l) => ({ bitrate: l.averageBitrate || l.bitrate, peak: l.maxBitrate })),
      this.bwEstimator.getEstimate(),
      aheadS,
    );
    return Math.min(gated(choice, hls.loadLevel, aheadS), Math.max(cap, hls.minAutoLevel));
  }

  set nextAutoLevel(level: number) {
    super.nextAutoLevel = level;
  }
}
