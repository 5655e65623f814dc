/**
 * The link as the policy predicts it: the harmonic mean of the last segments' rates (one vote each, so
 * a dip counts as much as a burst), discounted by the worst relative error the estimate made on them
 * (robust MPC's rule: a link that surprised it lately is trusted less), and the requests' latency.
 * Before it has missed at all it counts `priorError` as a miss: a lone sample (the start's small first
 * segment, a burst) is not yet the link; the prior leaves the window as real misses fill it. A miss
 * counts at most `errorCap`: a segment 10× slower than the mean is a miss of 9, and dividing the next
 * segments' plan by 5.5 for it would punish one dip twice, since the harmonic mean already holds it.
 */
export interface Estimate {
  /** One segment's transfer: bits from first to last byte over that time, and the time to the first byte. */
  sample(bits: number, transferMs: number, latencyMs: number): void;
  /** The rate to plan with, kb/s (discounted), and the plain mean; `fallback` before any sample. */
  kbps(): number;
  meanKbps(): number;
  latencyS(): number;
}

export function createEstimate(size: number, fallbackKbps: number, errorWeight = 1, priorError = 0, errorCap = Infinity): Estimate {
  const rates: number[] = [];
  const errors: number[] = priorError > 0 ? [priorError] : [];
  let latency = 0;
  const mean = () => (rates.length ? rates.length / rates.reduce((s, r) => s + 1 / r, 0) : fallbackKbps);
  const worst = () => (errors.length ? Math.max(...errors) : 0);
  const keep = (list: number[], value: number) => {
    list.push(value);
    if (list.length > size) list.shift();
  };
  return {
    sample(bits, transferMs, latencyMs) {
      if (!(bits > 0) || !Number.isFinite(bits) || !(transferMs >= 0) || !Number.isFinite(transferMs)) return;
      // A segment that arrived within the clock's resolution says only that the link is fast.
      const rate = bits / Math.max(transferMs, 1);
      if (rates.length) keep(errors, Math.min(errorCap, Math.abs(mean() - rate) / rate));
      keep(rates, rate);
      if (latencyMs >= 0 && Number.isFinite(latencyMs)) latency = rates.length > 1 ? 0.8 * latency + 0.2 * latencyMs : latencyMs;
    },
    kbps: () => mean() / (1 + errorWeight * worst()),
    meanKbps: mean,
    latencyS: () => latency / 1000,
  };
}
