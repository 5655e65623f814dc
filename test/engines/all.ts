// `npm run test:engines` (and `npm test`'s engines stage): the journeys in Chromium, Firefox and WebKit,
// one process per engine: Chromium and Firefox side by side (most of a journey's time is the media
// playing in real time), then WebKit alone (on this 2-core machine WebKitGTK's web process takes more
// than a core for the journeys' 720p film). Each engine runs once and its result is reported as it is:
// a journey that fails fails the stage, with no second try. Only a browser that fails to start is
// started once more (test/engines/harness.ts `boot`, and WebKit's sessions in webkit.ts), and a journey
// whose browser stopped answering its driver runs once more in a new one (test/engines/journey.ts). Each
// engine's run is bounded (RUN_LIMIT_MS): a run past it is stopped and fails, the journeys it finished
// counted. Each engine's output is printed whole when it ends, with a closing "Total:/Passed:" per
// engine. ENGINE=firefox runs one; ENGINES_ONLY=ads,sdk some journey files.
import { spawn } from 'node:child_process';
// @ts-expect-error: plain JS
import { ensureChromium } from '../../scripts/find-chromium.mjs';
// @ts-expect-error: plain JS
import { ensureEngines } from '../../scripts/find-engines.mjs';
import { ENGINES, type EngineName } from './driver';

const RUN_LIMIT_MS = 15 * 60_000;
const engines = process.env.ENGINE ? (process.env.ENGINE.split(',') as EngineName[]) : ENGINES;
const env = { ...process.env, CHROMIUM_PATH: ensureChromium() as string, ...(ensureEngines() as Record<string, string>) };

interface Run {
  ok: boolean;
  output: string;
  /** Per journey file that finished: [passed, total]. */
  counts: Map<string, [number, number]>;
}

/** uvu prints each file's name (`webkit ads`), then a dot per journey and `(passed / total)`. */
function countsOf(engine: EngineName, output: string): Map<string, [number, number]> {
  const counts = new Map<string, [number, number]>();
  let file = '';
  for (const line of output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const header = line.trim().match(new RegExp(`^${engine} ([\\w-]+)$`));
    if (header) file = header[1];
    const done = line.match(/\((\d+) \/ (\d+)\)\s*$/);
    if (done && file) counts.set(file, [Number(done[1]), Number(done[2])]);
  }
  return counts;
}

function once(engine: EngineName): Promise<Run> {
  return new Promise((resolve) => {
    // A group of its own, so that a run past its limit goes with the browser it started.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/engines/index.ts'], { env: { ...env, ENGINE: engine }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const limit = setTimeout(() => {
      output += `\n${engine}: still running after ${RUN_LIMIT_MS / 60_000} min: stopped\n`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, RUN_LIMIT_MS);
    child.on('exit', (code) => {
      clearTimeout(limit);
      // What the group printed so far, without waiting on a pipe a stray process may still hold.
      setTimeout(() => resolve({ ok: code === 0, output, counts: countsOf(engine, output) }), 500);
    });
  });
}

async function run(engine: EngineName): Promise<boolean> {
  const started = Date.now();
  const { ok, output, counts } = await once(engine);
  const [passed, total] = [...counts.values()].reduce(([p, t], [fp, ft]) => [p + fp, t + ft], [0, 0]);
  // The run's own uvu totals, renamed: the stage counts from the closing line below, which also counts
  // the files a run stopped at its limit had finished.
  const quiet = (s: string) => s.replace(/Total:/g, 'total:').replace(/Passed:/g, 'passed:');
  const secs = Math.round((Date.now() - started) / 1000);
  console.log(`\n━━ ${engine}: ${ok ? 'passed' : 'failed'} in ${secs} s\n${quiet(output)}`);
  console.log(`${engine}:\n  Total:     ${total}\n  Passed:    ${passed}\n`);
  return ok;
}

const started = Date.now();
const sideBySide = engines.filter((e) => e !== 'webkit');
const results = new Map<EngineName, boolean>();
await Promise.all(sideBySide.map(async (e) => results.set(e, await run(e))));
if (engines.includes('webkit')) results.set('webkit', await run('webkit'));
console.log(`engines: ${engines.map((e) => `${results.get(e) ? '✔' : '✘'} ${e}`).join('  ')} in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(engines.every((e) => results.get(e)) ? 0 : 1);
