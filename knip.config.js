// knip: unused files, unused exports and exported types, unused and unlisted dependencies.
// Checked by `npm run lint:dead` and by the `deadcode` stage of `npm test`.
//
// Resolution follows tsconfig.json `paths`, as tsc does: `react` and `react-dom` are preact/compat,
// `react/jsx-runtime` is preact's, and `virtual:pieces` is test/unit/virtual-pieces.ts (the build's
// esbuild plugin stands in for it there).
import { readFileSync } from 'node:fs';

// Every lazy piece is an entry point of the build; src/core/pieces.json is the one list of them.
// A listed entry that does not exist yet is a configuration hint ("Refine entry pattern (no
// matches)"), printed under the findings; it does not fail the run.
const pieces = JSON.parse(readFileSync(new URL('./src/core/pieces.json', import.meta.url), 'utf8'));
const pieceEntries = Object.values(pieces).map((piece) => piece.entry);

/** @type {import('knip').KnipConfig} */
export default {
  // Also entries, found by knip's plugins, so not repeated here (knip calls a repeat redundant):
  // build.mjs, server/cli.mjs, test/unit/index.ts and test/e2e/index.ts (package.json scripts),
  // .dependency-cruiser.cjs (dependency-cruiser), the size-limit config (size-limit).
  // If a script stops naming one, knip reports the file as unused rather than going quiet.
  entry: [
    'src/main.tsx',
    'src/bootstrap/boot.ts',
    ...pieceEntries,
    // The partner SDK's two bundles (build.mjs buildEmbedSdk).
    'src/embed/module.ts',
    'src/embed/classic.ts',
    'server/index.mjs',
    'server/test/*.mjs',
    'scripts/*.mjs',
    'scripts/depcruise/*.mjs',
    // test/e2e/index.ts imports its suites by computed name, which knip cannot follow.
    'test/e2e/*.test.ts',
    'bench/*.ts',
    // The simulator's worker thread, which sim/run.ts starts from a string (sim/cli.ts is `npm run sim`).
    'sim/worker.ts',
  ],
  // What is code. Not code: static/, src/ads/vpaid-frame.html, server/demo/ and server/ads/ (browser
  // scripts the reference server serves as files), server/media/.
  project: [
    'src/**/*.{ts,tsx}',
    'test/**/*.{ts,tsx}',
    'bench/**/*.ts',
    'sim/**/*.ts',
    'types/**/*.d.ts',
    'server/**/*.mjs',
    'scripts/**/*.mjs',
  ],
  // An exported value nobody imports is reported even when its own file uses it (drop the `export`).
  // An exported type or interface its own file uses is not: it names the parameter or result of
  // something exported, so callers may need it.
  ignoreExportsUsedInFile: { interface: true, type: true },
  // The typed SPEC §7 endpoints: every call is its own export on purpose, whether the player calls
  // it or not; the bundle carries only the imported ones (test/unit/api/tree-shaking.test.ts).
  ignoreIssues: {
    'src/api/catalog.ts': ['exports'],
    'src/api/authenticator.ts': ['exports'],
  },
  // test/e2e/ui.test.ts reads node_modules/axe-core/axe.min.js by path and injects it into the page.
  ignoreDependencies: ['axe-core'],
  // scripts/find-chromium.mjs falls back to the system's apt-get.
  ignoreBinaries: ['apt-get'],
};
