// `npm test`: typecheck, layers (dependency-cruiser), dead code (knip), unit tests, build, size budget,
// end-to-end tests in Chromium, the journeys in Chromium, Firefox and WebKit.
// Every stage runs even if an earlier one failed, so one run shows everything that is wrong.
import { spawn } from 'node:child_process';
import { ensureTool, onPath } from './debian-tool.mjs';
import { ensureChromium } from './find-chromium.mjs';

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
  ['e2e', process.execPath, ['--import', 'tsx', 'test/e2e/index.ts']],
  // The journeys in Chromium and Firefox ESR side by side, then WebKitGTK (test/engines/all.ts finds
  // or installs each engine as find-chromium.mjs does); `npm run test:engines`.
  ['engines', process.execPath, ['--import', 'tsx', 'test/engines/all.ts']],
];

const results = [];
const tests = { passed: 0, failed: 0 };
for (const [name, cmd, args] of stages) {
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
  const { code, output } = await run(cmd, args, env);
  results.push([name, code === 0]);
  // uvu ends each run with "Total: N / Passed: N"; keep the counts for the closing line.
  const total = [...output.matchAll(/Total:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  const passed = [...output.matchAll(/Passed:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  tests.passed += passed;
  tests.failed += total - passed;
}

/** Runs a command, showing its output as it comes and keeping a copy to read the counts from. */
function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      output += d;
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => resolve({ code, output: output.replace(/\x1b\[[0-9;]*m/g, '') }));
  });
}

const failed = results.filter(([, ok]) => !ok).map(([n]) => n);
console.log(`\n${results.map(([n, ok]) => `${ok ? '✔' : '✘'} ${n}`).join('  ')}`);
console.log(`stages: ${results.length - failed.length} passed, ${failed.length} failed`);
console.log(`tests: ${tests.passed} passed, ${tests.failed + (failed.length && !tests.failed ? 1 : 0)} failed`);
process.exit(failed.length ? 1 : 0);
