// The typed calls of every SPEC §7 endpoint live in src/api/, but the player bundle must carry only
// the ones it calls. This builds the page's scripts the way build.mjs does and reads what the viewer
// downloads before the first frame (the inline bootstrap, the entry and the chunks it imports statically).
import * as esbuild from 'esbuild';
// @ts-expect-error: build.mjs is plain JS
import { options as buildOptions, inlineBootstrap, pageModules } from '../../../build.mjs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

async function criticalJs(): Promise<string> {
  // The build's own options (aliases, defines, widget manifest, the modules the entry takes from the
  // bootstrap), with the entry alone.
  const { shared, takeOver } = await pageModules();
  const boot: string = await inlineBootstrap({}, {}, {}, shared, { refresh: 'refresh.js' });
  const result = await esbuild.build({ ...buildOptions({}, {}, {}, takeOver('boot.js')), entryPoints: { main: 'src/main.tsx' }, sourcemap: false, logLevel: 'silent' });
  const outputs = result.metafile!.outputs;
  const main = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'src/main.tsx')!;
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const i of outputs[f].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(main);
  return [boot, ...result.outputFiles!.filter((f) => [...seen].some((s) => f.path.endsWith(s))).map((f) => f.text)].join('\n');
}

test('the entry carries the calls the player makes and none of the other SPEC §7 endpoints', async () => {
  const js = await criticalJs();
  for (const used of ['/catalog-api', '/seasons', '/episodes?content-id=', '/available?domain=', 'X-Session-Context', 'X-XSRF-TOKEN']) {
    assert.ok(js.includes(used), `the entry has ${used}`);
  }
  const unused = [
    '/authenticator', '/user/', '/subscription', '/signup', '/administration', '/proxy/', '/reviews', '/v2/', '/types',
    '/playlists', '/person-types', '/persons/', '/episodes/fresh', '/resource', '/countries', '/history', '/time-progress',
    '/completed', '/favorites', '/watched/last', 'slider-promo', 'most-relevant', '/by-slug/', '/by-imdb-id/', '/abuse/new',
    '/voice-authors', '/vast.xml', '/tags', '/subtitles', '/sitemap', '/robots.txt', 'redirect-info', '/menu', '/lib.js',
    '/languages', '/kinopoisk/', '/image', '/genres', '/ad-list.json', '/categories', '/caches', '/debug/',
    // The refresh and the full token decoder load only when a token has expired.
    'Invalid token specified',
  ];
  const present = unused.filter((path) => js.includes(path));
  assert.equal(present, [], 'unused endpoints are tree-shaken out of the entry');
});

test.run();
