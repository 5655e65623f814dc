// Builds the player: the critical-path entry (main) plus lazy pieces (src/core/pieces.json), each its
// own ES module that the entry imports at run time from the player-asset path with ?widget=NAME
// (SPEC §2).
//
// esbuild cannot tell the entry the hashed file names of the other entry points, so the build runs
// twice: pass 1 learns the piece file names, pass 2 bakes them into the entry (virtual:pieces).
// Piece and shared-chunk contents do not depend on that constant, so their names stay the same;
// the build checks it.
import * as esbuild from 'esbuild';
import { mkdir, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { readPlayerConfig, withConfig } from './scripts/player-config.mjs';
import { configuredNginxConf, playerPolicy as deployedPolicy } from './scripts/nginx-conf.mjs';
import { bootstrapEntry, sharedModules, takeOverPlugin } from './scripts/page-modules.mjs';

const root = dirname(fileURLToPath(import.meta.url));
// DIST_DIR lets several builds (parallel test runs) live side by side; size-limit reads the default.
const dist = process.env.DIST_DIR ? resolve(process.env.DIST_DIR) : join(root, 'dist');
const sizeDir = process.env.DIST_DIR ? join(dist, '..', basename(dist) + '.size') : join(root, '.size');

/** Lazy pieces: name → { entry, preload, stylesheet, budget }; the name is the `widget` query value. */
export const PIECES = JSON.parse(await readFile(join(root, 'src/core/pieces.json'), 'utf8'));
const ENTRIES = Object.fromEntries(Object.entries(PIECES).map(([name, p]) => [name, p.entry]));
/**
 * The page's own scripts: the bootstrap (inline in the HTML, starts the requests: inlineBootstrap,
 * built apart) and the entry (an entry point of the split build). What the two share is in the
 * bootstrap alone, which leaves it on the page for the entry (scripts/page-modules.mjs).
 */
const PAGE = { boot: 'src/bootstrap/boot.ts', main: 'src/main.tsx' };
/**
 * What the page's scripts import at run time, files of the split build: the token refresh (needed once
 * a token lifetime, api/auth.ts). The inline bootstrap imports them by file name (lazyPageFiles).
 */
const LAZY_PAGE = { refresh: 'src/api/refresh.ts' };
/** Pieces the bootstrap preloads (core/pieces.ts preloadPiece): needed right after the entry, so they download in parallel with it. */
const PRELOADED = Object.keys(PIECES).filter((name) => PIECES[name].preload);

// Components are written against React; the build runs them on preact/compat (DESIGN "Code habits").
const alias = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
};

/**
 * Small modules without shared state that the page's scripts and lazy pieces both import. esbuild
 * splits code by which entry points reach it, so each of them became a chunk of its own in the page's
 * first wave: nine files there, against the six connections HTTP/1.1 gives a host; the bootstrap's
 * requests then waited for the entry's files to free one, and the ad's media shared the bandwidth with
 * hls.js, asked late (Fast 3G waterfalls, docs/performance.md). A piece imports its own copy instead
 * (as webpack's splitChunks minSize does for small modules): a few hundred bytes more in lazy pieces,
 * three files fewer before the first frame. Only modules whose copies may live side by side (errors
 * and timeouts are told by name, not class; the viewer's memory is one record on the global object).
 */
const COPIED_INTO_PIECES = new Set(['src/core/errors.ts', 'src/core/deadline.ts', 'src/storage/memory.ts', 'src/core/memory-protocol.ts', 'src/storage/cookies.ts', 'src/content/progress.ts', 'src/config/embedding-address.ts', 'src/content/audio-choice.ts', 'src/controller/fullscreen.ts', 'src/storage/start-memory.ts', 'src/i18n/ru.ts', 'src/core/tracks.ts']);
/** What the page's first wave may hold (scripts, stylesheet, modulepreloads): one HTTP/1.1 host's connections. */
export const FIRST_WAVE_MAX = 6;

