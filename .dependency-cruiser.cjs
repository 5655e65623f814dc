// dependency-cruiser: the layer order of /work/shared/DESIGN.md "Layers", checked by `npm run lint:layers`
// and by the `layers` stage of `npm test`. Run it through scripts/depcruise/run.mjs (`depcruise-ts6`):
// plain `depcruise` cannot read TypeScript next to the project's TypeScript 7 (run.mjs says why).
//
// Only src/ is layered. test/, server/, bench/ and scripts/ are not cruised (the npm script passes src)
// and every rule below starts from ^src/, so nothing outside src/ is ever reported.

/** DESIGN.md's rows, top to bottom. A module may import its own row and any lower row, never a higher one. */
const ROWS = [
  // The partner SDK (README "Partner SDK"): a bundle of its own on the partner's page (stricter rule below).
  ['embed', '^src/embed/'],
  // The entry, and the pre-entry bootstrap (which has its own, stricter rule below).
  ['entry', '^src/(main\\.tsx|bootstrap/)'],
  ['controller', '^src/controller/'],
  ['features', '^src/features/'],
  ['ui', '^src/ui/'],
  ['ads', '^src/ads/'],
  ['analytics', '^src/analytics/'],
  ['telemetry', '^src/telemetry/'],
  ['providers', '^src/providers/'],
  ['content', '^src/content/'],
  ['api', '^src/api/'],
  ['storage', '^src/storage/'],
  ['core', '^src/core/'],
  ['config', '^src/config/'],
  ['i18n', '^src/i18n/'],
  // The playback policy: pure decisions, no DOM and no hls.js (DESIGN "Playback is one policy"); the simulator runs it too.
  ['playback', '^src/playback/'],
];
const rowName = (name) => (name === 'entry' ? 'src/main.tsx, src/bootstrap/' : `src/${name}/`);

const LAYERED = ROWS.map(([, path]) => path);

/** `no-upward-<row>`: nothing in a row imports a higher row. controller/ has its own rule (below), so
 * an import of it is reported once, as `only-main-imports-controller`. */
const upward = ROWS.slice(1).map(([name, path], index) => {
  const higher = ROWS.slice(0, index + 1).filter(([above]) => above !== 'controller');
  return {
    name: `no-upward-${name}`,
    severity: 'error',
    comment:
      `${rowName(name)} may import its own folder and lower rows of DESIGN.md "Layers", never ` +
      `${higher.map(([above]) => rowName(above)).join(', ')}`,
    from: { path },
    to: { path: higher.map(([, above]) => above) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'only-main-imports-controller',
      severity: 'error',
      comment: 'controller/ wires one player; only src/main.tsx imports it (files in controller/ may import each other)',
      from: { path: '^src/', pathNot: '^src/(main\\.tsx|controller/)' },
      to: { path: '^src/controller/' },
    },
    {
      name: 'embed-standalone',
      severity: 'error',
      comment: 'src/embed/ is the partner SDK, a bundle apart (< 4 kB): from src/ it may import only the pure protocol modules core/embed-protocol.ts and core/memory-protocol.ts',
      from: { path: '^src/embed/' },
      to: { path: '^src/', pathNot: '^src/(embed/|core/(embed|memory)-protocol\\.ts$)' },
    },
    {
      name: 'nothing-imports-embed',
      severity: 'error',
      comment: 'the player never imports the partner SDK (src/embed/)',
      from: { path: '^src/', pathNot: '^src/embed/' },
      to: { path: '^src/embed/' },
    },
    {
      name: 'bootstrap-imports-no-framework',
      severity: 'error',
      comment:
        'src/bootstrap/ runs before the entry lands and starts requests through the code the entry takes them over with: ' +
        'no framework, no UI, no controller (shared chunks only: config, content, api, storage, core, the prefetch and engine choice of providers)',
      from: { path: '^src/bootstrap/' },
      to: { path: ['^src/(controller|features|ui|ads|analytics|telemetry)/', 'node_modules/(preact|@preact|hls\\.js)/'] },
    },
    {
      name: 'hls-js-in-the-hls-piece',
      severity: 'error',
      comment:
        'hls.js is imported only by the hls piece: providers/hls-engine.ts, its adapter providers/hls-internals.ts (the one module that uses hls.js internals), ' +
        'the loader, the ABR slot, and (types only) the load policies and the hold after a stall',
      from: { path: '^src/', pathNot: '^src/providers/(hls-engine|hls-internals|policy-abr|watched-loader|resume-hold|hls-load-policy)\\.ts$' },
      to: { path: '^node_modules/hls\\.js/' },
    },
    {
      name: 'hls-js-types-only',
      severity: 'error',
      comment: 'the load policies and the hold after a stall use only hls.js\'s types (its code is the engine\'s, the loader\'s, the ABR slot\'s and the adapter\'s)',
      from: { path: '^src/providers/(resume-hold|hls-load-policy)\\.ts$' },
      to: { path: '^node_modules/hls\\.js/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'hls-js-by-its-entry',
      severity: 'error',
      comment: 'hls.js is imported by its package entry (hls.js), never by a path into its sources or other builds (hls.js/src/…, hls.js/dist/…, hls.js/light)',
      from: { path: '^src/' },
      to: { path: '^node_modules/hls\\.js/', pathNot: '^node_modules/hls\\.js/dist/hls\\.js$' },
    },
    {
      name: 'not-in-a-layer',
      severity: 'error',
      comment: 'every file in src/ sits in a row of DESIGN.md "Layers" (add the folder to ROWS in .dependency-cruiser.cjs when DESIGN.md gets one)',
      from: { path: '^src/', pathNot: LAYERED },
      to: {},
    },
    {
      name: 'not-in-a-layer',
      severity: 'error',
      comment: 'every file in src/ sits in a row of DESIGN.md "Layers" (add the folder to ROWS in .dependency-cruiser.cjs when DESIGN.md gets one)',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERED },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles in src/ (type-only imports count)',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-not-to-tooling',
      severity: 'error',
      comment: 'src/ is the player; it never imports test/, server/, bench/, scripts/ or the build',
      from: { path: '^src/' },
      to: { path: '^(test|server|bench|scripts)/|^build\\.mjs$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'every import in src/ resolves (to a file, a package or a build alias listed in options.builtInModules)',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count (DESIGN.md: "type-only imports count").
    tsPreCompilationDeps: true,
    // Resolution as tsc does it: tsconfig paths, moduleResolution Bundler.
    tsConfig: { fileName: 'tsconfig.json' },
    // Build aliases (build.mjs `alias`, the widget-manifest plugin): external, like node: built-ins.
    // In tsconfig `paths` they point at src/react-shim.ts, node_modules/preact and
    // test/unit/virtual-pieces.ts, which the graph must not follow (virtual:pieces would look like src
    // importing test/).
    builtInModules: { add: ['react', 'react-dom', 'react/jsx-runtime', 'virtual:pieces'] },
    doNotFollow: { path: 'node_modules' },
    progress: { type: 'none' },
  },
};
