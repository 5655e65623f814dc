// What both benchmarks do around a measured page: a fresh browser context, the probe before the
// page's own scripts, the cache off, CPU (and network) throttled over CDP, and a bounded wait.
import type { Browser, CDPSession, Page } from 'playwright-core';

export interface PageSetup {
  /** A script run in the page before its own (a string: tsx would wrap named inner functions in a helper the page lacks). */
  probe: string;
  /** CDP Emulation.setCPUThrottlingRate; 1 = none. */
  cpu: number;
  /** CDP Network.emulateNetworkConditions; none = the machine's own. */
  network?: { offline: boolean; latency: number; downloadThroughput: number; uploadThroughput: number };
}

/** Runs `use` on a page of a fresh context set up as `setup` says; the context is closed after. */
export async function inFreshPage<T>(browser: Browser, setup: PageSetup, use: (page: Page, cdp: CDPSession) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 640, height: 360 } });
  try {
    await context.addInitScript(setup.probe);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (setup.network) await cdp.send('Network.emulateNetworkConditions', setup.network);
    if (setup.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: setup.cpu });
    return await use(page, cdp);
  } finally {
    await context.close().catch(() => {});
  }
}

/** `promise`, or an Error "`what` within N s" once `ms` have passed. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
