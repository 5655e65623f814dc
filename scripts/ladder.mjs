// @ts-check
/**
 * The generated ladder's cache (scripts/make-ladder.sh, served by server/ladder.mjs), for code that
 * needs it to exist, e.g. an end-to-end test:
 *
 *   import { ensureLadder } from '../../scripts/ladder.mjs';
 *   const dir = await ensureLadder({ small: true }); // .cache/media/ladder-small, made if missing
 *
 * and `npm run media:ladder [-- --small] [-- --force]` from the command line.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ladderCacheDir } from '../server/ladder.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts', 'make-ladder.sh');

/** @type {Map<string, Promise<string>>} one build per folder at a time within this process */
const building = new Map();

/**
 * Resolves to the ladder's folder once it is generated and up to date with make-ladder.sh (its
 * .stamp holds the sha256 of the script's code), running the script when it is not. The small ladder takes
 * seconds; the full one minutes.
 * @param {{ small?: boolean, force?: boolean }} [options]
 * @returns {Promise<string>}
 */
export function ensureLadder({ small = false, force = false } = {}) {
  const dir = path.join(ladderCacheDir(ROOT), small ? 'ladder-small' : 'ladder');
  if (!force && isCurrent(dir)) return Promise.resolve(dir);
  const pending = building.get(dir);
  if (pending) return pending;
  const args = [SCRIPT, ...(small ? ['--small'] : []), ...(force ? ['--force'] : [])];
  const build = new Promise((resolve, reject) => {
    const child = spawn('bash', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 && isCurrent(dir)) resolve(dir);
      else reject(new Error(`bash ${args.map((a) => path.relative(ROOT, a) || a).join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  }).finally(() => building.delete(dir));
  building.set(dir, /** @type {Promise<string>} */ (build));
  return /** @type {Promise<string>} */ (build);
}

/** @param {string} dir */
function isCurrent(dir) {
  try {
    const stamp = fs.readFileSync(path.join(dir, '.stamp'), 'utf8').trim();
    // As make-ladder.sh computes it: the script's lines but comments.
    const code = fs.readFileSync(SCRIPT, 'utf8').split('\n').filter((line) => !/^[ \t]*#/.test(line));
    return stamp === createHash('sha256').update(code.join('\n')).digest('hex');
  } catch {
    return false;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const flags = process.argv.slice(2);
  const unknown = flags.filter((f) => f !== '--small' && f !== '--force');
  if (unknown.length) {
    console.error(`unknown option ${unknown.join(' ')}; usage: npm run media:ladder [-- --small] [-- --force]`);
    process.exit(2);
  }
  ensureLadder({ small: flags.includes('--small'), force: flags.includes('--force') }).then(
    (dir) => console.log(`ladder ready: ${path.relative(ROOT, dir)}`),
    (err) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
