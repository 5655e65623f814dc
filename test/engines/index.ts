// Runs the engine journeys in one engine (ENGINE=chromium|firefox|webkit): one server, one browser.
// ENGINES_ONLY=playback,ads runs some files.
// `node --import tsx test/engines/all.ts` runs every engine.
import { boot, engineName, shutdown } from './harness';

// Literal imports, so knip follows them.
const all: Record<string, () => Promise<unknown>> = {
  playback: () => import('./playback.test'),
  menus: () => import('./menus.test'),
  series: () => import('./series.test'),
  markers: () => import('./markers.test'),
  screens: () => import('./screens.test'),
  ads: () => import('./ads.test'),
  sdk: () => import('./sdk.test'),
  memory: () => import('./memory.test'),
  'subtitle-style': () => import('./subtitle-style.test'),
};
const only = process.env.ENGINES_ONLY?.split(',').map((s) => s.trim());
const files = Object.keys(all).filter((f) => !only || only.some((o) => f.includes(o)));

const g = globalThis as unknown as { UVU_DEFER: number; UVU_QUEUE: unknown[][]; UVU_INDEX: number };
g.UVU_DEFER = 1;
g.UVU_QUEUE = [];
const { exec } = await import('uvu');

const engine = await boot();
console.log(`${engine.name} ${engine.version || '(version after the first tab)'}`);
try {
  for (const [i, file] of files.entries()) {
    g.UVU_INDEX = i;
    g.UVU_QUEUE.push([`${engineName()} ${file}`]);
    await all[file]();
  }
  await exec();
} finally {
  await shutdown();
}
process.exit(process.exitCode ?? 0);
