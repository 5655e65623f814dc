// providers/hls-internals.ts, the hls.js adapter, pinned to the installed hls.js: the version it is
// written against; every member of hls.js it relies on, present with the shape it uses; and each of its
// functions doing what it says on real hls.js objects (a real Hls under happy-dom on a virtual clock,
// no media element, its requests answered from a table: hls-kit.ts). A new hls.js fails here first,
// naming the member that moved, before any end-to-end run.
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Hls, {
  AbrController,
  BaseLoader,
  BaseSegment,
  BaseStreamController,
  BufferController,
  ChunkMetadata,
  Events,
  Fragment,
  PlaylistLevelType,
  XhrLoader,
  type ErrorData,
  type FragLoadedData,
  type FragLoadingData,
  type HlsConfig,
  type LoaderCallbacks,
  type LoaderConfiguration,
  type LoaderContext,
  type LoadStats,
} from 'hls.js';
import { abandonFragment, abrSlot, adoptLoad, forgetStatsOfRemoved, keepTakenOver, reconfigure, takeOver, timeOut, type AbrHooks, type Sample } from '../../../src/providers/hls-internals';
import { loadPolicies } from '../../../src/providers/hls-load-policy';
import { TUNING } from '../../../src/playback/tuning';
import { BASE, asked, requestsFor, tableHls, virtualScope } from './hls-kit';

const PLAYING = loadPolicies(TUNING.playRetries);

/** The hls.js the adapter is written against. Another one: check every member the tests below name in its sources, then change this. */
const PINNED = '1.7.4';

const root = new URL('../../../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as { version?: string; dependencies?: Record<string, string> };

/** What the tests read of hls.js's insides (protected or private in hls.d.ts). */
interface Inside {
  abrController: { timer: number; hls: Hls | null; bwEstimator: { sample(durationMs: number, bytes: number): void } };
  streamController: { config: HlsConfig; getMaxBufferLength(levelBitrate?: number): number; fragmentTracker: { removeFragment(frag: Fragment): void } };
}
const inside = (hls: Hls) => hls as unknown as Inside;

const proto = (cls: { prototype: object }, name: string) => Object.getOwnPropertyDescriptor(cls.prototype, name);
const isMethod = (cls: { prototype: object }, name: string) => typeof proto(cls, name)?.value === 'function';

let clock: ReturnType<typeof virtualScope>;
test.before.each(() => {
  clock = virtualScope();
});
test.after.each(() => clock.restore());

test(`hls.js is ${PINNED}, the version the adapter is written against`, () => {
  const installed = readJson('node_modules/hls.js/package.json').version;
  const wanted = readJson('package.json').dependencies?.['hls.js'];
  const moved = `src/providers/hls-internals.ts is written against hls.js ${PINNED}: check each member its tests name against the new version's sources, then set PINNED in this test`;
  assert.is(wanted, PINNED, `package.json asks for hls.js ${wanted}. ${moved}`);
  assert.is(installed, PINNED, `hls.js ${installed} is installed. ${moved}`);
  assert.is(Hls.version, PINNED, `the hls.js module says it is ${Hls.version}. ${moved}`);
});

test('AbrController: the protected handlers, the abandon timer, the estimator and nextAutoLevel the ABR slot extends', () => {
  for (const name of ['onFragLoading', 'onFragLoaded', 'onError', 'clearTimer', 'destroy', 'registerListeners']) {
    assert.ok(isMethod(AbrController, name), `AbrController.prototype.${name} is gone`);
  }
  const level = proto(AbrController, 'nextAutoLevel');
  assert.ok(level?.get && level.set, 'AbrController.nextAutoLevel is no longer a getter and a setter');
  const hls = tableHls();
  const abr = inside(hls).abrController;
  assert.instance(abr, AbrController, "Hls keeps its ABR controller as `abrController`");
  assert.is(abr.hls, hls, 'the ABR controller keeps its Hls as `hls`');
  assert.type(abr.timer, 'number', 'the abandon rule runs on `timer`');
  assert.is(abr.timer, -1, 'no abandon timer before a fragment loads');
  assert.type(abr.bwEstimator.sample, 'function', 'the estimator takes samples with `sample(ms, bytes)`');
  hls.destroy();
});

test('Fragment, the default loader and the stream controller: the members the abandon, the loader and the live config use', () => {
  assert.ok(isMethod(Fragment, 'abortRequests'), 'Fragment.prototype.abortRequests is gone');
  const streams = proto(BaseSegment, 'elementaryStreams');
  assert.ok(streams?.get && streams.set, 'a fragment\'s elementaryStreams is no longer a getter and a setter (on BaseSegment)');
  assert.ok(isMethod(BaseSegment, 'clearElementaryStreamInfo'), 'the fragment tracker no longer clears streams with clearElementaryStreamInfo');
  assert.is(Hls.DefaultConfig.loader, XhrLoader, 'the default loader is no longer XhrLoader');
  assert.ok(XhrLoader.prototype instanceof BaseLoader, 'XhrLoader no longer extends BaseLoader');
  assert.ok(isMethod(BaseLoader, 'loadtimeout'), 'BaseLoader.prototype.loadtimeout is gone');
  const loader = new XhrLoader(Hls.DefaultConfig);
  for (const name of ['context', 'config', 'callbacks']) assert.ok(name in loader, `the default loader no longer keeps its request's \`${name}\``);
  assert.ok(isMethod(BaseStreamController, 'getMaxBufferLength'), 'BaseStreamController.prototype.getMaxBufferLength is gone');
  assert.ok(isMethod(BufferController, 'attachTransferred'), 'the take-over of a transferred MediaSource (attachTransferred) is gone');
  const hls = tableHls();
  assert.is(inside(hls).streamController.config, hls.config, 'the stream controller no longer reads hls.config itself');
  hls.destroy();
});

test("outside the adapter, src/ takes from hls.js only Hls, its enums and its types (its classes to extend are the adapter's)", () => {
  const PUBLIC = new Set(['Events', 'ErrorTypes', 'ErrorDetails']);
  const seen: string[] = [];
  for (const file of readdirSync(new URL('src/', root), { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file) || file === 'providers/hls-internals.ts') continue;
    const text = readFileSync(new URL(`src/${file}`, root), 'utf8');
    for (const [, kind, names] of text.matchAll(/import\s+(type\s+)?(?:\w+\s*,\s*)?\{([^}]*)\}\s*from\s*'hls\.js'/g)) {
      if (kind) continue;
      const values = names!.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '));
      seen.push(...values.filter((n) => !PUBLIC.has(n)).map((n) => `${file}: ${n}`));
    }
  }
  assert.equal(seen, [], 'hls.js values imported outside providers/hls-internals.ts');
});

