// `npm test`: typecheck, layers (dependency-cruiser), dead code (knip), unit tests, build, size budget,
// end-to-end tests in Chromium, the journeys in Chromium, Firefox and WebKit.
// Every stage runs even if an earlier one failed, so one run shows everything that is wrong.
import { spawn } from 'node:child_process';
import { ensureTool, onPath } from './debian-tool.mjs';
import { ensureChromium } from './find-chromium.mjs';

// Matched as parts of the suites' file names (test/e2e/index.ts).
const linkSuites = 'outage,ladder-link,resume-hold';
const firstLane = 'foundation,ads,ad-origins,ad-analytics,telemetry,sandbox,csp-hash,returning';

const stages = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  // DESIGN.md "Layers" and no cycles in src/ (.dependency-cruiser.cjs); `npm run lint:layers`.
  ['layers', 'npx', ['depcruise-ts6', 'src', '--config', '.dependency-cruiser.cjs']],
  // Unused files, exports, dependencies (knip.config.js); `npm run lint:dead`.
  ['deadcode', 'npx', ['knip', '--no-progress']],
  ['unit', process.execPath, ['--import', 'tsx', 'test/unit/index.ts']],
  ['server', process.execPath, ['server/test/server.test.mjs']],
  ['build', process.execPath, ['build.mjs']],
  ['size', 'npx', ['size-limit']],
  // Three phases, each on its own servers and Chromiums. First the fault matrix, which mostly waits out
  // the player's own deadlines (a stalled server's seconds), as two halves side by side; then the other
  // suites that need no link, as two lanes side by side (the first named, the second all the rest, so a
  // new suite runs without being listed here); last, alone on the machine, the suites that play a film
  // through a link in real time (the outage's 40 s tunnel among them).
  [
    'e2e',
    process.execPath,
    ['--import', 'tsx', 'test/e2e/index.ts'],
    [
      [{ E2E_ONLY: 'faults', FAULTS_SHARD: '0/2' }, { E2E_ONLY: 'faults', FAULTS_SHARD: '1/2' }],
      [{ E2E_ONLY: firstLane }, { E2E_SKIP: `faults,${linkSuites},${firstLane}` }],
      [{ E2E_ONLY: linkSuites }],
    ],
  ],
  // The journeys in Chromium and Firefox ESR side by side, then WebKitGTK (test/engines/all.ts finds
  // or installs each engine as find-chromium.mjs does); `npm run test:engines`.
  ['engines', process.execPath, ['--import', 'tsx', 'test/engines/all.ts']],
];

const results = [];
const tests = { passed: 0, failed: 0 };
for (const [name, cmd, args, phases = [[{}]]] of stages) {
  console.log(`\n▶ ${name}`);
  const env = { ...process.env };
  if (name === 'e2e') {
    try {
      env.CHROMIUM_PATH = ensureChromium();
      // The small bitrate ladder (test/e2e/ladder-link.test.ts) is made on first use with ffmpeg.
      ensureTool({
        name: 'ffmpeg',
        find: () => onPath('ffmpeg'),
        packages: ['fonts-dejavu-core', 'ffmpeg'],
        advice: 'The end-to-end tests make a small bitrate ladder with ffmpeg: install ffmpeg (Debian: apt-get install ffmpeg fonts-dejavu-core).',
      });
    } catch (err) {
      console.error(err.message);
      results.push([name, false]);
      continue;
    }
  }
  const runs = [];
  for (const lanes of phases) runs.push(...(await Promise.all(lanes.map((extra) => run(cmd, args, { ...env, ...extra }, lanes.length > 1)))));
  const code = runs.every((r) => r.code === 0) ? 0 : 1;
  const output = runs.map((r) => r.output).join('\n');
  results.push([name, code === 0]);
  // uvu ends each run with "Total: N / Passed: N"; keep the counts for the closing line.
  const total = [...output.matchAll(/Total:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  const passed = [...output.matchAll(/Passed:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  tests.passed += passed;
  tests.failed += total - passed;
}

/**
 * Runs a command, keeping a copy of its output to read the counts from. Its output shows as it comes;
 * of one run beside others, all at once when it ends (with the lane's settings), so that none interleave.
 */
function run(cmd, args, env, beside = false) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let shown = '';
    child.stdout.on('data', (d) => {
      output += d;
      if (beside) shown += d;
      else process.stdout.write(d);
    });
    child.stderr.on('data', (d) => (beside ? (shown += d) : process.stderr.write(d)));
    child.on('close', (code) => {
      if (beside) process.stdout.write(`${lane(env)}\n${shown}\n`);
      resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') });
    });
  });
}

/** A lane's own settings, to head its output: `E2E_ONLY=faults FAULTS_SHARD=0/2`. */
function lane(env) {
  return ['E2E_ONLY', 'E2E_SKIP', 'FAULTS_SHARD']
    .filter((k) => env[k] && env[k] !== process.env[k])
    .map((k) => `${k}=${env[k]}`)
    .join(' ');
}

const failed = results.filter(([, ok]) => !ok).map(([n]) => n);
console.log(`\n${results.map(([n, ok]) => `${ok ? '✔' : '✘'} ${n}`).join('  ')}`);
console.log(`stages: ${results.length - failed.length} passed, ${failed.length} failed`);
console.log(`tests: ${tests.passed} passed, ${tests.failed + (failed.length && !tests.failed ? 1 : 0)} failed`);
process.exit(failed.length ? 1 : 0);
