// `npm run test:engines` (and `npm test`'s engines stage): the journeys in Chromium, Firefox and WebKit,
// one process per engine, side by side (most of a journey's time is the media playing in real time).
// Each engine's output is printed whole when it ends, its uvu "Total:/Passed:" lines included.
// ENGINE=firefox runs one; ENGINES_ONLY=ads,sdk some journey files.
import { spawn } from 'node:child_process';
// @ts-expect-error: plain JS
import { ensureChromium } from '../../scripts/find-chromium.mjs';
// @ts-expect-error: plain JS
import { ensureEngines } from '../../scripts/find-engines.mjs';
import { ENGINES, type EngineName } from './driver';

const engines = process.env.ENGINE ? (process.env.ENGINE.split(',') as EngineName[]) : ENGINES;
const env = { ...process.env, CHROMIUM_PATH: ensureChromium() as string, ...(ensureEngines() as Record<string, string>) };

function run(engine: EngineName): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/engines/index.ts'], { env: { ...env, ENGINE: engine }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      console.log(`\n━━ ${engine}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const started = Date.now();
const results = await Promise.all(engines.map(run));
console.log(`engines: ${engines.map((e, i) => `${results[i] ? '✔' : '✘'} ${e}`).join('  ')} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(results.every(Boolean) ? 0 : 1);