/** An ABR slot whose hooks record what hls.js told them. */
function recordingSlot() {
  const seen = { loading: [] as FragLoadingData[], loaded: [] as FragLoadedData[], errors: [] as ErrorData[], forced: [] as number[], own: [] as number[], destroyed: 0 };
  let sample: Sample | undefined;
  let choice: number | undefined;
  const Slot = abrSlot((_hls, feed): AbrHooks => {
    sample = feed;
    return {
      nextAutoLevel(own) {
        seen.own.push(own());
        return choice ?? own();
      },
      forcedAutoLevel: (level) => void seen.forced.push(level),
      onFragLoading: (data) => void seen.loading.push(data),
      onFragLoaded: (data) => void seen.loaded.push(data),
      onError: (data) => void seen.errors.push(data),
      destroy: () => void seen.destroyed++,
    };
  });
  return { Slot, seen, sample: (ms: number, bytes: number) => sample!(ms, bytes), choose: (level: number) => (choice = level) };
}

test('abrSlot: every fragment hls.js loads reaches onFragLoading, with hls.js\'s own abandon timer stopped (a plain AbrController\'s runs)', async () => {
  const plain = tableHls();
  plain.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  assert.ok(inside(plain).abrController.timer > -1, 'a plain AbrController runs its abandon rule while a main fragment loads');
  plain.destroy();

  const { Slot, seen } = recordingSlot();
  const hls = tableHls({ abrController: Slot });
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  assert.instance(inside(hls).abrController, Slot, 'hls.js builds its ABR controller from config.abrController');
  const loading = seen.loading.map(({ frag }) => `${frag.type} ${frag.sn} ${frag.level}`);
  assert.equal(loading, ['main initSegment 0', 'main 0 0', 'audio initSegment 0', 'audio 0 0'], 'the start\'s init segments and first fragments, as hls.js asks for them');
  assert.is(inside(hls).abrController.timer, -1, 'hls.js\'s abandon rule is not running');
  hls.destroy();
  assert.is(seen.destroyed, 1, 'destroy reaches the hooks');
});