/**
 * Resolves a piece's import of a COPIED_INTO_PIECES module to a copy of its own (one per importing
 * folder: a suffix makes it another module to esbuild). Imports from code the page's scripts reach
 * keep the one module.
 */
function copyIntoPieces(pageOptions) {
  const skip = {};
  const copied = {};
  return {
    name: 'copy-into-pieces',
    setup(b) {
      let reached;
      const pageFiles = () => (reached ??= esbuild.build(pageOptions()).then((r) => new Set(Object.keys(r.metafile.inputs))));
      b.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === skip || !args.importer.startsWith(join(root, 'src'))) return;
        // A copy's own imports are a piece's too (the copy's importer path is the page module's).
        if (args.pluginData !== copied && (await pageFiles()).has(relative(root, args.importer))) return;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: skip });
        if (found.errors.length || !COPIED_INTO_PIECES.has(relative(root, found.path))) return;
        return { path: found.path, suffix: `?copy=${relative(root, args.resolveDir)}` };
      });
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.suffix.startsWith('?copy=')) return;
        return { contents: await readFile(args.path, 'utf8'), loader: 'ts', pluginData: copied };
      });
    },
  };
}

/** esbuild options of the player build; tests build with the same ones. */
export function options(widgetMap, cssMap = {}, chunkMap = {}, takeOver) {
  const o = {
    absWorkingDir: root,
    entryPoints: { main: PAGE.main, ...LAZY_PAGE, ...ENTRIES },
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    // Native class fields (every browser with MSE has them): lowered, they need a runtime helper that
    // esbuild puts in a chunk shared by every entry once two lazy pieces use it, the entry included.
    supported: { 'class-field': true },
    minify: true,
    sourcemap: 'external',
    metafile: true,
    write: false,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    jsxImportSource: 'react',
    alias,
    legalComments: 'none',
    charset: 'utf8',
    define: {
      'process.env.NODE_ENV': '"production"',
    },
    logLevel: 'warning',
    plugins: [pieceManifest(widgetMap, cssMap, chunkMap)],
  };
  // The files the page's scripts reach: what may not be copied (a bundle of bootstrap and entry only).
  const manifestOnly = o.plugins;
  const pageOptions = () => ({ ...o, entryPoints: PAGE, splitting: false, minify: false, sourcemap: false, plugins: manifestOnly });
  o.plugins = [...(takeOver ? [takeOver] : []), ...manifestOnly, copyIntoPieces(pageOptions)];
  return o;
}

/** `import { pieceFiles } from 'virtual:pieces'`: the hashed file name of each lazy piece, its stylesheet, its chunks. */
function pieceManifest(map, cssMap, chunkMap) {
  return {
    name: 'piece-manifest',
    setup(b) {
      b.onResolve({ filter: /^virtual:pieces$/ }, () => ({ path: 'pieces', namespace: 'virtual' }));
      b.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({
        contents: `export const pieceFiles = ${JSON.stringify(map)}; export const pieceCss = ${JSON.stringify(cssMap)}; export const pieceChunks = ${JSON.stringify(chunkMap)}; export const preloadedPieces = ${JSON.stringify(PRELOADED)};`,
        loader: 'js',
      }));
    },
  };
}

/** entry name → output file name (relative to dist), from a metafile */
function entryOutputs(metafile) {
  const byEntry = {};
  for (const [file, out] of Object.entries(metafile.outputs)) {
    if (!out.entryPoint || file.endsWith('.map')) continue;
    const name = Object.entries({ ...PAGE, ...LAZY_PAGE, ...ENTRIES }).find(([, src]) => src === out.entryPoint)?.[0];
    if (name) byEntry[name] = relative(dist, join(root, file));
  }
  return byEntry;
}

