// Labels of the settings menu (SPEC §9): quality, bitrate, speed, audio gain.
import { ruUi } from '../../i18n/ru-ui';

/** SPEC §9: audio gain options, shown as percent. */
export const GAINS = [1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];

export const heightLabel = (height: number) => `${height}p`;

/** 'Auto' with the current height when known, else the chosen height followed by p. */
export function qualityLabel(quality: number, playingHeight: number | undefined, chosenHeight?: number): string {
  if (quality < 0) return playingHeight ? `Auto (${heightLabel(playingHeight)})` : 'Auto';
  return chosenHeight ? heightLabel(chosenHeight) : 'Auto';
}

/** Bitrate in Mbps: two decimals below 1 Mbps so low renditions do not all read 0.1. */
export function bitrateLabel(bitsPerSecond: number): string {
  const mbps = bitsPerSecond / 1e6;
  return `${mbps.toFixed(mbps < 1 ? 2 : 1)} Mbps`;
}

export const rateLabel = (rate: number) => (rate === 1 ? ruUi.rateNormal : `${rate}x`);

export const gainLabel = (gain: number) => `${Math.round(gain * 100)}%`;