test('abrSlot: a fragment in reaches onFragLoaded with its stats; errors reach onError, a playlist\'s naming its level in the request\'s context', async () => {
  const { Slot, seen } = recordingSlot();
  const hls = tableHls({ abrController: Slot, startLevel: 1 });
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  // The main init segment (asked first), then the first 720p fragment: bytes no demuxer takes.
  requestsFor('init.mp4')[0]!.answer(800);
  requestsFor('v1-0.m4s')[0]!.answer(48000);
  await clock.advance(300);
  const loaded = seen.loaded.find(({ frag }) => frag.type === 'main' && frag.sn === 0);
  assert.ok(loaded, `FRAG_LOADED of the first main fragment (loaded: ${seen.loaded.map(({ frag }) => `${frag.type} ${frag.sn}`)})`);
  assert.is(loaded.frag.level, 1);
  assert.is(loaded.frag.stats.loaded, 48000);
  assert.ok(seen.errors.some((e) => e.details === 'fragParsingError' && e.frag === loaded.frag), 'its parsing error reaches onError');
  // hls.js switches down for it; the 240p playlist answers 404.
  requestsFor('v0.m3u8')[0]!.fail(404);
  await clock.advance(100);
  const error = seen.errors.find((e) => e.details === 'levelLoadError');
  assert.ok(error, `a level playlist's 404 reaches onError (seen: ${seen.errors.map((e) => e.details)})`);
  assert.is(error.context?.level, 0, "a playlist's error names its level in the request's context");
  assert.is(error.level, undefined, 'not in `level`');
  assert.is(error.response?.code, 404);
  hls.destroy();
});

test('abrSlot: hls.nextAutoLevel asks nextAutoLevel (with hls.js\'s own choice), setting it tells forcedAutoLevel; sample feeds hls.bandwidthEstimate', async () => {
  const { Slot, seen, sample, choose } = recordingSlot();
  const hls = tableHls({ abrController: Slot, abrEwmaDefaultEstimate: 500000 });
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  choose(1);
  assert.is(hls.nextAutoLevel, 1, 'hls.js takes the hooks\' level');
  assert.ok(seen.own.length > 0 && seen.own.every((l) => l === 0 || l === 1), `hls.js's own choice is a level: ${seen.own}`);
  const before = seen.forced.length;
  hls.nextAutoLevel = 0;
  assert.equal(seen.forced.slice(before), [0], 'the level forced from outside reaches the hooks');
  assert.is(hls.bandwidthEstimate, 500000);
  sample(1000, 250000);
  assert.ok(Math.abs(hls.bandwidthEstimate - 2e6) < 2e4, `250 kB in 1 s is 2 Mb/s: ${hls.bandwidthEstimate}`);
  hls.destroy();
});

test('abandonFragment: the main fragment in flight aborted, hls.js told, and asked again at the next load level', async () => {
  const hls = tableHls({ startLevel: 1 });
  const told: string[] = [];
  hls.on(Events.FRAG_LOAD_EMERGENCY_ABORTED, (_e, { frag, part }) => void told.push(`${frag.sn} ${frag.level} ${part}`));
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  const flight = hls.inFlightFragments.main?.frag;
  assert.ok(flight && flight.sn === 0 && flight.level === 1, 'the first 720p fragment is in flight');
  hls.nextLoadLevel = hls.nextAutoLevel = 0;
  abandonFragment(hls, flight);
  assert.is(requestsFor('v1-0.m4s')[0]!.aborted, 1, 'its request aborted');
  assert.equal(told, ['0 1 null']);
  await clock.advance(500);
  assert.is(requestsFor('v0-0.m4s').length, 1, `asked again at 240p: ${asked.map((a) => a.url.slice(BASE.length))}`);
  hls.destroy();
});

