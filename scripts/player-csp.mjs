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
 */
import { playerPolicy } from '../server/player.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--report-uri');
const reportUri = at >= 0 ? args.splice(at, 2)[1] : null;
if (at >= 0 && !reportUri) {
  console.error('--report-uri needs a value');
  process.exit(1);
}
try {
  console.log(playerPolicy({ adOrigins: args, reportUri }));
} catch (err) {
  console.error(String(/** @type {Error} */ (err).message));
  process.exit(1);
}
