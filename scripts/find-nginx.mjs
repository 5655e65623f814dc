// Finds nginx for the static-deploy end-to-end test (test/e2e/static-deploy.test.ts), as
// find-chromium.mjs finds Chromium: NGINX_PATH, /usr/sbin/nginx, the PATH; when none is found and we
// run as root on Debian, installs Debian's `nginx` package (the server partners use). The package's
// own service is not needed: the test runs nginx as its child, with its own prefix, in a temp folder.
import { existsSync } from 'node:fs';
import { ensureTool, onPath, printWhenRun } from './debian-tool.mjs';

export function findNginx() {
  return [process.env.NGINX_PATH, '/usr/sbin/nginx', onPath('nginx')].find((p) => p && existsSync(p));
}

/** Returns an nginx path, installing Debian's package when allowed; throws with advice otherwise. */
export function ensureNginx({ log = console.log } = {}) {
  return ensureTool({
    name: 'nginx',
    find: findNginx,
    packages: ['--no-install-recommends', 'nginx'],
    advice:
      'No nginx found for the static-deploy end-to-end test. Install one (Debian/Ubuntu: `sudo apt-get install nginx`) ' +
      'or point NGINX_PATH at an nginx binary.',
    log,
  });
}

printWhenRun(import.meta.url, ensureNginx);
