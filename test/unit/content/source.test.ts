import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type SourceInputs, isDescriptorAddress, resolveSource } from '../../../src/content/source';
import type { EpisodeVariant } from '../../../src/core/entities';
import { ep } from '../content/fixtures';

const API = 'https://api.example';
const inputs = (over: Partial<SourceInputs> = {}): SourceInputs => ({
  isAvailable: true,
  activeVariantId: null,
  progress: {},
  keepPlaying: false,
  placeholderUrl: 'https://player.example/player/placeholder.mp4',
  absolute: (url) => new URL(url, API + '/').href,
  ...over,
});
const variants: EpisodeVariant[] = [
  { id: 2031, title: 'Оригинал', filepath: '/media/203/orig.m3u8' },
  { id: 2032, title: 'Дубляж', filepath: 'https://cdn.example/203/dub.m3u8' },
  { id: 2033, title: 'Субтитры', filepath: '/media/203/subs.m3u8' },
];
const plain = ep(202, 1, 2);
const withVariants = ep(203, 1, 3, { episodeVariants: variants });

test('descriptor addresses are the ones containing .json', () => {
  assert.ok(isDescriptorAddress('https://media.example:8443/films/4/descriptor.json?v=2'));
  assert.ok(isDescriptorAddress('/x/master.json'));
  assert.not.ok(isDescriptorAddress('/x/master.m3u8'));
  assert.not.ok(isDescriptorAddress(''));
});

test('no variants (absent, null or empty): the episode master, resolved against the API base, from 0', () => {
  for (const e of [plain, ep(202, 1, 2, { episodeVariants: null }), ep(202, 1, 2, { episodeVariants: [] })]) {
    assert.equal(resolveSource(e, inputs()), { variantId: null, url: `${API}/media/202.m3u8`, startAt: 0, savedTime: undefined });
  }
  assert.is(resolveSource(ep(202, 1, 2, { m3u8MasterFilePath: 'https://cdn.example/x.m3u8' }), inputs()).url, 'https://cdn.example/x.m3u8', 'absolute links kept');
});

test('variant choice: the active one, else the query’s, else the saved one, else the first', () => {
  const pick = (over: Partial<SourceInputs>) => resolveSource(withVariants, inputs(over));
  assert.is(pick({}).variantId, 2031, 'the first');
  assert.is(pick({}).url, `${API}/media/203/orig.m3u8`);
  assert.is(pick({ savedVariantId: 2033 }).variantId, 2033);
  assert.is(pick({ savedVariantId: 2033, queryVariantId: 2032 }).variantId, 2032);
  assert.is(pick({ savedVariantId: 2033, queryVariantId: 2032 }).url, 'https://cdn.example/203/dub.m3u8');
  assert.is(pick({ savedVariantId: 2033, queryVariantId: 2032, activeVariantId: 2031 }).variantId, 2031);
});

test('unknown ids fall through to the next rule, never to nothing', () => {
  const pick = (over: Partial<SourceInputs>) => resolveSource(withVariants, inputs(over)).variantId;
  assert.is(pick({ activeVariantId: 9999 }), 2031, 'an active id this episode lacks (the previous episode’s)');
  assert.is(pick({ activeVariantId: 9999, queryVariantId: 2032 }), 2032);
  assert.is(pick({ activeVariantId: 9999, queryVariantId: 9998, savedVariantId: 2033 }), 2033);
  for (const junk of ['2033', null, {}, [2033], NaN, undefined]) assert.is(pick({ savedVariantId: junk }), 2031, `saved ${String(junk)}`);
});

test('a variant without a file plays the episode master', () => {
  const broken = ep(203, 1, 3, { episodeVariants: [{ id: 7, title: 'X' } as EpisodeVariant] });
  assert.equal(resolveSource(broken, inputs()), { variantId: 7, url: `${API}/media/203.m3u8`, startAt: 0, savedTime: undefined });
});

test('saved progress: offered (savedTime) but not jumped to when a new start is not a continuation', () => {
  const r = resolveSource(plain, inputs({ progress: { 202: 42 } }));
  assert.is(r.savedTime, 42);
  assert.is(r.startAt, 0);
});

test('keepPlaying with saved progress resumes there; without progress from 0; an explicit startAt wins', () => {
  assert.is(resolveSource(plain, inputs({ keepPlaying: true, progress: { 202: 42 } })).startAt, 42);
  assert.is(resolveSource(plain, inputs({ keepPlaying: true, progress: { 201: 42 } })).startAt, 0);
  assert.is(resolveSource(plain, inputs({ keepPlaying: true, progress: { 202: 42 }, startAt: 5 })).startAt, 5);
  assert.is(resolveSource(plain, inputs({ keepPlaying: true, progress: { 202: 42 }, startAt: 0 })).startAt, 0, '0 is a start time too');
  assert.is(resolveSource(plain, inputs({ startAt: 90 })).startAt, 90, 'a time code');
});

test('progress of an episode with variants is the active variant’s', () => {
  const progress = { 203: { 2031: 30, 2032: 7 } };
  assert.equal(resolveSource(withVariants, inputs({ progress, keepPlaying: true })), {
    variantId: 2031,
    url: `${API}/media/203/orig.m3u8`,
    startAt: 30,
    savedTime: 30,
  });
  assert.is(resolveSource(withVariants, inputs({ progress, activeVariantId: 2032, keepPlaying: true })).startAt, 7);
  assert.is(resolveSource(withVariants, inputs({ progress, activeVariantId: 2033, keepPlaying: true })).startAt, 0);
});

test('junk progress reads as none', () => {
  for (const v of ['42', -3, 0, Infinity, NaN, null, [42], { 1: 2 }]) {
    const r = resolveSource(plain, inputs({ progress: { 202: v }, keepPlaying: true }));
    assert.equal([r.savedTime, r.startAt], [undefined, 0], JSON.stringify(v));
  }
  assert.is(resolveSource(withVariants, inputs({ progress: { 203: 30 }, keepPlaying: true })).startAt, 0, 'a number where a variant map belongs');
});

test('unavailable content plays the placeholder from 0, whatever was asked', () => {
  const over = { isAvailable: false, progress: { 202: 42, 203: { 2032: 9 } }, keepPlaying: true };
  const r = resolveSource(plain, inputs({ ...over, startAt: 120 }));
  assert.is(r.url, 'https://player.example/player/placeholder.mp4');
  assert.is(r.startAt, 0);
  const v = resolveSource(withVariants, inputs({ ...over, activeVariantId: 2032 }));
  assert.equal([v.url, v.startAt, v.variantId], ['https://player.example/player/placeholder.mp4', 0, 2032]);
});

test('absolute() is asked only for the address played', () => {
  const asked: string[] = [];
  resolveSource(withVariants, inputs({ queryVariantId: 2032, absolute: (u) => (asked.push(u), u) }));
  assert.equal(asked, ['https://cdn.example/203/dub.m3u8']);
  asked.length = 0;
  resolveSource(withVariants, inputs({ isAvailable: false, absolute: (u) => (asked.push(u), u) }));
  assert.equal(asked, [], 'the placeholder is already absolute');
});

test.run();