/** piece name → its CSS bundle (relative to dist), for pieces that import CSS */
function widgetCssFiles(metafile) {
  const css = {};
  for (const [file, out] of Object.entries(metafile.outputs)) {
    const name = Object.entries(ENTRIES).find(([, src]) => src === out.entryPoint)?.[0];
    if (name && out.cssBundle && !file.endsWith('.map')) css[name] = relative(dist, join(root, out.cssBundle));
  }
  return css;
}

/**
 * esbuild leaves an empty chunk behind when every export of a shared module is inlined (constants),
 * and the entry still imports it: one more request on the critical path for nothing. The import is
 * blanked out with spaces of the same length, so source maps stay exact, and the chunk is dropped.
 */
function dropEmptyChunks(result) {
  const empty = result.outputFiles.filter((f) => f.path.endsWith('.js') && !f.text.trim());
  if (!empty.length) return;
  const names = empty.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1));
  const dead = new RegExp(`import\\s*"\\./(${names.map((n) => n.replace(/[.]/g, '\\.')).join('|')})";`, 'g');
  result.outputFiles = result.outputFiles
    .filter((f) => !empty.includes(f) && !names.some((n) => f.path.endsWith('/' + n + '.map')))
    .map((f) => {
      if (!f.path.endsWith('.js') || !dead.test(f.text)) return f;
      const text = f.text.replace(dead, (m) => ' '.repeat(m.length));
      return { path: f.path, contents: new TextEncoder().encode(text), text };
    });
  for (const out of Object.values(result.metafile.outputs)) {
    out.imports = (out.imports ?? []).filter((i) => !names.some((n) => i.path.endsWith('/' + n)));
  }
  for (const key of Object.keys(result.metafile.outputs)) {
    if (names.some((n) => key.endsWith('/' + n) || key.endsWith('/' + n + '.map'))) delete result.metafile.outputs[key];
  }
}

/** Every JS file an output imports statically, transitively (what loads before it can run). */
export function staticClosure(metafile, file) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const imp of metafile.outputs[f]?.imports ?? []) if (imp.kind === 'import-statement') visit(imp.path);
  };
  visit(file);
  return [...seen];
}

/**
 * piece name → the hashes of the chunks it imports statically (chunk-HASH.js) that the HTML does not
 * already preload, for pieces that have any. The loader preloads them with the piece: otherwise the
 * browser finds them only once the piece has arrived, one round trip later.
 */
function pieceChunkMap(metafile, outputs) {
  const file = (name) => Object.keys(metafile.outputs).find((f) => relative(dist, join(root, f)) === outputs[name]);
  const inHtml = new Set(staticClosure(metafile, file('main')));
  const map = {};
  for (const name of Object.keys(PIECES)) {
    const own = staticClosure(metafile, file(name)).filter((f) => f !== file(name) && !inHtml.has(f));
    if (own.length) map[name] = own.map((f) => basename(f).match(/^chunk-(\w+)\.js$/)[1]);
  }
  return map;
}

/**
 * The bootstrap as the page carries it: one module with everything it imports bundled in (an import
 * would be a round trip before its first request: the one the inline form removes), minified, as text
 * for a `<script type="module">`. It sets out the modules it shares with the entry for the entry to
 * take (scripts/page-modules.mjs `shared`), then starts.
 */
