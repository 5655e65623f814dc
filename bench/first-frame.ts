// Time to first frame on a throttled network (Fast 3G: 1.44 Mb/s, 562 ms round trip, as in DESIGN).
// Prints numbers; never fails on timing. Run: npm run bench (builds first if dist/ is missing).
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
// @ts-expect-error: plain JS modules
import { startServer } from '../server/index.mjs';
// @ts-expect-error: plain JS modules
import { ensureChromium } from '../scripts/find-chromium.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PROFILES = {
  'fast-3g': { latency: 562, downloadThroughput: (1.44 * 1e6) / 8, uploadThroughput: (0.675 * 1e6) / 8 },
  '4g': { latency: 170, downloadThroughput: (9 * 1e6) / 8, uploadThroughput: (9 * 1e6) / 8 },
};

if (!existsSync('dist/player.html')) execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit' });
const server = await startServer({ port: 0 });
const browser = await chromium.launch({
  executablePath: ensureChromium(),
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  for (const [name, conditions] of Object.entries(PROFILES)) {
    const frames: number[] = [];
    const bytes: number[] = [];
    const requests: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 640, height: 360 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...conditions });
      let total = 0;
      let count = 0;
      let counting = true;
      cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
        if (counting) {
          total += e.encodedDataLength;
          count++;
        }
      });
      await page.goto(`${server.url}/player/?movie_id=1&auto_play=1`);
      // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
      const ms = (await page.evaluate(`new Promise((resolve) => {
        const tick = () => {
          const v = document.querySelector('video');
          if (v && v.currentTime > 0) resolve(performance.now());
          else setTimeout(tick, 10);
        };
        tick();
      })`)) as number;
      counting = false;
      frames.push(ms);
      bytes.push(total);
      requests.push(count);
      await context.close();
    }
    console.log(
      `${name.padEnd(8)} first frame: median ${median(frames).toFixed(0)} ms ` +
        `(min ${Math.min(...frames).toFixed(0)}, max ${Math.max(...frames).toFixed(0)}, ${RUNS} runs); ` +
        `before it: ${(median(bytes) / 1024).toFixed(1)} kB in ${median(requests)} requests`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}
