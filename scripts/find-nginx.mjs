// Finds nginx for the static-deploy end-to-end test (test/e2e/static-deploy.test.ts), as
// find-chromium.mjs finds Chromium: NGINX_PATH, /usr/sbin/nginx, the PATH; when none is found and we
// run as root on Debian, installs Debian's `nginx` package (the server partners use). The package's
// own service is not needed: the test runs nginx as its child, with its own prefix, in a temp folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

function onPath(name) {
  const out = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

export function findNginx() {
  return [process.env.NGINX_PATH, '/usr/sbin/nginx', onPath('nginx')].find((p) => p && existsSync(p));
}

const isDebian = () => existsSync('/etc/debian_version') || /debian/i.test(safeRead('/etc/os-release'));
function safeRead(p) {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
}

/** Returns an nginx path, installing Debian's package when allowed; throws with advice otherwise. */
export function ensureNginx({ log = console.log } = {}) {
  let path = findNginx();
  if (path) return path;
  if (process.getuid?.() === 0 && isDebian()) {
    log('No nginx found: installing Debian package "nginx" with apt-get…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'nginx'], { stdio: 'inherit', env });
    path = findNginx();
    if (path) return path;
  }
  throw new Error(
    'No nginx found for the static-deploy end-to-end test. Install one (Debian/Ubuntu: `sudo apt-get install nginx`) ' +
      'or point NGINX_PATH at an nginx binary.',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(ensureNginx());
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
