import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pieceChunks, pieceCss, pieceFiles, preloadedPieces } from 'virtual:pieces';
// @ts-expect-error: build.mjs is plain JS
import { FIRST_WAVE_MAX, options as buildOptions, staticClosure } from '../../../build.mjs';
// @ts-expect-error: plain JS
import { sizeConfig } from '../../../scripts/size-config.mjs';
import { createPieceLoader, preloadPieces } from '../../../src/core/pieces';
import type { PieceModules, PieceName } from '../../../src/core/player-api';
import type * as Ads from '../../../src/ads/ads-widget';
import type * as Analytics from '../../../src/analytics/analytics-widget';
import type * as Descriptor from '../../../src/content/descriptor';
import type * as Features from '../../../src/features/index';
import type * as AudioGain from '../../../src/providers/audio-gain';
import type * as Hls from '../../../src/providers/hls-engine';
import type * as Extras from '../../../src/providers/media-extras';
import type * as LaterRequests from '../../../src/controller/later-requests';
import type * as Cues from '../../../src/providers/text-cues';
import type * as Fingerprint from '../../../src/telemetry/fingerprint-widget';
import type * as Sentry from '../../../src/telemetry/sentry-widget';
import type * as Controls from '../../../src/ui/controls-widget';

/**
 * Type-level conformance: each real piece module satisfies its contract in PieceModules, so the
 * loader's callers and the modules cannot drift apart (typecheck fails). The mapped type makes the
 * list total: a new piece in pieces.json needs its line here. vpaid is a page script (dist/vpaid.html)
 * with no exports and no module contract.
 */
const conformance: { [K in Exclude<PieceName, 'vpaid'>]: PieceModules[K] } = {
  hls: {} as typeof Hls,
  controls: {} as typeof Controls,
  features: {} as typeof Features,
  'audio-gain': {} as typeof AudioGain,
  cues: {} as typeof Cues,
  descriptor: {} as typeof Descriptor,
  ads: {} as typeof Ads,
  extras: {} as typeof Extras,
  requests: {} as typeof LaterRequests,
  analytics: {} as typeof Analytics,
  sentry: {} as typeof Sentry,
  fingerprint: {} as typeof Fingerprint,
};

type Entry = { entry: string; budget: string; preload?: boolean; stylesheet?: boolean; page?: boolean; about: string };
const root = new URL('../../../', import.meta.url);
const registry: Record<string, Entry> = JSON.parse(readFileSync(new URL('src/core/pieces.json', root), 'utf8'));
const sizeLimit: Array<{ name: string; path: string | string[]; limit: string; brotli?: boolean }> = JSON.parse(
  readFileSync(new URL('size-limit.json', root), 'utf8'),
);

test('every piece of the registry but the vpaid page has its module contract checked above', () => {
  assert.equal(Object.keys(conformance).sort(), Object.keys(registry).filter((n) => n !== 'vpaid').sort());
  assert.ok(registry.vpaid.page, 'vpaid is the page script');
});

test('the build makes one entry per piece, named by the piece: dist/NAME-HASH.js', () => {
  const opts = buildOptions({}, {});
  assert.is(opts.entryNames, '[name]-[hash]');
  // The bootstrap is not one: the page carries it inline, built apart (build.mjs inlineBootstrap).
  // The token refresh is a file of its own the page's scripts import once a token has expired.
  const { main, refresh, ...pieces } = opts.entryPoints as Record<string, string>;
  assert.is(main, 'src/main.tsx');
  assert.is(refresh, 'src/api/refresh.ts');
  assert.equal(pieces, Object.fromEntries(Object.entries(registry).map(([name, p]) => [name, p.entry])));
  for (const [name, p] of Object.entries(registry)) assert.ok(readFileSync(new URL(p.entry, root)), `${name}: ${p.entry} exists`);
});

test('every piece has its budget in size-limit.json: dist/NAME-*.js (and .css with a stylesheet) at the registry budget', () => {
  for (const [name, p] of Object.entries(registry)) {
    const js = `dist/${name}-*.js`;
    const entries = sizeLimit.filter((e) => ([] as string[]).concat(e.path).includes(js));
    assert.is(entries.length, 1, `${name}: one size-limit entry for ${js}`);
    const [e] = entries;
    assert.is(e.limit, p.budget, `${name}: limit ${e.limit}, budget ${p.budget}`);
    assert.is(([] as string[]).concat(e.path).includes(`dist/${name}-*.css`), !!p.stylesheet, `${name}: its stylesheet weighed with it`);
    assert.ok(e.brotli, `${name}: brotli`);
  }
  const pieceless = sizeLimit.filter((e) => !Object.keys(registry).some((name) => ([] as string[]).concat(e.path).includes(`dist/${name}-*.js`)));
  assert.equal(
    pieceless.map((e) => e.path),
    ['.size/critical/*', '.size/bootstrap/*', '.size/shared/*', 'dist/embed.mjs', 'dist/embed.js'],
    'no budget for a piece that is gone: only the critical path, the bootstrap within it, the shared lazy chunks and the partner SDK (scripts/size-config.mjs) are not pieces',
  );
});

