import { AbrController } from 'hls.js';

/**
 * No step up with less than this buffered ahead (ExoPlayer's minDurationForQualityIncreaseMs): a
 * cellular link's estimate, good a moment ago, does not pay for a bigger fragment when the next dip
 * comes with a few seconds in hand. The start (4 s after the first fragment) climbs once it is built.
 */
const UP_MIN_BUFFER_S = 10;

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
 * hls.js's ABR (bandwidth estimate, its own no-rebuffer choice and emergency down-switch kept), with
 * up-switches held back until the buffer can pay for them.
 */
export class BufferAwareAbr extends AbrController {
  get nextAutoLevel(): number {
    return gated(super.nextAutoLevel, this.hls?.loadLevel ?? -1, ahead(this.hls?.media ?? null));
  }

  set nextAutoLevel(level: number) {
    super.nextAutoLevel = level;
  }
}
