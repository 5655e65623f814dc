#!/usr/bin/env node
// `depcruise` with TypeScript support, for `npm run lint:layers` and the `layers` stage of `npm test`.
//
// dependency-cruiser reads .ts/.tsx with the classic TypeScript compiler API (it accepts
// typescript >=2 <7). The project's `typescript` is 7, the Go compiler, which has no such API, so a
// plain `depcruise` silently skips every TypeScript file. This folder is a tiny local package
// (root devDependency `depcruise-ts6`, `file:scripts/depcruise`) that depends on typescript 6.0.3;
// npm nests that copy here because the root has typescript 7, so `tsc` and `.bin/tsc` stay 7.
// This script points dependency-cruiser's own `typescript` lookups (require and import) at that
// copy, checks that it took, and runs dependency-cruiser's CLI with the same arguments.
// Once a dependency-cruiser release reads TypeScript 7, delete this folder and the devDependency and
// call `depcruise` directly (17.4.3 does not; 18.x needs Node 22 and, up to 18.5 at least, also
// accepts only typescript <7).
import Module, { createRequire, register } from 'node:module';
import { sep } from 'node:path';

const fromHere = createRequire(import.meta.url);
const inCruiser = `${sep}node_modules${sep}dependency-cruiser${sep}`;
const isTypescript = (request) => request === 'typescript' || request.startsWith('typescript/');

const ts = fromHere('typescript/package.json');
if (!/^[2-6]\./.test(ts.version)) fail(`found typescript ${ts.version} next to ${import.meta.url}, need < 7`);

// require(): dependency-cruiser reads typescript/package.json for the version and require.resolve()s it.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (isTypescript(request) && parent?.filename?.includes(inCruiser)) return fromHere.resolve(request);
  return resolveFilename.call(this, request, parent, ...rest);
};
// import(): dependency-cruiser loads the compiler with a dynamic import.
register('./hooks.mjs', import.meta.url);

// dependency-cruiser's package root, from its main export (its package.json is not exported).
const root = new URL('../../', import.meta.resolve('dependency-cruiser'));
const { EXTENSION2AVAILABLE } = await import(new URL('src/extract/transpile/meta.mjs', root).href);
if (!EXTENSION2AVAILABLE.get('.ts') || !EXTENSION2AVAILABLE.get('.tsx')) {
  fail('dependency-cruiser still has no TypeScript parser; it would skip every .ts/.tsx file');
}
await import(new URL('bin/dependency-cruise.mjs', root).href);

function fail(message) {
  console.error(`depcruise-ts6: ${message}`);
  process.exit(2);
}
