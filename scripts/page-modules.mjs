// The modules the page's two scripts share (build.mjs): the inline bootstrap runs them first and
// leaves them on the page; the entry takes them from there instead of carrying a second copy (4.5 kB
// brotli of the critical path, issue 26). The bootstrap's part: a virtual entry that sets them out in
// one array before it starts (bootstrapEntry). The entry's part: each shared module is a virtual
// module reading its exports from that array (takeOverPlugin). Only the names the entry imports are
// set out, so the bootstrap carries nothing neither script uses (api/catalog.ts is all exports).
//
// A page whose inline script did not run (a policy without its hash, a proxy that rewrote it) has no
// array: the entry then imports the same bootstrap as a file and evaluates itself again (`?again`),
// since modules evaluated without the array are unusable. One more round trip and a second download of
// the entry, for a deploy that is broken anyway; the page still plays.
import { dirname, join, relative } from 'node:path';

/** Where the bootstrap leaves the shared modules' exports. */
const KEY = "Symbol.for('player.page-modules')";

const resolveSource = (from, spec, files) => {
  if (!spec.startsWith('.')) return;
  const base = join(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => files.has(f));
};

/**
 * The shared modules and the names set out for the entry, in array order: [{ path, names }].
 * `build(options)`: esbuild's, with the build's options for one unsplit, unminified script (`base`);
 * `boot`, `main`: the two scripts' sources. Which names the entry uses, esbuild says: each candidate
 * module is replaced by one whose every value export is a pure call with its number, so what the
 * entry does not use (a type, an unused import) is tree-shaken and the numbers left are the names.
 */
export async function sharedModules(root, build, base, { boot, main }) {
  const inputs = async (entry) => Object.keys((await build({ ...base, entryPoints: [entry] })).metafile.inputs);
  const entryInputs = await inputs(main);
  const bootInputs = new Set(await inputs(boot));
  const candidates = entryInputs.filter((f) => f.startsWith('src/') && f !== boot && bootInputs.has(f));
  const exportsOf = Object.fromEntries(
    Object.values((await build({ ...base, entryPoints: candidates, splitting: true })).metafile.outputs)
      .filter((out) => out.entryPoint)
      .map((out) => [out.entryPoint, out.exports]),
  );
  const all = candidates.flatMap((path) => exportsOf[path].map((name) => ({ path, name })));
  const stand = (path) => all.flatMap((s, i) => (s.path === path ? [`export const ${s.name} = /* @__PURE__ */ take(${i});`] : [])).join('\n');
  const probe = {
    name: 'page-modules-probe',
    setup(b) {
      b.onResolve({ filter: /^page-modules:take$/ }, () => ({ path: 'take', namespace: 'page-modules-probe' }));
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const from = relative(root, args.importer);
        const path = !candidates.includes(from) && resolveSource(from, args.path, new Set(candidates));
        if (path) return { path, namespace: 'page-modules-probe' };
      });
      b.onLoad({ filter: /.*/, namespace: 'page-modules-probe' }, ({ path }) => ({
        contents: path === 'take' ? 'export function take(i) { return globalThis.probe[i]; }' : `import { take } from 'page-modules:take';\n${stand(path)}`,
        loader: 'js',
      }));
    },
  };
  const text = (await build({ ...base, entryPoints: [main], write: false, plugins: [probe, ...base.plugins] })).outputFiles.find((f) => f.path.endsWith('.js')).text;
  const used = new Set([...text.matchAll(/\btake\((\d+)\)/g)].map((m) => all[Number(m[1])]));
  const shared = candidates
    .map((path) => ({ path, names: all.filter((s) => s.path === path && used.has(s)).map((s) => s.name) }))
    .filter((s) => s.names.length);
  return { shared, entryInputs };
}

/** Each shared module's names with their places in the array: `s12 as name` (the slot's local name). */
const slotted = (shared) => {
  let next = 0;
  return shared.map(({ path, names }) => ({ path, slots: names.map((name) => ({ name, local: `s${next++}` })) }));
};

/**
 * The bootstrap's entry: sets the shared modules out, then starts (src/bootstrap/boot.ts `boot`);
 * neither when they are out already (the entry fell back to the file while the inline script ran late).
 */
export function bootstrapEntry(bootEntry, shared) {
  const modules = slotted(shared);
  const imports = modules.map(({ path, slots }) => `import { ${slots.map((s) => `${s.name} as ${s.local}`).join(', ')} } from './${path}';`);
  const array = modules.flatMap(({ slots }) => slots.map((s) => s.local)).join(', ');
  return [`import { boot } from './${bootEntry}';`, ...imports, `if (!globalThis[${KEY}]) { globalThis[${KEY}] = [${array}]; boot(); }`].join('\n');
}

/**
 * The entry's side: an import of a shared module from the entry's own code (`entryFiles`) resolves to
 * the bootstrap's instance. `bootFile`: the bootstrap as a file beside the entry, for a page without it.
 */
export function takeOverPlugin(root, shared, entryFiles, bootFile) {
  const modules = slotted(shared);
  const byPath = new Map(modules.map((m) => [m.path, m.slots]));
  const ownCode = new Set(entryFiles);
  return {
    name: 'page-modules',
    setup(b) {
      b.onResolve({ filter: /^page-modules:array$/ }, () => ({ path: 'array', namespace: 'page-modules' }));
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const from = relative(root, args.importer);
        if (!ownCode.has(from) || byPath.has(from)) return;
        const path = resolveSource(from, args.path, new Set(byPath.keys()));
        if (path) return { path, namespace: 'page-modules' };
      });
      b.onLoad({ filter: /.*/, namespace: 'page-modules' }, ({ path }) => {
        if (path !== 'array') {
          const own = byPath.get(path).map((s) => `${s.local} as ${s.name}`);
          return { contents: `export { ${own.join(', ')} } from 'page-modules:array';`, loader: 'js', resolveDir: root };
        }
        return {
          contents: [
            `const shared = globalThis[${KEY}];`,
            'if (!shared) {',
            // Evaluated again once the bootstrap has run: a second instance of this entry (its URL differs).
            "  if (!import.meta.url.endsWith('?again')) {",
            "    const again = () => import(new URL('?again', import.meta.url).href);",
            `    import(new URL('./${bootFile}', import.meta.url).href).then(again, again);`,
            '  }',
            "  throw new Error('the page\\'s inline bootstrap did not run (its policy hash?): the entry runs it from ' + " + JSON.stringify(bootFile) + ');',
            '}',
            `export const [${modules.flatMap(({ slots }) => slots.map((s) => s.local)).join(', ')}] = shared;`,
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}
