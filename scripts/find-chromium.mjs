// Finds a Chromium for the end-to-end tests, in the order the README gives. When none is found and we
// run as root on Debian, installs Debian's `chromium` package (never a browser download of our own).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

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

function onPath(name) {
  const out = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

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

const isDebian = () => existsSync('/etc/debian_version') || /debian/i.test(safeRead('/etc/os-release'));
const safeRead = (p) => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};

/** Returns a Chromium path, installing Debian's package when allowed; throws with advice otherwise. */
export function ensureChromium({ log = console.log } = {}) {
  let path = findChromium();
  if (path) return path;
  if (process.getuid?.() === 0 && isDebian()) {
    log('No Chromium found: installing Debian package "chromium" with apt-get…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core'], { stdio: 'inherit', env });
    path = findChromium();
    if (path) return path;
  }
  throw new Error(
    'No Chromium found for the end-to-end tests. Install one (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureChromium());
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
