export type NetworkType = 'gprs' | '2g' | '3g' | '4g' | 'wifi';

/** SPEC §9: the network class from the bandwidth estimate in kB/s; undefined when there is none. */
export function networkType(kBps: number | undefined): NetworkType | undefined {
  if (kBps === undefined || !Number.isFinite(kBps) || kBps <= 0) return undefined;
  if (kBps < 50) return 'gprs';
  if (kBps < 300) return '2g';
  if (kBps < 1000) return '3g';
  if (kBps < 4000) return '4g';
  return 'wifi';
}

/**
 * kB/s from the streaming engine's estimate (bits/s), else the browser's own guess
 * (navigator.connection.downlink, Mb/s), else undefined.
 */
export function bandwidthKBps(engineBps: number | undefined, downlinkMbps: number | undefined): number | undefined {
  if (engineBps && engineBps > 0) return engineBps / 8000;
  if (downlinkMbps && downlinkMbps > 0) return downlinkMbps * 125;
  return undefined;
}
