// Runs the end-to-end suites in one process against one server and one browser, then closes both.
import { boot, shutdown } from './harness';

const all = [
  './foundation.test',
  './ui.test',
  './ui-mobile.test',
  './ui-unmute.test',
  './ui-offers.test',
  './series.test',
  './series-menu.test',
  './features.test',
  './ads.test',
  './ads-vast.test',
  './ads-media.test',
  './telemetry.test',
  './ad-origins.test',
  './ad-analytics.test',
  './sandbox.test',
  './csp-hash.test',
  './sdk.test',
  './sdk-autoplay.test',
  './faults.test',
  './returning.test',
  './outage.test',
  './ladder-link.test',
  './resume-hold.test',
  './static-deploy.test',
];
// E2E_ONLY=foundation,ui runs a subset while working on one part; E2E_SKIP=faults all but some
// (`npm test` runs three phases: the fault matrix's halves side by side, then two lanes of the rest,
// then the link suites alone: scripts/test.mjs).
const list = (v: string | undefined) => v?.split(',').map((s) => s.trim());
const [only, skip] = [list(process.env.E2E_ONLY), list(process.env.E2E_SKIP)];
const files = all.filter((f) => (!only || only.some((o) => f.includes(o))) && !skip?.some((o) => f.includes(o)));

const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: unknown[][]; UVU_INDEX: number };
g.UVU_DEFER = 1;
g.UVU_QUEUE = [];
const { exec } = await import('uvu');

await boot();
try {
  for (const [i, file] of files.entries()) {
    g.UVU_INDEX = i;
    g.UVU_QUEUE.push([file.replace('./', '')]);
    await import(file);
  }
  await exec();
} finally {
  await shutdown();
}
process.exit(process.exitCode ?? 0);
