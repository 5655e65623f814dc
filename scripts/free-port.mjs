// @ts-check
import { createServer } from 'node:net';

/**
 * A port nobody listens on now on 127.0.0.1, for a child process (nginx, a WebDriver) that binds it
 * right after; a clash shows as that child exiting. Used by the static-deploy e2e, the engine
 * journeys and the bench's nginx deploy.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}
