// The test files themselves: uvu's `.run()` takes the tests its suite holds so far, and every file
// shares uvu's default `test` suite. A test registered after its file's `.run()` is run with the next
// file's suite under `npm test`, and never when its file runs alone (`node --import tsx FILE`) or is
// the last one imported (two files had such tests).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const files = ['test', 'server/test'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.m?[jt]s$/.test(f))
    .map((f) => `${dir}/${f}`),
);

test('every test file registers its tests before it runs its suite', () => {
  assert.ok(files.length > 50, `the test files found: ${files.length}`);
  const late: string[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const run = lines.findIndex((line) => /^\w+\.run\(\);/.test(line));
    const after = run < 0 ? -1 : lines.findIndex((line, i) => i > run && /^\w+(\.only)?\(['"`]/.test(line));
    if (after >= 0) late.push(`${file}:${after + 1}`);
  }
  assert.equal(late, [], 'tests after .run()');
});

test.run();
