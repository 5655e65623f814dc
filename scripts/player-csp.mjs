#!/usr/bin/env node
// @ts-check
/**
 * Prints the player page's Content-Security-Policy (server/player.mjs playerPolicy), so a static host
 * sends exactly what the reference server sends:
 *
 *   node scripts/player-csp.mjs [--report-uri URI] [AD_ORIGIN...]
 *
 * AD_ORIGIN: an http ad server to admit besides every https origin (development). Without
 * --report-uri the policy has no report-uri (a static host has no endpoint to receive reports).
 * The inline bootstrap's hash is the build's (dist/player.csp.json; DIST_DIR names another dist/):
 * build first, and print again after every build that changed the bootstrap.
 */
import { fileURLToPath } from 'node:url';
import { playerPolicy, readCspManifest } from '../server/player.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--report-uri');
const reportUri = at >= 0 ? args.splice(at, 2)[1] : null;
if (at >= 0 && !reportUri) {
  console.error('--report-uri needs a value');
  process.exit(1);
}
try {
  const dist = process.env.DIST_DIR || fileURLToPath(new URL('../dist', import.meta.url));
  const { scriptHashes } = readCspManifest(dist);
  if (!scriptHashes.length) console.error(`no ${dist}/player.csp.json: run \`npm run build\` first, or the page's inline bootstrap is refused`);
  console.log(playerPolicy({ adOrigins: args, reportUri, scriptHashes }));
} catch (err) {
  console.error(String(/** @type {Error} */ (err).message));
  process.exit(1);
}
