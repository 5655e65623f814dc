// Which HTTP the pages really spoke: Resource Timing's nextHopProtocol of the page and of every resource
// it loaded, counted per origin kind (the page's own, others such as the ad server). Chromium leaves it
// empty for another origin that sends no Timing-Allow-Origin, and for some HTTP/1.1 entries ("empty").

/** Evaluated in the page: { 'own h2': 12, 'other http/1.1': 3, ... }. A string: tsx would wrap a function in a helper the page lacks. */
export const PROTOCOL_PROBE = `(() => {
  const counts = {};
  for (const e of [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]) {
    if (!/^https?:/.test(e.name)) continue;
    const own = new URL(e.name).origin === location.origin;
    const key = (own ? 'own ' : 'other ') + (e.nextHopProtocol || 'empty');
    counts[key] = (counts[key] || 0) + 1;
  }
  return counts;
})()`;

export type ProtocolCounts = Record<string, number>;

/** "own h2 ×230, other h2 ×12" over every run of a page. */
export function protocolSummary(runs: Array<{ protocols: ProtocolCounts }>): string {
  const total: ProtocolCounts = {};
  for (const run of runs) for (const [key, n] of Object.entries(run.protocols)) total[key] = (total[key] ?? 0) + n;
  const keys = Object.keys(total).sort();
  return keys.length ? keys.map((k) => `${k} ×${total[k]}`).join(', ') : 'no entries';
}