export async function inlineBootstrap(widgetMap, cssMap, chunkMap, shared, lazyFiles) {
  const o = options(widgetMap, cssMap, chunkMap);
  // import('./refresh') in api/auth.ts: the split build's file, beside the page (as the entry is).
  const lazyPageFiles = {
    name: 'lazy-page-files',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== 'dynamic-import') return;
        const name = Object.keys(LAZY_PAGE).find((k) => join(root, LAZY_PAGE[k]) === join(args.resolveDir, args.path) + '.ts');
        if (name) return { path: `./${lazyFiles[name]}`, external: true };
      });
    },
  };
  const stdin = { contents: bootstrapEntry(PAGE.boot, shared), resolveDir: root, sourcefile: 'page-bootstrap.js', loader: 'js' };
  const r = await esbuild.build({ ...o, entryPoints: undefined, stdin, outdir: undefined, outfile: join(dist, 'boot.js'), splitting: false, sourcemap: false, metafile: false, plugins: [lazyPageFiles, pieceManifest(widgetMap, cssMap, chunkMap)] });
  const text = r.outputFiles.find((f) => f.path.endsWith('.js')).text.trimEnd();
  // The HTML parser ends a script at `</script` and treats `<!--` specially inside one.
  if (/<\/script|<!--/i.test(text)) throw new Error('the bootstrap\'s code contains </script or <!--: it cannot be inlined as is');
  return text;
}

/**
 * The modules both page scripts run (scripts/page-modules.mjs), from what each one's bundle holds;
 * and the entry's own files (whose imports of them the entry's build redirects).
 */
export async function pageModules() {
  const base = { ...options({}), splitting: false, minify: false, sourcemap: false, write: false, plugins: [pieceManifest({}, {}, {})] };
  const { shared, entryInputs } = await sharedModules(root, esbuild.build, base, PAGE);
  return { shared, takeOver: (bootFile) => takeOverPlugin(root, shared, entryInputs, bootFile) };
}

/** The CSP source that admits exactly this inline script: `'sha256-BASE64'` of its UTF-8 bytes. */
export const scriptHash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const escapeAttribute = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Where the build writes the hashes of the page's inline scripts (read by server/player.mjs). */
export const CSP_MANIFEST = 'player.csp.json';

