import { computed, effect, signal } from '@preact/signals';
import type { AdHistoryItem } from '../core/bus';
import { vastError } from '../core/errors';
import type { AdsHost } from '../core/player-api';
import { type AdError, AdErrors, isAdError } from './ad-error';
import { type AdList, fetchAdList } from './ad-list';
import { type AdSession, type Outcome, type PodPlace, type SessionContext, playAd } from './ad-session';
import { type AdStatus, isFinal } from './ad-status';
import { type MediaTarget, pickMediaFile } from './media-file';
import { createPixels } from './pixels';
import { fetchVastText, loadVast, resolveAd } from './vast-load';
import { type VastDoc, type VastFailure, safeUrl } from './vast-parse';
import { offsetSeconds } from './vast-time';
import { type PlayState, VISIBILITY_THRESHOLD, shouldPlay } from './visibility';

/** SPEC §4: mid-roll for content longer than this, at half its duration. */
const MIDROLL_MIN_DURATION = 1800;
const VOLUME_STEP = 0.05;

const canPlayType = (type: string) => {
  try {
    return document.createElement('video').canPlayType(type) !== '';
  } catch {
    return false;
  }
};

/** The player's size and the browser's bandwidth estimate, for the media file choice. */
function mediaTarget(root: HTMLElement | null): MediaTarget {
  const downlink = (navigator as { connection?: { downlink?: number } }).connection?.downlink;
  return {
    width: root?.clientWidth || globalThis.innerWidth || 640,
    height: root?.clientHeight || globalThis.innerHeight || 360,
    kbps: typeof downlink === 'number' && downlink > 0 ? downlink * 1000 : 0,
  };
}

/**
 * The ad runner (SPEC §4): loads the ad list, plays the pre-roll queue on mount and the mid-roll
 * once per episode, drives the ad loader state the controller's gate reads, and reports every step
 * through tracking pixels and the bus. Whatever happens, it ends in 'stopped' so the content plays.
 */
