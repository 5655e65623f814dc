// The hls.js adapter: every use of hls.js's internals, one named function each. Its public API (the
// typed, public members of hls.d.ts, read as documented) is used anywhere in the hls piece; what it
// keeps to itself is used only here: protected members reached by a subclass, state it owns written
// from outside, its own events triggered to steer its controllers, the config of a running instance
// rewritten, the SourceBuffer track set its media transfer takes. Written against hls.js 1.7.4 (the
// version package.json pins); test/unit/providers/hls-internals.test.ts checks each member relied on
// against the installed hls.js, and fails first, naming it, on another version.
import Hls, {
  AbrController,
  Events,
  type BufferAppendedData,
  type BufferCreatedData,
  type ElementaryStreams,
  type ErrorData,
  type FragBufferedData,
  type FragLoadedData,
  type FragLoadingData,
  type Fragment,
  type FragParsedData,
  type HlsConfig,
  type Loader,
  type LoaderCallbacks,
  type LoaderConfiguration,
  type LoaderContext,
  type SourceBufferTrack,
} from 'hls.js';
import type { EarlyMedia } from '../core/player-api';

/** What hls.js tells its ABR slot and asks of it (the playback policy's side: policy-abr.ts), named as hls.js's own handlers. */
export interface AbrHooks {
  /** The level to load next; `own` is hls.js's own choice. */
  nextAutoLevel(own: () => number): number;
  /** A level set from outside (hls.js after an error, an abandon): it is the next fragment's. */
  forcedAutoLevel(level: number): void;
  /** A fragment began to load; hls.js's own abandon rule is already stopped for it. */
  onFragLoading(data: FragLoadingData): void;
  onFragLoaded(data: FragLoadedData): void;
  onError(data: ErrorData): void;
  destroy(): void;
}

/** A bandwidth sample fed to hls.js's estimator (the one `hls.bandwidthEstimate` reads): the time a transfer took and its bytes. */
export type Sample = (durationMs: number, bytes: number) => void;

/**
 * hls.js's ABR slot (`abrController`) with its choice and its own abandon rule handed to `make`'s hooks:
 * hls.js's AbrController, its protected event handlers extended (hls.js registers them in its
 * constructor, so the subclass's run) and its abandon timer stopped as each fragment starts
 * (`clearTimer`); its bandwidth estimator still runs on every fragment, and `sample` feeds it too.
 */
export function abrSlot(make: (hls: Hls, sample: Sample) => AbrHooks): typeof AbrController {
  return class AbrSlot extends AbrController {
    private hooks: AbrHooks;

    constructor(hls: Hls) {
      super(hls);
      this.hooks = make(hls, (ms, bytes) => this.bwEstimator.sample(ms, bytes));
    }

    get nextAutoLevel(): number {
      return this.hooks.nextAutoLevel(() => super.nextAutoLevel);
    }

    set nextAutoLevel(level: number) {
      super.nextAutoLevel = level;
      this.hooks.forcedAutoLevel(level);
    }

    protected onFragLoading(event: Events.FRAG_LOADING, data: FragLoadingData) {
      super.onFragLoading(event, data);
      this.clearTimer();
      this.hooks.onFragLoading(data);
    }

    protected onFragLoaded(event: Events.FRAG_LOADED, data: FragLoadedData) {
      super.onFragLoaded(event, data);
      this.hooks.onFragLoaded(data);
    }

    protected onError(event: Events.ERROR, data: ErrorData) {
      super.onError(event, data);
      this.hooks.onError(data);
    }

    destroy() {
      this.hooks.destroy();
      super.destroy();
    }
  };
}

/**
 * A main fragment in flight dropped, as hls.js's own abandon rule drops one: its requests aborted and
 * FRAG_LOAD_EMERGENCY_ABORTED told, on which the stream controller asks for it again at `nextLoadLevel`.
 */
export function abandonFragment(hls: Hls, frag: Fragment): void {
  frag.abortRequests();
  hls.trigger(Events.FRAG_LOAD_EMERGENCY_ABORTED, { frag, part: null, stats: frag.stats });
}

/** The fragment tracker, shared by hls.js's stream controllers (private in hls.d.ts), and a fragment's own stats field. */
interface TrackerInternals {
  streamController: { fragmentTracker: { removeFragment(frag: Fragment): void } };
}
interface FragmentInternals {
  _stats: Fragment['stats'] | null;
}

/**
 * hls.js keeps each loaded fragment's load stats (its timings and counters, about 290 bytes) on the
 * fragment for as long as the playlist lives, so a long title's heap grows by them for as long as it
 * plays. Once the fragment tracker lets a fragment go (flushed behind the back buffer, evicted, dropped)
 * with no request of it under way, they go too: a new load brings its own, and the fragment's getter
 * makes empty ones if anything asks again.
 */