async function build() {
  const { shared, takeOver } = await pageModules();
  const first = await esbuild.build(options({}, {}, {}, takeOver('boot.js')));
  dropEmptyChunks(first);
  const widgetFiles = entryOutputs(first.metafile);
  // Only the hash of each name goes into the entry: the loader puts `NAME-` and `.js` around it.
  const widgetMap = Object.fromEntries(Object.keys(PIECES).map((k) => [k, widgetFiles[k].slice(k.length + 1, -3)]));
  // A piece's own stylesheet (kept off the critical CSS) is linked by the loader before it resolves.
  const cssMap = widgetCssFiles(first.metafile);
  for (const [name, piece] of Object.entries(PIECES)) {
    if (!!piece.stylesheet !== !!cssMap[name]) throw new Error(`piece ${name}: "stylesheet" in src/core/pieces.json says ${!!piece.stylesheet}, the build says ${!!cssMap[name]}`);
  }
  const chunkMap = pieceChunkMap(first.metafile, widgetFiles);
  // The bootstrap, inline in the page and as a file beside the entry for a page where it did not run.
  const bootText = await inlineBootstrap(widgetMap, cssMap, chunkMap, shared, widgetFiles);
  const bootFile = `boot-${createHash('sha256').update(bootText).digest('hex').slice(0, 8).toUpperCase()}.js`;
  const result = await esbuild.build(options(widgetMap, cssMap, chunkMap, takeOver(bootFile)));
  const outputs = entryOutputs(result.metafile);
  const cssAgain = widgetCssFiles(result.metafile);
  for (const k of Object.keys(cssMap)) {
    if (cssAgain[k] !== cssMap[k]) throw new Error(`piece ${k} css changed name between passes`);
  }
  for (const k of [...Object.keys(PIECES), ...Object.keys(LAZY_PAGE)]) {
    if (outputs[k] !== widgetFiles[k]) throw new Error(`piece ${k} changed name between passes: ${widgetFiles[k]} -> ${outputs[k]}`);
  }

  dropEmptyChunks(result);
  if (JSON.stringify(pieceChunkMap(result.metafile, outputs)) !== JSON.stringify(chunkMap)) throw new Error(`piece chunks changed between passes: ${JSON.stringify(chunkMap)} -> ${JSON.stringify(pieceChunkMap(result.metafile, outputs))}`);

  await rm(dist, { recursive: true, force: true });
  await rm(sizeDir, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  for (const f of result.outputFiles) {
    await mkdir(dirname(f.path), { recursive: true });
    await writeFile(f.path, f.contents);
  }
  await writeFile(join(dist, bootFile), bootText);

  const rel = (p) => relative(dist, join(root, p));
  const mainOut = Object.keys(result.metafile.outputs).find((f) => rel(f) === outputs.main);
  // The entry and every chunk it imports: what the first frame waits for (with the page).
  const critical = staticClosure(result.metafile, mainOut);
  const css = result.metafile.outputs[mainOut].cssBundle;

  // modulepreload: the entry's static chunks (no import waves). The chunks the split build's bootstrap
  // shares with the entry first, as when the bootstrap was a file of its own. The preloaded pieces
  // (hls.js) are not here: the bootstrap asks for them once its own requests are out (DESIGN
  // "critical path" #1).
  const chunks = critical.filter((f) => f !== mainOut);
  const firstWave = [rel(css), outputs.main, ...chunks];
  if (firstWave.length > FIRST_WAVE_MAX) {
    const importers = (f) => Object.keys(result.metafile.outputs).filter((g) => result.metafile.outputs[g].imports?.some((i) => i.path === f)).map(rel);
    const detail = chunks.map((f) => `${rel(f)} (${Object.keys(result.metafile.outputs[f].inputs).join(', ')}; imported by ${importers(f).join(', ')})`);
    throw new Error(`the page's first wave is ${firstWave.length} files, more than ${FIRST_WAVE_MAX} (HTTP/1.1 connections a host): a lazy piece now shares a module with the page's scripts? COPIED_INTO_PIECES in build.mjs lists what pieces copy.\n  ${detail.join('\n  ')}`);
  }
  // The deploy's configuration (PLAYER_CONFIG file, ENV_BASE_URL etc.): a static host needs no edit.
  const config = readPlayerConfig(process.env);
  // The policy the page runs under, pinned to this bootstrap: in the page (a static host that cannot
  // set headers), in the nginx conf, and for the reference server (CSP_MANIFEST). A meta policy cannot
  // carry report-uri or frame-ancestors; the deploy policy has neither.
  const hashes = [scriptHash(bootText)];
  const policy = deployedPolicy(config, hashes);
  let html = await readFile(join(root, 'static/player.html'), 'utf8');
  const put = (marker, text) => {
    if (!html.includes(marker)) throw new Error(`static/player.html has no ${marker}`);
    html = html.replace(marker, () => text);
  };
  put('<!-- policy -->', `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`);
  put('href="./main.js"', `href="./${outputs.main}"`);
  put('src="./main.js"', `src="./${outputs.main}"`);
  put('href="./main.css"', `href="./${rel(css)}"`);
  put('<!-- preloads -->', chunks.map((p) => `<link rel="modulepreload" href="./${rel(p)}">`).join('\n    '));
  // The template's comments are for its readers, not bytes for every viewer; empty markers go too.
  html = html.replace(/\n\s*<!--[\s\S]*?-->|\n\s*(?=\n)/g, '');
  // After #root (it reads the configuration there), `async`: a module script without it waits for
  // every stylesheet still loading (the HTML spec's deferred scripts), the entry's CSS included: a
  // round trip before the first request, the one inlining removes.
  put('<script type="module" src="./boot.js"></script>', `<script type="module" async>${bootText}</script>`);
  html = withConfig(html, config);
  await writeFile(join(dist, 'player.html'), html);
  await writeFile(join(dist, CSP_MANIFEST), JSON.stringify({ scriptHashes: hashes, metaPolicy: policy }, null, 2) + '\n');
  // deploy/nginx.conf with this configuration's policy, beside dist/ (not in it: it is not to be served).
  await writeFile(`${dist}.nginx.conf`, configuredNginxConf(config, hashes));
  const vpaidHtml = await readFile(join(root, 'src/ads/vpaid-frame.html'), 'utf8');
  await writeFile(join(dist, 'vpaid.html'), vpaidHtml.replace('src="./vpaid.js"', `src="./${outputs.vpaid}"`));
  for (const f of await readdir(join(root, 'static'))) {
    if (f !== 'player.html') await copyFile(join(root, 'static', f), join(dist, f));
  }

  // What the viewer waits for before the first frame, copied apart so size-limit can weigh exactly it:
  // the page (its inline bootstrap included), the entry with its chunks, the stylesheet.
  await mkdir(join(sizeDir, 'critical'), { recursive: true });
  for (const f of [...critical, css]) await copyFile(join(root, f), join(sizeDir, 'critical', rel(f)));
  await writeFile(join(sizeDir, 'critical', 'player.html'), html);
  // And what the first request waits for: the page's inline bootstrap.
  await mkdir(join(sizeDir, 'bootstrap'), { recursive: true });
  await writeFile(join(sizeDir, 'bootstrap', 'boot.js'), bootText);
  // And the chunks only lazy pieces import (Preact's, the ones two pieces share), weighed once
  // whichever piece asks first: no piece's budget counts them.
  await mkdir(join(sizeDir, 'shared'), { recursive: true });
  for (const f of Object.keys(result.metafile.outputs)) {
    if (/^chunk-.*\.js$/.test(rel(f)) && !critical.includes(f)) await copyFile(join(root, f), join(sizeDir, 'shared', rel(f)));
  }

  await buildEmbedSdk();
  await compressAll(dist);
  await writeFile(join(sizeDir, 'meta.json'), JSON.stringify(result.metafile));
  const kb = (n) => (n / 1024).toFixed(1) + ' kB';
  const critBytes = [...critical, css].reduce((n, f) => n + result.metafile.outputs[f].bytes, Buffer.byteLength(html));
  console.log(`built player.html (bootstrap inline, ${kb(Buffer.byteLength(bootText))}, ${hashes[0]}) + ${outputs.main} (+${critical.length - 1} chunks, ${rel(css)}): critical path ${kb(critBytes)} minified`);
  if (Object.keys(config).length) console.log(`player.html configured with ${Object.keys(config).join(', ')}`);
}

/**
 * The partner SDK (docs/embedding.md "Partner SDK"), a bundle apart from the player: dist/embed.mjs (ES module),
 * dist/embed.js (classic script, window.EmbedPlayer) and their types. Stable names, not hashed:
 * partners link them by address, so they are served with `no-cache`.
 */
async function buildEmbedSdk() {
  const common = { absWorkingDir: root, bundle: true, platform: 'browser', target: 'es2020', minify: true, legalComments: 'none', charset: 'utf8', logLevel: 'warning' };
  await esbuild.build({ ...common, entryPoints: ['src/embed/module.ts'], outfile: join(dist, 'embed.mjs'), format: 'esm' });
  await esbuild.build({ ...common, entryPoints: ['src/embed/classic.ts'], outfile: join(dist, 'embed.js'), format: 'iife', globalName: 'EmbedPlayer' });
  for (const name of ['embed.d.ts', 'embed.d.mts']) await copyFile(join(root, 'src/embed/embed.d.ts'), join(dist, name));
}

async function compressAll(dir) {
  for (const f of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, f.name);
    if (f.isDirectory()) await compressAll(p);
    // Source maps are for people debugging, who need no pre-compressed copy (and it cost ~10 s a build).
    else if (/\.(m?js|css|html|json|svg|vtt)$/.test(f.name)) {
      const buf = await readFile(p);
      await writeFile(p + '.br', brotliCompressSync(buf, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      await writeFile(p + '.gz', gzipSync(buf, { level: 9 }));
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  build().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
