// Finds a Chromium for the end-to-end tests, in the order the README gives. When none is found and we
// run as root on Debian, installs Debian's `chromium` package (never a browser download of our own).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureTool, onPath, printWhenRun } from './debian-tool.mjs';

function playwrightOwn() {
  try {
    const dir = process.env.PLAYWRIGHT_BROWSERS_PATH;
    if (!dir) return undefined;
    const out = spawnSync('sh', ['-c', `ls -d "${dir}"/chromium-*/chrome-linux/chrome 2>/dev/null | tail -n 1`], { encoding: 'utf8' });
    return out.stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The flags this machine's Chromium needs everywhere it runs (tests, journeys, benchmarks): no sandbox
 * as root, no GPU, no QUIC, no background network calls. Each caller adds its autoplay policy.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function findChromium() {
  const candidates = [
    playwrightOwn(),
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    onPath('chromium'),
    '/usr/bin/google-chrome',
    onPath('google-chrome'),
    onPath('google-chrome-stable'),
  ];
  return candidates.find((p) => p && existsSync(p));
}

/** Returns a Chromium path, installing Debian's package when allowed; throws with advice otherwise. */
export function ensureChromium({ log = console.log } = {}) {
  return ensureTool({
    name: 'Chromium',
    find: findChromium,
    // The last one names the package in the log line.
    packages: ['fonts-dejavu-core', 'chromium'],
    advice:
      'No Chromium found for the end-to-end tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    log,
  });
}

printWhenRun(import.meta.url, ensureChromium);
