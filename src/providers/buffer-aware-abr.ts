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

/**
 * The highest level (bitrates ascending, bits/s) the estimate pays for with the share the buffer
 * allows: half of it with nothing ahead (the buffer grows twice as fast as it plays), nine tenths
 * from SAFE_AHEAD_S on. The lowest level when none fits; every level when nothing is estimated yet.
 */
export function bufferCap(bitrates: readonly number[], estimate: number, aheadS: number): number {
  if (!(estimate > 0)) return bitrates.length - 1;
  const share = EMPTY_SHARE + (FULL_SHARE - EMPTY_SHARE) * Math.min(1, Math.max(0, aheadS) / SAFE_AHEAD_S);
  let level = 0;
  for (let i = 1; i < bitrates.length; i++) if (bitrates[i] <= estimate * share) level = i;
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
      hls.levels.map((l) => l.averageBitrate || l.bitrate),
      this.bwEstimator.getEstimate(),
      aheadS,
    );
    return Math.min(gated(choice, hls.loadLevel, aheadS), Math.max(cap, hls.minAutoLevel));
  }

  set nextAutoLevel(level: number) {
    super.nextAutoLevel = level;
  }
}
