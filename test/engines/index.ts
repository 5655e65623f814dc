// Runs the engine journeys in one engine (ENGINE=chromium|firefox|webkit): one server, one browser.
// ENGINES_ONLY=playback,ads runs some files. `node --import tsx test/engines/all.ts` runs every engine.
import { boot, engineName, shutdown } from './harness';

const all = ['./playback.test', './menus.test', './series.test', './screens.test', './ads.test', './sdk.test'];
const only = process.env.ENGINES_ONLY?.split(',').map((s) => s.trim());
const files = only ? all.filter((f) => only.some((o) => f.includes(o))) : all;

const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: unknown[][]; UVU_INDEX: number };
g.UVU_DEFER = 1;
g.UVU_QUEUE = [];
const { exec } = await import('uvu');

const engine = await boot();
console.log(`${engine.name} ${engine.version || '(version after the first tab)'}`);
try {
  for (const [i, file] of files.entries()) {
    g.UVU_INDEX = i;
    g.UVU_QUEUE.push([`${engineName()} ${file.replace('./', '')}`]);
    await import(file);
  }
  await exec();
} finally {
  await shutdown();
}
process.exit(process.exitCode ?? 0);