test("forgetStatsOfRemoved: a fragment the tracker lets go drops its load stats, unless a request of it is under way", async () => {
  const stats = proto(BaseSegment, 'stats');
  assert.ok(stats?.get && stats.set && proto(BaseSegment, 'hasStats')?.get, "a fragment's stats are no longer a lazy getter and a setter with hasStats (on BaseSegment)");
  const hls = tableHls({ startLevel: 1 });
  forgetStatsOfRemoved(hls);
  const tracker = inside(hls).streamController.fragmentTracker;
  const done = new Fragment(PlaylistLevelType.MAIN, BASE);
  done.stats.loaded = 48000;
  assert.ok(done.hasStats && '_stats' in done, 'a fragment keeps its stats as `_stats`');
  tracker.removeFragment(done);
  assert.is(done.hasStats, false, 'let go: its stats dropped');
  assert.is(done.stats.loaded, 0, 'asked again: fresh, empty stats');
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  const flight = hls.inFlightFragments.main?.frag;
  assert.ok(flight?.loader, 'the first fragment is in flight, with its loader');
  const own = flight.stats;
  tracker.removeFragment(flight);
  assert.is(flight.stats, own, 'in flight: its loader still writes them, so they stay');
  hls.destroy();
});

test('reconfigure: the forward buffer, read by the stream controller at each tick', () => {
  const hls = tableHls({ maxBufferLength: 6, maxMaxBufferLength: 120 });
  const stream = inside(hls).streamController;
  assert.is(stream.getMaxBufferLength(5e6), (60e6 * 8) / 5e6, "hls.js's default: maxBufferSize (60 MB) at the level's rate");
  reconfigure(hls, { maxBufferSize: 0 });
  assert.is(stream.getMaxBufferLength(5e6), 6, 'without the size, maxBufferLength');
  reconfigure(hls, { maxBufferLength: 24 });
  assert.is(stream.getMaxBufferLength(5e6), 24);
  reconfigure(hls, { maxBufferLength: 200 });
  assert.is(stream.getMaxBufferLength(5e6), 120, 'never past maxMaxBufferLength');
  hls.destroy();
});

test('reconfigure: load policies and the audio preference set on a running instance are the next requests\'', async () => {
  const hls = tableHls();
  reconfigure(hls, PLAYING);
  reconfigure(hls, { audioPreference: { lang: 'en' } });
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  const policy = (name: string) => requestsFor(name)[0]?.config.loadPolicy;
  assert.equal(policy('master.m3u8'), PLAYING.manifestLoadPolicy.default);
  assert.is(policy('v0.m3u8')?.maxTimeToFirstByteMs, PLAYING.playlistLoadPolicy.default.maxTimeToFirstByteMs);
  assert.equal(policy('v0-0.m4s')?.errorRetry, null, 'a fragment loader retries nothing itself (the error controller does, by fragLoadPolicy)');
  assert.is(policy('v0-0.m4s')?.maxLoadTimeMs, PLAYING.fragLoadPolicy.default.maxLoadTimeMs);
  assert.is(requestsFor('a-en.m3u8').length, 1, 'hls.js starts on the preferred audio');
  assert.is(requestsFor('a-ru.m3u8').length, 0, 'not on the playlist\'s default');
  hls.destroy();
});

/** The default loader, a request recorded on it, and what its callbacks heard. */
function adopted(timeoutRetry: LoaderConfiguration['loadPolicy']['timeoutRetry']) {
  const loader = new Hls.DefaultConfig.loader(Hls.DefaultConfig);
  const heard: Array<[string, LoadStats, LoaderContext]> = [];
  const context = { url: BASE + 'v0.m3u8', responseType: 'text' } as LoaderContext;
  const config = { loadPolicy: { ...PLAYING.playlistLoadPolicy.default, timeoutRetry } } as LoaderConfiguration;
  const on = (name: string) => (stats: LoadStats, ctx: LoaderContext) => void heard.push([name, stats, ctx]);
  const callbacks = { onSuccess: on('success'), onError: on('error'), onTimeout: on('timeout'), onAbort: on('abort') } as unknown as LoaderCallbacks<LoaderContext>;
  adoptLoad(loader, context, config, callbacks);
  return { loader, heard, context };
}

test('adoptLoad: the default loader keeps the request as its own load() does (its context read back, its abort told)', () => {
  const { loader, heard, context } = adopted(null);
  assert.is(loader.context, context, "hls.js's playlist loader reads the loader's context");
  loader.abort();
  assert.equal(heard.map(([name, , ctx]) => [name, ctx]), [['abort', context]]);
  assert.is(heard[0]![1], loader.stats);
  loader.destroy();
});