test('size-limit.json is exactly what scripts/size-config.mjs writes from the registry', () => {
  assert.equal(sizeLimit, sizeConfig(registry), 'run `node scripts/size-config.mjs` after changing src/core/pieces.json');
});

const BASE = 'https://cdn.example/player/';

/** A fake import(): records URLs, answers each with a module or an error, settled when the test says. */
function fakeImport() {
  const urls: string[] = [];
  const pending: Array<{ resolve(m: unknown): void; reject(e: unknown): void }> = [];
  const importModule = (url: string) => {
    urls.push(url);
    return new Promise((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { urls, importModule, pending };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('the page\'s first wave is three files: a piece copies the small modules it shares with the entry', async () => {
  // HTTP/1.1 gives a host six connections; the entry, its chunks and the stylesheet are asked at
  // once, and the bootstrap's requests (episodes, ad list, hls.js) should find connections free.
  const result = await esbuild.build({ ...buildOptions({}, {}), sourcemap: false, logLevel: 'silent' });
  const outputs = result.metafile!.outputs;
  const out = (entry: string) => Object.keys(outputs).find((f) => outputs[f].entryPoint === entry)!;
  const closure = (f: string): Set<string> => new Set(staticClosure(result.metafile, f));
  // An empty chunk (every export inlined) is dropped by the build, its import blanked out.
  const page = new Set([...closure(out('src/main.tsx'))].filter((f) => outputs[f].bytes > 0));
  assert.ok(page.size + 1 <= FIRST_WAVE_MAX, `scripts and chunks ${[...page].join(', ')} and the stylesheet`);
  // The entry and one chunk (@preact/signals-core, which the pieces share as one instance; preact itself loads with them).
  assert.is(page.size, 2, `the entry and its chunks: ${[...page].join(', ')}`);
  // The features piece reads the viewer's memory and progress as the entry does, from copies of its own.
  const features = closure(out(registry.features.entry));
  const inputs = (files: Set<string>) => [...files].flatMap((f) => Object.keys(outputs[f].inputs));
  assert.ok(inputs(page).includes('src/storage/memory.ts'), "the page has the viewer's memory");
  assert.equal(inputs(page).filter((i) => i.includes('node_modules/preact/')), [], 'preact loads with the pieces that render with it, not in the first wave');
  assert.ok(inputs(features).some((i) => i.startsWith('src/storage/memory.ts?copy=')), 'the features piece has its copy');
  assert.not.ok(
    [...features].some((f) => page.has(f) && Object.keys(outputs[f].inputs).includes('src/storage/local.ts')),
    'and does not import the page\'s chunk for it',
  );
});

test('createPieceLoader: the exact URL the HTML preloads, NAME-HASH.js?widget=NAME under the asset base', async () => {
  Object.assign(pieceFiles, { hls: 'H4SH1', 'audio-gain': 'G41N' });
  try {
    const f = fakeImport();
    const load = createPieceLoader(BASE, f.importModule);
    void load('hls');
    void load('audio-gain');
    assert.equal(f.urls, [`${BASE}hls-H4SH1.js?widget=hls`, `${BASE}audio-gain-G41N.js?widget=audio-gain`]);
    // The build's preload href is `${outputs[name]}?widget=${name}`, and outputs are entryNames '[name]-[hash]'.
    assert.is(f.urls[0], `${BASE}${'[name]-[hash]'.replace('[name]', 'hls').replace('[hash]', pieceFiles.hls)}.js?widget=hls`);
  } finally {
    delete pieceFiles.hls;
    delete pieceFiles['audio-gain'];
  }
});

test('createPieceLoader: imports once per name for every caller, before and after it arrived', async () => {
  const f = fakeImport();
  const load = createPieceLoader(BASE, f.importModule);
  const first = load('features');
  const second = load('features');
  assert.is(f.urls.length, 1);
  const mod = { attachFeatures: () => () => {} };
  f.pending[0].resolve(mod);
  assert.is(await first, mod);
  assert.is(await second, mod);
  assert.is(await load('features'), mod);
  assert.is(f.urls.length, 1, 'no second import');
  void load('cues');
  assert.is(f.urls.length, 2, 'another name is its own import');
});

test('createPieceLoader: a failed import fails every waiting caller, and the next call tries again', async () => {
  const f = fakeImport();
  const load = createPieceLoader(BASE, f.importModule);
  const a = load('extras');
  const b = load('extras');
  f.pending[0].reject(new TypeError('Failed to fetch dynamically imported module'));
  const errors = await Promise.all([a.catch((e: Error) => e.message), b.catch((e: Error) => e.message)]);
  assert.equal(errors, ['Failed to fetch dynamically imported module', 'Failed to fetch dynamically imported module']);
  const again = load('extras');
  assert.is(f.urls.length, 2, 'tried again');
  const mod = { bindExtras: () => ({}) };
  f.pending[1].resolve(mod);
  assert.is(await again, mod);
  assert.is(await load('extras'), mod);
  assert.is(f.urls.length, 2, 'and kept once it arrived');
});

type Link = { rel?: string; href?: string; as?: string; onload?: () => void; onerror?: () => void };

/** A document whose <head> records the links appended to it; restore() puts the real one back. */
function fakeHead() {
  const g = globalThis as Record<string, unknown>;
  const saved = g.document;
  const links: Link[] = [];
  g.document = { createElement: () => ({}), head: { appendChild: (l: Link) => links.push(l) } };
  return { links, restore: () => void (g.document = saved) };
}

test('createPieceLoader: a piece with a stylesheet resolves once its sheet is in (or failed), never before', async () => {
  const { links, restore } = fakeHead();
  Object.assign(pieceFiles, { controls: 'C0N7' });
  Object.assign(pieceCss, { controls: 'controls-C55.css' });
  try {
    const f = fakeImport();
    const load = createPieceLoader(BASE, f.importModule);
    let done: unknown;
    void load('controls').then((m) => (done = m));
    assert.equal(f.urls, [`${BASE}controls-C0N7.js?widget=controls`]);
    assert.is(links.length, 1);
    assert.is(links[0].rel, 'stylesheet');
    assert.is(links[0].href, `${BASE}controls-C55.css`);
    const mod = { mountChrome: () => () => {} };
    f.pending[0].resolve(mod);
    await tick();
    assert.is(done, undefined, 'the module is in, the sheet is not: not yet');
    links[0].onload!();
    await tick();
    assert.is(done, mod);
    assert.is(links.length, 1, 'the sheet is linked once');

    const other = createPieceLoader(BASE, f.importModule);
    let second: unknown;
    void other('controls').then((m) => (second = m));
    f.pending[1].resolve(mod);
    links[1].onerror!();
    await tick();
    assert.is(second, mod, 'a sheet that failed does not hold the piece back');
    void other('hls');
    assert.is(links.length, 2, 'a piece without a stylesheet links none');
  } finally {
    restore();
    delete pieceFiles.controls;
    delete pieceCss.controls;
    delete pieceFiles.hls;
  }
});

test('createPieceLoader: the chunks a piece imports that the HTML does not preload are preloaded with it, the way it imports them', async () => {
  const { links, restore } = fakeHead();
  Object.assign(pieceFiles, { ads: 'AD5' });
  Object.assign(pieceChunks, { ads: ['SH4RED', 'OTH3R'] });
  try {
    const f = fakeImport();
    const load = createPieceLoader(BASE, f.importModule);
    void load('ads');
    void load('ads');
    assert.equal(f.urls, [`${BASE}ads-AD5.js?widget=ads`]);
    // The piece's own `import "./chunk-HASH.js"` resolves against its URL, the asset base: the same module.
    assert.equal(links, [
      { rel: 'modulepreload', href: new URL('./chunk-SH4RED.js', f.urls[0]).href },
      { rel: 'modulepreload', href: new URL('./chunk-OTH3R.js', f.urls[0]).href },
    ]);
    void load('cues');
    assert.is(links.length, 2, 'a piece without such chunks preloads none');
  } finally {
    restore();
    delete pieceFiles.ads;
    delete pieceChunks.ads;
  }
});

test('preloadPieces: the bootstrap downloads each `preload` piece under the URL the loader imports, its chunks and sheet too, without running it', () => {
  const registry = JSON.parse(readFileSync('src/core/pieces.json', 'utf8')) as Record<string, { preload?: boolean }>;
  const marked = Object.keys(registry).filter((n) => registry[n].preload);
  assert.ok(marked.includes('hls'), 'hls.js is preloaded at start (pieces.json)');
  const { links, restore } = fakeHead();
  preloadedPieces.push('hls', 'controls');
  Object.assign(pieceFiles, { hls: 'H4SH1', controls: 'C0N7' });
  Object.assign(pieceChunks, { hls: ['SH4RED'] });
  Object.assign(pieceCss, { controls: 'controls-S7YL.css' });
  try {
    const imported: string[] = [];
    preloadPieces(BASE);
    assert.equal(links, [
      { rel: 'modulepreload', href: `${BASE}chunk-SH4RED.js` },
      { rel: 'modulepreload', href: `${BASE}hls-H4SH1.js?widget=hls` },
      { rel: 'modulepreload', href: `${BASE}controls-C0N7.js?widget=controls` },
      { rel: 'preload', href: `${BASE}controls-S7YL.css`, as: 'style' },
    ]);
    // The loader's import is the very URL preloaded: the browser's module map downloads it once.
    void createPieceLoader(BASE, (url) => (imported.push(url), Promise.resolve({})))('hls');
    assert.equal(imported, [`${BASE}hls-H4SH1.js?widget=hls`]);
  } finally {
    restore();
    preloadedPieces.length = 0;
    delete pieceFiles.hls;
    delete pieceFiles.controls;
    delete pieceChunks.hls;
    delete pieceCss.controls;
  }
});

test.run();
