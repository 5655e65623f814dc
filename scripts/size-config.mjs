// Writes size-limit.json from the lazy-piece registry (src/core/pieces.json), so budgets are set in one
// place: `node scripts/size-config.mjs` after changing a budget; a unit test fails when they differ.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The critical path's budget: the page (dist/player.html, its inline bootstrap included) + entry JS +
 * CSS + the chunks the entry imports statically (build.mjs copies them apart).
 */
export const CRITICAL = { name: 'critical path (page with its inline bootstrap + entry JS + CSS + static chunks)', path: '.size/critical/*', brotli: true, limit: '19.75 kB' };

/**
 * Within it, what the page's first request waits for: the inline bootstrap, everything it imports
 * bundled in. Every kilobyte here arrives before the page's first requests go out (~6 ms on Fast 3G).
 */
export const BOOTSTRAP = { name: 'inline bootstrap (in the page, before the first request)', path: '.size/bootstrap/*', brotli: true, limit: '6.55 kB' };

/**
 * The chunks only lazy pieces import (build.mjs copies them apart): Preact with its hooks, compat and
 * signals, the icons and the UI's text, for the controls and the ads overlay (most of it), and the
 * modules two lazy pieces share. Each arrives once, with whichever piece asks for it first; no piece's
 * budget counts it (`npx size-limit` prints what it weighs).
 */
export const SHARED = { name: 'shared lazy chunks (Preact, its hooks, compat and signals, the icons and the UI text, for the controls and the ads overlay; modules two lazy pieces share)', path: '.size/shared/*', brotli: true, limit: '10 kB' };

/**
 * The partner SDK (src/embed/, build.mjs buildEmbedSdk): a bundle of its own, on the partner's page.
 * Partner memory (the record's merge and caps, src/core/memory-protocol.ts) is most of it above 3 kB;
 * the names of its methods and events (src/core/embed-protocol.ts) travel in it too.
 */
export const SDK = [
  { name: 'partner SDK, ES module (dist/embed.mjs)', path: 'dist/embed.mjs', brotli: true, limit: '3.8 kB' },
  { name: 'partner SDK, classic script (dist/embed.js)', path: 'dist/embed.js', brotli: true, limit: '4 kB' },
];

export function sizeConfig(pieces) {
  return [
    CRITICAL,
    BOOTSTRAP,
    SHARED,
    ...Object.entries(pieces).map(([name, p]) => ({
      name: `${name}: ${p.about}`,
      path: p.stylesheet ? [`dist/${name}-*.js`, `dist/${name}-*.css`] : `dist/${name}-*.js`,
      brotli: true,
      limit: p.budget,
    })),
    ...SDK,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pieces = JSON.parse(await readFile(join(root, 'src/core/pieces.json'), 'utf8'));
  await writeFile(join(root, 'size-limit.json'), JSON.stringify(sizeConfig(pieces), null, 2) + '\n');
}
