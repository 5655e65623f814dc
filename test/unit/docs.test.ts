// The documentation (README.md, CHANGELOG.md, docs/*.md) against the repository: every relative link
// reaches a file of the repository (and a heading there, for a #anchor), and every code sample that uses
// the partner SDK's handle names a method, getter or event of its declarations (src/embed/embed.d.ts),
// which docs/embedding.md shows every one of.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const docs = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The Markdown outside fenced code blocks, and the fenced blocks' bodies. */
function split(markdown: string): { prose: string; code: string[] } {
  const prose: string[] = [];
  const code: string[] = [];
  let fence: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence) code.push(fence.join('\n'));
      fence = fence ? undefined : [];
    } else (fence ?? prose).push(line);
  }
  return { prose: prose.join('\n'), code };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of split(markdown).prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}_ -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Link and image targets of the prose, inline code spans left out. */
const linkTargets = (markdown: string) =>
  [...split(markdown).prose.replace(/`[^`\n]*`/g, '').matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);

test('every relative link in the docs reaches a file of the repository, and a heading there for #anchor', () => {
  const broken: string[] = [];
  for (const file of docs) {
    for (const target of linkTargets(read(file))) {
      if (/^[a-z][a-z+.-]*:|^\/\//i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path ? resolve(root, dirname(file), decodeURIComponent(path)) : join(root, file);
      const inside = !relative(root, resolved).startsWith('..');
      if (!inside || !existsSync(resolved)) {
        broken.push(`${file}: ${target} (no such file in the repository)`);
        continue;
      }
      if (anchor !== undefined && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  assert.equal(broken, []);
});

/** The members of an interface of src/embed/embed.d.ts: its property and method names. */
function members(declarations: string, name: string): Set<string> {
  const body = declarations.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))?.[1] ?? '';
  return new Set([...body.replace(/\/\*\*[\s\S]*?\*\//g, '').matchAll(/^\s*(?:readonly\s+)?(\w+)\??\s*(?:<[^>]*>)?\s*[(:]/gm)].map((m) => m[1]));
}

const sdk = read('src/embed/embed.d.ts');
const methods = members(sdk, 'Player');
const events = members(sdk, 'PlayerEvents');

/**
 * What a code sample uses of an SDK handle (`player`, or any name given createPlayer's result):
 * `player.x` and `.on('event'`. A sample is the SDK's when it calls createPlayer or a method of a
 * handle; elsewhere `player.html` and `server/player.mjs` are file names.
 */
function sdkUses(code: string): { members: string[]; events: string[] } {
  const handles = new Set(['player', ...[...code.matchAll(/(\w+)\s*=\s*(?:await\s+)?(?:\w+\.)?createPlayer\(/g)].map((m) => m[1])]);
  const used = { members: [] as string[], events: [] as string[] };
  const member = (handle: string) => new RegExp(`(?<![\\w./-])${handle}\\.(\\w+)(\\()?`, 'g');
  const isSdk = /createPlayer\(/.test(code) || [...handles].some((h) => [...code.matchAll(member(h))].some((m) => m[2]));
  if (!isSdk) return used;
  for (const handle of handles) {
    for (const m of code.matchAll(member(handle))) used.members.push(m[1]);
    for (const m of code.matchAll(new RegExp(`(?<![\\w./-])${handle}\\.on\\(\\s*['"\`](\\w+)`, 'g'))) used.events.push(m[1]);
  }
  return used;
}

/** The code samples of a file: fenced blocks and inline code spans. */
const samples = (markdown: string) => {
  const { prose, code } = split(markdown);
  return [...code, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1])];
};

test('the SDK declarations were read (Player and PlayerEvents)', () => {
  for (const name of ['play', 'on', 'ready', 'getEpisode', 'destroy', 'iframe']) assert.ok(methods.has(name), name);
  for (const name of ['ready', 'timeupdate', 'error']) assert.ok(events.has(name), name);
});

test('every SDK method, getter and event a code sample names exists in src/embed/embed.d.ts', () => {
  const unknown: string[] = [];
  for (const file of docs) {
    for (const sample of samples(read(file))) {
      const used = sdkUses(sample);
      for (const name of used.members) if (!methods.has(name)) unknown.push(`${file}: player.${name}`);
      for (const name of used.events) if (!events.has(name)) unknown.push(`${file}: on('${name}')`);
    }
  }
  assert.equal(unknown, []);
});

test('docs/embedding.md shows every SDK method, getter and event in a code sample', () => {
  const used = split(read('docs/embedding.md')).code.map(sdkUses);
  const shownMembers = new Set(used.flatMap((u) => u.members));
  const shownEvents = new Set(used.flatMap((u) => u.events));
  assert.equal([...methods].filter((name) => !shownMembers.has(name)), [], 'methods and getters without an example');
  assert.equal([...events].filter((name) => !shownEvents.has(name)), [], 'events without an example');
});

test.run();