export function forgetStatsOfRemoved(h: Hls): void {
  const tracker = (h as unknown as TrackerInternals).streamController.fragmentTracker;
  const remove = tracker.removeFragment;
  tracker.removeFragment = function (this: unknown, frag: Fragment) {
    remove.call(this, frag);
    if (!frag.loader) (frag as unknown as FragmentInternals)._stats = null;
  };
}

/**
 * The config fields a running hls.js reads again at each use, written on the instance: the forward
 * buffer (`maxBufferLength`, `maxBufferSize`: the stream controllers at each tick), the load
 * policies (the loaders at each request, the error controller at each error) and the audio
 * preference (read when the master playlist is parsed).
 */
export type LiveConfig = Partial<Pick<HlsConfig, 'maxBufferLength' | 'maxBufferSize' | 'audioPreference' | 'manifestLoadPolicy' | 'playlistLoadPolicy' | 'fragLoadPolicy'>>;
export function reconfigure(hls: Hls, fields: LiveConfig): void {
  Object.assign(hls.config, fields);
}

/** The default loader's own record of a request and its own timeout (protected in hls.js's BaseLoader). */
interface LoaderInternals {
  context: LoaderContext | null;
  config: LoaderConfiguration | null;
  callbacks: LoaderCallbacks<LoaderContext> | null;
  loadtimeout(): void;
}

/**
 * A request the default loader (`Hls.DefaultConfig.loader`) answers itself, recorded on it as its own
 * load() records one: hls.js's playlist loader reads `context` to tell a request under way from one
 * to abort, and the loader's abort() tells `callbacks.onAbort`.
 */
export function adoptLoad(loader: Loader<LoaderContext>, context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
  Object.assign(loader as unknown as LoaderInternals, { context, config, callbacks });
}

/** The default loader's own timeout of its request: a retry while `timeoutRetry` allows, then onTimeout. */
export function timeOut(loader: Loader<LoaderContext>): void {
  (loader as unknown as LoaderInternals).loadtimeout();
}

const track = (id: 'main' | 'audio', type: string, { codec, buffer }: EarlyMedia['buffers']['video']): SourceBufferTrack => ({
  id,
  container: `${type}/mp4`,
  codec,
  levelCodec: codec,
  buffer,
  listeners: [],
});

/**
 * The page's own start (early-media.ts) handed to `h`: its MediaSource and SourceBuffers, in the
 * track set hls.js's own media transfer (`transferMedia`) hands `attachMedia`, what they hold kept.
 */
export function takeOver(h: Hls, { media, mediaSource, buffers: { video, audio } }: EarlyMedia): void {
  keepTakenOver(h);
  h.attachMedia({ media, mediaSource, tracks: { video: track('main', 'video', video), audio: track('audio', 'audio', audio) } });
}

/**
 * What hls.js needs kept when it takes over the page's own start:
 * - It announces taken-over SourceBuffers (BUFFER_CREATED) before MEDIA_ATTACHED, whose handlers then
 *   point its stream controllers at the element: a back-buffer flush would read the element's ranges
 *   (audio and video together) for the audio's, take audio fragments ahead of the video for evicted and
 *   fetch them again. Announced again once attached, they read their own buffers, as on a plain start.
 * - Its fragment tracker drops the fragments still being appended as it takes over
 *   (`attachTransferred`, `detectEvictedFragments` with `removeAppending`), clearing their elementary
 *   streams: the first main fragment would be buffered with no video stream, its audio controller would
 *   take the stream for audio-only and lift its rule that audio loads at most one fragment ahead of the
 *   video, and in a hole the two would share the link. What hls.js parsed of that fragment is put back
 *   as its appends land, before it counts as buffered.
 */
export function keepTakenOver(h: Hls): void {
  let created: BufferCreatedData | undefined;
  h.once(Events.BUFFER_CREATED, (_e, data) => (created = data));
  h.once(Events.MEDIA_ATTACHED, () => created && h.trigger(Events.BUFFER_CREATED, created));
  const parsed = new Map<Fragment, ElementaryStreams>();
  const onParsed = (_e: Events.FRAG_PARSED, { frag }: FragParsedData) => {
    if (frag.type === 'main') parsed.set(frag, { ...frag.elementaryStreams });
  };
  const onAppended = (_e: Events.BUFFER_APPENDED, { frag }: BufferAppendedData) => {
    const streams = parsed.get(frag);
    const { video, audio, audiovideo } = frag.elementaryStreams;
    if (streams && !video && !audio && !audiovideo) frag.elementaryStreams = streams;
  };
  const onBuffered = (_e: Events.FRAG_BUFFERED, { frag }: FragBufferedData) => {
    if (frag.type !== 'main' || frag.sn === 'initSegment') return;
    h.off(Events.FRAG_PARSED, onParsed);
    h.off(Events.BUFFER_APPENDED, onAppended);
    h.off(Events.FRAG_BUFFERED, onBuffered);
    parsed.clear();
  };
  h.on(Events.FRAG_PARSED, onParsed);
  h.on(Events.BUFFER_APPENDED, onAppended);
  h.on(Events.FRAG_BUFFERED, onBuffered);
}
