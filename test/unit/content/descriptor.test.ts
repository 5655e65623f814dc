import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseSource, readDescriptor } from '../../../src/content/descriptor';

const at = 'https://media.example:8443/films/4/descriptor.json?v=2';

test('links starting with http are kept; others get the descriptor origin', () => {
  const d = readDescriptor(
    {
      sources: [
        { label: 'Русский', link: '/media/rus.m3u8', isDefault: true },
        { label: 'English', link: 'https://cdn.example/eng.m3u8' },
        { label: 'Rel', link: 'media/rel.m3u8' },
      ],
      subtitles: [{ label: 'Русские', src: '/subs/ru.vtt', language: 'ru' }],
    },
    at,
  );
  assert.equal(d.sources, [
    { label: 'Русский', link: 'https://media.example:8443/media/rus.m3u8', isDefault: true },
    { label: 'English', link: 'https://cdn.example/eng.m3u8', isDefault: false },
    { label: 'Rel', link: 'https://media.example:8443/media/rel.m3u8', isDefault: false },
  ]);
  assert.equal(d.subtitles, [{ label: 'Русские', src: 'https://media.example:8443/subs/ru.vtt', language: 'ru' }]);
});

test('bad shapes throw; bad entries are dropped', () => {
  for (const bad of [null, 'x', 42, {}, { sources: 'a' }, { sources: [] }, { sources: [{ label: 'x' }, { link: '  ' }] }]) {
    assert.throws(() => readDescriptor(bad, at), undefined, JSON.stringify(bad));
  }
  const d = readDescriptor({ sources: [null, { link: '/a.m3u8' }], subtitles: 'nope' }, at);
  assert.equal(d.sources, [{ label: '', link: 'https://media.example:8443/a.m3u8', isDefault: false }]);
  assert.equal(d.subtitles, []);
});

test('initial source: the saved label, else the default, else the first (SPEC §4)', () => {
  const s = [
    { label: 'A', link: 'a', isDefault: false },
    { label: 'B', link: 'b', isDefault: true },
  ];
  assert.is(chooseSource(s, 'A')?.link, 'a');
  assert.is(chooseSource(s, 'Z')?.link, 'b');
  assert.is(chooseSource(s)?.link, 'b');
  assert.is(chooseSource([s[0]])?.link, 'a');
  assert.is(chooseSource([]), undefined);
});

test.run();