export function startAds(host: AdsHost) {
  const { store, bus } = host;
  const fetchText = fetchVastText(undefined, host.takeEarly);
  const life = new AbortController();
  const session = signal<AdSession | null>(null);
  /** An ad of the current break has been on screen: the overlay keeps covering the content. */
  const shown = signal(false);
  const volume = signal(store.muted.peek() ? 0 : store.volume.peek());
  const playState = signal<PlayState>({
    isPIP: false,
    type: 'none',
    isVisible: true,
    isClick: false,
    isDocumentHidden: document.visibilityState === 'hidden',
  });
  const canSkip = computed(() => {
    const s = session.value;
    return !!s?.skipOffset && s.time.value >= offsetSeconds(s.skipOffset, s.duration.value);
  });
  let list: AdList | undefined;
  let position = 0;
  let breakCtl: AbortController | undefined;
  let end: ((s: AdStatus, error?: AdError) => void) | undefined;
  let slot: HTMLElement | null = null;
  let root: HTMLElement | null = null;
  const midrollDone = new Set<number>();
  const disposers: Array<() => void> = [];

  const setPlayState = (patch: Partial<PlayState>) => (playState.value = { ...playState.value, ...patch });
  const report = (error: AdError, errorUrls: string[]) => {
    createPixels({ impressions: [], errors: errorUrls, tracking: [], clickTracking: [] }).error(error.code);
    console.warn(`[player] ad error ${error.code}: ${error.message}`);
    bus.emit('player:error', { error: vastError(error.code, error.message) });
  };
  const ctx: SessionContext = {
    store,
    bus,
    host,
    session,
    shown,
    volume,
    playState,
    setPlayState,
    report,
    clickThrough: (url, open) => clickThrough(url, open),
    slot: () => slot,
    setEnd: (fn) => (end = fn),
  };

  async function runBreak(type: AdHistoryItem['type'], tags: string[]): Promise<void> {
    if (!tags.length) return;
    const ctl = (breakCtl = new AbortController());
    store.adState.value = 'load';
    bus.emit('ad:init', { type });
    for (const tag of tags) {
      if (ctl.signal.aborted || store.error.peek()) break;
      const outcome = await playTag(type, tag, ctl.signal);
      // SPEC §4: skipped or completed moves on to the next tag; stop and error end all ads. A tag
      // that fails to load is skipped over (a waterfall), after its error pixel fired.
      if (outcome === 'stopped' || outcome === 'error') break;
    }
    if (breakCtl !== ctl) return;
    breakCtl = undefined;
    shown.value = false;
    if (!life.signal.aborted) store.adState.value = 'stopped';
  }

  /** A VAST that failed to load or resolve: its code to the Error URLs it names, unless the break stopped. */
  function loadFailed(err: unknown, abort: AbortSignal): Outcome {
    if (abort.aborted) return 'stopped';
    const f = err as VastFailure;
    report(isAdError(f) ? f : AdErrors.unknown, f?.errorUrls ?? []);
    return 'load-error';
  }

  /**
   * One tag of the break: a single ad, a pod (ads with `sequence`, in order) or a buffet. A pod ad
   * or the single ad that fails before it shows (wrapper, no linear, media) is replaced by the next
   * stand-alone ad of the answer, as IMA does; a pod ad without a replacement is left out.
   */
  async function playTag(type: AdHistoryItem['type'], tag: string, abort: AbortSignal): Promise<Outcome> {
    store.adState.value = 'load';
    let res;
    try {
      res = await loadVast(tag, abort, fetchText);
    } catch (err) {
      return loadFailed(err, abort);
    }
    const pod = res.ads.filter((a) => a.sequence !== undefined).sort((a, b) => a.sequence! - b.sequence!);
    const buffet = res.ads.filter((a) => a.sequence === undefined);
    const slots = pod.length ? pod : buffet.splice(0, 1);
    let outcome: Outcome = 'load-error';
    for (let i = 0; i < slots.length; i++) {
      for (let ad: VastDoc | undefined = slots[i]; ad; ad = buffet.shift()) {
        if (abort.aborted || store.error.peek()) return 'stopped';
        outcome = await playOne(type, tag, ad, abort, { index: i + 1, size: slots.length });
        if (outcome !== 'load-error') break;
      }
      if (outcome === 'stopped' || outcome === 'error') break;
    }
    return outcome;
  }

  async function playOne(type: AdHistoryItem['type'], tag: string, ad: VastDoc, abort: AbortSignal, pod: PodPlace): Promise<Outcome> {
    store.adState.value = 'load';
    let vast;
    try {
      vast = await resolveAd(ad, abort, fetchText);
    } catch (err) {
      return loadFailed(err, abort);
    }
    const pixels = createPixels(vast.pixels);
    let file;
    try {
      file = pickMediaFile(vast.doc.mediaFiles, canPlayType, mediaTarget(root));
    } catch (err) {
      const e = isAdError(err) ? err : AdErrors.unknown;
      pixels.error(e.code);
      report(e, []);
      return 'load-error';
    }
    const duration = store.duration.peek();
    const item: AdHistoryItem = {
      id: vast.doc.adId || tag,
      type,
      position: ++position,
      duration: vast.doc.duration ?? 0,
      perc: duration > 0 ? Math.round((store.currentTime.peek() / duration) * 100) : 0,
    };
    return playAd(ctx, { item, pixels, file, doc: vast.doc, abort, pod });
  }

  function togglePlay(play = !shouldPlay(playState.peek())): void {
    setPlayState({ type: play ? 'play' : 'pause', isClick: true });
  }

  /** The overlay's link navigates by itself; a VPAID creative that leaves it to the player is opened here. */
  function clickThrough(url = session.peek()?.clickThrough, open = false): void {
    const s = session.peek();
    if (!s) return;
    url = safeUrl(url);
    if (open && url) window.open(url, '_blank', 'noopener');
    s.pixels.click();
    bus.emit('ad:click', { ad: s.item, href: url ?? '' });
    // The viewer went to the advertiser: the ad waits for them.
    setPlayState({ type: 'pause', isClick: true });
  }
  // Play or pause the ad when what should happen changes (SPEC §4 visibility rules).
  let lastWant: boolean | undefined;
  disposers.push(
    effect(() => {
      const s = session.value;
      const st = s?.status.value;
      const want = shouldPlay(playState.value);
      if (!s || !st || st === 'created' || isFinal(st)) {
        lastWant = undefined;
        return;
      }
      if (want === lastWant && st !== 'loaded') return;
      lastWant = want;
      if (want) void s.playback.play();
      else s.playback.pause();
    }),
    // SPEC §4 mid-roll: content over 1800 s, once the time passes half of it, once per episode.
    effect(() => {
      const t = store.currentTime.value;
      const d = store.duration.value;
      const ep = store.episode.value?.id;
      if (!list || ep === undefined || d <= MIDROLL_MIN_DURATION || t <= d / 2 || midrollDone.has(ep) || store.error.value) return;
      if (breakCtl || store.adState.peek() !== 'stopped') return;
      midrollDone.add(ep);
      void runBreak('midroll', list.midroll);
    }),
    // The gate may release the content on its own (hard cap): whatever is loading or playing stops.
    effect(() => {
      if (store.adState.value === 'stopped' && breakCtl) {
        breakCtl.abort();
        end?.('stopped');
      }
    }),
    // A fatal error ends the break at once: the ad stops and no further pixel fires (DESIGN "One error model").
    bus.on('player:error', ({ error }) => {
      if (!error.fatal || !breakCtl) return;
      breakCtl.abort();
      end?.('stopped');
    }),
    bus.on('parent:command', ({ actionType }) => {
      if (session.peek()) setPlayState({ type: actionType, isClick: true });
    }),
  );
  const onVisibility = () => setPlayState({ isDocumentHidden: document.visibilityState === 'hidden' });
  document.addEventListener('visibilitychange', onVisibility);
  disposers.push(() => document.removeEventListener('visibilitychange', onVisibility));

  void (async () => {
    try {
      list = await fetchAdList(host.adListUrl, host.getJson, life.signal);
    } catch (err) {
      // SPEC §8: ads are off, the loader stops and the content plays if it was to autoplay.
      console.warn('[player] ad list failed to load', err);
    }
    if (life.signal.aborted) return;
    // No break once the player shows an error screen: nobody would see the ad, yet it would bill.
    if (!list || store.adState.peek() === 'stopped' || store.error.peek()) {
      store.adState.value = 'stopped';
      return;
    }
    await runBreak('preroll', list.preroll);
    if (!breakCtl && store.adState.peek() !== 'stopped') store.adState.value = 'stopped';
  })();

    /** SPEC §5: 0..1 in steps of 0.05; a non-numeric value is ignored with a warning. */
  function setVolume(raw: unknown): void {
    const v = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    if (!Number.isFinite(v)) {
      console.warn('[player] ad volume is not a number:', raw);
      return;
    }
    const next = Math.round(Math.min(1, Math.max(0, v)) / VOLUME_STEP) * VOLUME_STEP;
    const prev = volume.peek();
    volume.value = +next.toFixed(2);
    const s = session.peek();
    s?.playback.setVolume(volume.peek());
    if (s && prev > 0 && next === 0) s.pixels.event('mute');
    if (s && prev === 0 && next > 0) s.pixels.event('unmute');
  }

  let observer: IntersectionObserver | undefined;
  return {
    session,
    shown,
    volume,
    playState,
    canSkip,
    /** The overlay's element for the ad media, and the element whose visibility counts. */
    mount(el: HTMLElement | null, playerEl: HTMLElement | null): void {
      slot = el;
      root = playerEl;
      if (!el) end?.('error', AdErrors.cantPlay('the ad was taken off the page'));
      const s = session.peek();
      if (el && s && s.playback.el.parentNode !== el) el.append(s.playback.el);
      observer?.disconnect();
      observer = undefined;
      if (playerEl && typeof IntersectionObserver === 'function') {
        observer = new IntersectionObserver(
          (entries) => setPlayState({ isVisible: entries[entries.length - 1].intersectionRatio >= VISIBILITY_THRESHOLD }),
          { threshold: [0, VISIBILITY_THRESHOLD, 1] },
        );
        observer.observe(playerEl);
      }
    },
    togglePlay,
    setVolume,
    /** SPEC §9: the button toggles 0 and 1. */
    toggleVolume(): void {
      setVolume(volume.peek() === 0 ? 1 : 0);
    },
    /** SPEC §5: only when canSkip. */
    skip(): void {
      const s = session.peek();
      if (!s || !canSkip.peek()) return;
      bus.emit('ad:skip', { ad: s.item });
      s.playback.skip();
      s.input('skip');
    },
    clickThrough,
    destroy(): void {
      life.abort();
      breakCtl?.abort();
      observer?.disconnect();
      disposers.forEach((d) => d());
    },
  };
}

export type AdRunner = ReturnType<typeof startAds>;
