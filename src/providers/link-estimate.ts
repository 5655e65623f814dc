/** Smaller downloads say more about round trips than about the link's capacity. */
const MIN_BYTES = 16000;

type Timing = Pick<PerformanceResourceTiming, 'transferSize' | 'responseStart' | 'responseEnd'>;

/**
 * The link's capacity in bits/s as the page's own downloads so far measured it (the entry, the hls.js
 * piece, the first playlists and fragments): their bytes over the time any of them was arriving, so
 * downloads that shared the link are counted together. Undefined when nothing large enough came (or
 * the entries hide their sizes: another origin without Timing-Allow-Origin).
 */
export function measuredBandwidth(entries: readonly Timing[]): number | undefined {
  const sized = entries
    .filter((e) => e.transferSize >= MIN_BYTES && e.responseEnd > e.responseStart)
    .sort((a, b) => a.responseStart - b.responseStart);
  if (!sized.length) return;
  let bytes = 0;
  let busy = 0;
  let from = sized[0].responseStart;
  let to = from;
  for (const e of sized) {
    bytes += e.transferSize;
    if (e.responseStart > to) {
      busy += to - from;
      from = e.responseStart;
      to = e.responseEnd;
    } else to = Math.max(to, e.responseEnd);
  }
  busy += to - from;
  return (bytes * 8000) / busy;
}
