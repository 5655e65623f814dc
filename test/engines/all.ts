// `npm run test:engines` (and `npm test`'s engines stage): the journeys in Chromium, Firefox and WebKit,
// one process per engine: Chromium and Firefox side by side (most of a journey's time is the media
// playing in real time), then WebKit alone. On this 2-core machine WebKitGTK's web process takes more
// than a core for the journeys' 720p film; beside the other two its journeys failed one run in two
// (a seek, an audio switch, an episode or a pre-roll that never went on); alone, one in three, some
// of those a web process that stopped answering the driver for minutes. So each engine's run is
// bounded (RUN_LIMIT_MS), and the journey files that failed or never finished run once more, alone;
// both tries are printed, and a file that fails twice fails the stage.
// Each engine's output is printed whole when it ends; the closing "Total:/Passed:" per engine counts
// each file once, from its last try. ENGINE=firefox runs one; ENGINES_ONLY=ads,sdk some journey files.
import { spawn } from 'node:child_process';
// @ts-expect-error: plain JS
import { ensureChromium } from '../../scripts/find-chromium.mjs';
// @ts-expect-error: plain JS
import { ensureEngines } from '../../scripts/find-engines.mjs';
import { ENGINES, type EngineName } from './driver';

const RUN_LIMIT_MS = 15 * 60_000;
const engines = process.env.ENGINE ? (process.env.ENGINE.split(',') as EngineName[]) : ENGINES;
const env = { ...process.env, CHROMIUM_PATH: ensureChromium() as string, ...(ensureEngines() as Record<string, string>) };

interface Try {
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
    const header = line.trim().match(new RegExp(`^${engine} (\\w+)$`));
    if (header) file = header[1];
    const done = line.match(/\((\d+) \/ (\d+)\)\s*$/);
    if (done && file) counts.set(file, [Number(done[1]), Number(done[2])]);
  }
  return counts;
}

function once(engine: EngineName, skip: string[]): Promise<Try> {
  return new Promise((resolve) => {
    const extra = skip.length ? { ENGINES_SKIP: skip.join(',') } : {};
    // A group of its own, so that a run past its limit goes with the browser it started.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/engines/index.ts'], { env: { ...env, ...extra, ENGINE: engine }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
  const first = await once(engine, []);
  const passedFiles = [...first.counts].filter(([, [p, t]]) => p === t).map(([f]) => f);
  const second = first.ok ? undefined : await once(engine, passedFiles);
  const { ok } = second ?? first;
  // A file the second try finished counts from it; any other, from the first.
  const counts = new Map([...first.counts, ...(second?.counts ?? [])]);
  const [passed, total] = [...counts.values()].reduce(([p, t], [fp, ft]) => [p + fp, t + ft], [0, 0]);
  // The tries' own uvu totals, renamed: the stage counts each file once, from the closing line below.
  const quiet = (s: string) => s.replace(/Total:/g, 'total:').replace(/Passed:/g, 'passed:');
  const secs = Math.round((Date.now() - started) / 1000);
  const verdict = ok ? (second ? 'passed at the second try' : 'passed') : 'failed';
  console.log(`\n━━ ${engine}: ${verdict} in ${secs} s\n${quiet(first.output)}`);
  if (second) console.log(`\n━━ ${engine}, the second try (all but ${passedFiles.join(', ') || 'nothing'}):\n${quiet(second.output)}`);
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
