#!/usr/bin/env node
// @ts-check
/** `npm start` / `npm run serve`: runs the reference server until SIGINT/SIGTERM. */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_ROOT, startServer } from './index.mjs';

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT ? Number(process.env.PORT) : 8080;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid PORT: ${process.env.PORT}`);
  process.exit(1);
}

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
try {
  // The demo titles get ads from the reference ad server; AD_LIST_URL= (empty) turns them off.
  // AD_ORIGINS=http://127.0.0.1:9000,http://localhost:9001: http ad servers the player page's policy admits.
  const adOrigins = process.env.AD_ORIGINS?.split(',').map((s) => s.trim()).filter(Boolean);
  srv = await startServer({ host, port, adListUrl: process.env.AD_LIST_URL ?? '/ad-list.json', adOrigins });
} catch (err) {
  const e = /** @type {NodeJS.ErrnoException} */ (err);
  if (e.code === 'EADDRINUSE') console.error(`Port ${port} on ${host} is already in use. Stop the other server or set PORT=…`);
  else console.error('Could not start the server:', e.message);
  process.exit(1);
}

if (!fs.existsSync(path.join(DEFAULT_ROOT, 'dist', 'player.html'))) {
  console.warn('dist/player.html is missing: run `npm run build` (the API and media are served meanwhile).');
}
if (!fs.existsSync(path.join(DEFAULT_ROOT, 'server', 'media'))) {
  console.warn('server/media/ is missing: run `npm run media` to generate the demo media.');
}

console.log(`Demo:   ${srv.url}/`);
console.log(`Player: ${srv.url}/player/?movie_id=1`);

let stopping = false;
async function stop() {
  if (stopping) process.exit(1); // a second Ctrl-C forces it
  stopping = true;
  await srv.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