test("timeOut: the default loader's own timeout: a retry while timeoutRetry allows, then onTimeout", () => {
  const once = adopted({ maxNumRetry: 1, retryDelayMs: 0, maxRetryDelayMs: 0 });
  timeOut(once.loader);
  assert.is(once.loader.stats.retry, 1, 'retried');
  assert.equal(once.heard, [], 'not timed out yet');
  once.loader.destroy();
  const none = adopted({ maxNumRetry: 0, retryDelayMs: 0, maxRetryDelayMs: 0 });
  timeOut(none.loader);
  assert.equal(none.heard.map(([name, , ctx]) => [name, ctx]), [['timeout', none.context]]);
  none.loader.destroy();
});

test('keepTakenOver: the buffers announced before MEDIA_ATTACHED are announced again once attached, once', () => {
  const hls = tableHls();
  keepTakenOver(hls);
  const created: unknown[] = [];
  hls.on(Events.BUFFER_CREATED, (_e, data) => void created.push(data));
  const data = { tracks: {} };
  hls.trigger(Events.BUFFER_CREATED, data);
  hls.trigger(Events.MEDIA_ATTACHED, { media: document.createElement('video') as unknown as HTMLMediaElement });
  hls.trigger(Events.MEDIA_ATTACHED, { media: document.createElement('video') as unknown as HTMLMediaElement });
  assert.equal(created, [data, data]);
  hls.destroy();
});

test("keepTakenOver: a main fragment's streams, cleared by hls.js's fragment tracker while it is appended, are put back as its appends land", async () => {
  const hls = tableHls();
  hls.loadSource(BASE + 'master.m3u8');
  await clock.advance(500);
  const frag = hls.levels[0]!.details!.fragments[0]!;
  keepTakenOver(hls);
  frag.setElementaryStreamInfo('video' as never, 0, 4, 0, 4);
  frag.setElementaryStreamInfo('audio' as never, 0, 4, 0, 4);
  const streams = { ...frag.elementaryStreams };
  hls.trigger(Events.FRAG_PARSED, { frag, part: null, chunkMeta: new ChunkMetadata(frag.level, frag.sn, 0) });
  inside(hls).streamController.fragmentTracker.removeFragment(frag);
  assert.is(frag.elementaryStreams.video, null, "hls.js's fragment tracker clears the streams of a fragment it drops");
  hls.trigger(Events.BUFFER_APPENDED, { type: 'video', frag, part: null, chunkMeta: {}, parent: frag.type, timeRanges: {} } as never);
  assert.equal(frag.elementaryStreams, streams, 'put back');
  hls.trigger(Events.FRAG_BUFFERED, { stats: frag.stats, frag, part: null, id: frag.type });
  inside(hls).streamController.fragmentTracker.removeFragment(frag);
  hls.trigger(Events.BUFFER_APPENDED, { type: 'video', frag, part: null, chunkMeta: {}, parent: frag.type, timeRanges: {} } as never);
  assert.is(frag.elementaryStreams.video, null, 'once the first main fragment is buffered, the take-over is over');
  hls.destroy();
});

test("takeOver: the page's MediaSource and SourceBuffers handed to attachMedia in hls.js's track set", () => {
  const hls = tableHls();
  const attached: unknown[] = [];
  hls.attachMedia = (data) => void attached.push(data);
  const media = document.createElement('video') as unknown as HTMLVideoElement;
  const [video, audio] = [{}, {}] as SourceBuffer[];
  const mediaSource = {} as MediaSource;
  takeOver(hls, { variant: 'v0.m3u8', media, mediaSource, buffers: { video: { codec: 'avc1.42c015', buffer: video! }, audio: { codec: 'mp4a.40.2', buffer: audio! } } });
  assert.equal(attached, [
    {
      media,
      mediaSource,
      tracks: {
        video: { id: 'main', container: 'video/mp4', codec: 'avc1.42c015', levelCodec: 'avc1.42c015', buffer: video, listeners: [] },
        audio: { id: 'audio', container: 'audio/mp4', codec: 'mp4a.40.2', levelCodec: 'mp4a.40.2', buffer: audio, listeners: [] },
      },
    },
  ]);
  hls.destroy();
});

test.run();
