// Finding a system tool the tests need, and installing Debian's package for it when it is missing and
// we run as root on Debian (never a binary download of our own). find-chromium.mjs and find-nginx.mjs
// say where each tool is looked for.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** The tool's path on the PATH, if any. */
export function onPath(name) {
  const out = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

const isDebian = () => existsSync('/etc/debian_version') || /debian/i.test(safeRead('/etc/os-release'));
function safeRead(p) {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Returns `find()`'s path, installing `packages` with apt-get first when allowed and needed; throws
 * `advice` otherwise.
 * @param {{ name: string, find: () => string | undefined, packages: string[], advice: string, log?: (s: string) => void }} tool
 */
export function ensureTool({ name, find, packages, advice, log = console.log }) {
  let path = find();
  if (path) return path;
  if (process.getuid?.() === 0 && isDebian()) {
    log(`No ${name} found: installing Debian package "${packages[packages.length - 1]}" with apt-get…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
    path = find();
    if (path) return path;
  }
  throw new Error(advice);
}

/** `node scripts/find-X.mjs` prints the path or the advice. */
export function printWhenRun(url, ensure) {
  if (url !== `file://${process.argv[1]}`) return;
  try {
    console.log(ensure());
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
