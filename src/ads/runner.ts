import { type Signal, batch, computed, effect, signal } from '@preact/signals';
import type { AdHistoryItem } from '../core/bus';
import { vastError } from '../core/errors';
import type { AdsHost } from '../core/player-api';
import { type AdError, AdErrors, isAdError } from './ad-error';
import { type AdList, fetchAdList } from './ad-list';
import { createAdMedia } from './ad-media';
import { type AdStatus, type AdInput, isFinal, nextStatus } from './ad-status';
import { adMediaSession } from './ad-media-session';
import { isVpaid, pickMediaFile } from './media-file';
import type { AdPlayback, PlaybackEvent } from './playback';
import { type Pixels, createPixels } from './pixels';
import { ruAds } from '../i18n/ru-ads';
import { loadVast } from './vast-load';
import { type VastFailure, safeUrl } from './vast-parse';
import { type Offset, offsetSeconds } from './vast-time';
import { type PlayState, VISIBILITY_THRESHOLD, shouldPlay } from './visibility';
import { createVpaidAd } from './vpaid-bridge';


/** SPEC §4: mid-roll for content longer than this, at half its duration. */
const MIDROLL_MIN_DURATION = 1800;
/** The ad's media must be playable through within this (VAST 402). */
const MEDIA_TIMEOUT_MS = 8000;
/** An ad that should play but has not advanced for this long is given up (VAST 405). */
const STALL_MS = 8000;
const VOLUME_STEP = 0.05;

/** One ad on screen. */
export interface AdSession {
  status: Signal<AdStatus>;
  time: Signal<number>;
  duration: Signal<number>;
  skipOffset?: Offset;
  clickThrough?: string;
  /** A VPAID creative handles its own clicks: no click-through link over it. */
  vpaid: boolean;
  item: AdHistoryItem;
  playback: AdPlayback;
  pixels: Pixels;
  input(i: AdInput): void;
}

type Outcome = AdStatus | 'load-error';

const canPlayType = (type: string) => {
  try {
    return document.createElement('video').canPlayType(type) !== '';
  } catch {
    return false;
  }
};

/**
 * The ad runner (SPEC §4): loads the ad list, plays the pre-roll queue on mount and the mid-roll
 * once per episode, drives the ad loader state the controller's gate reads, and reports every step
 * through tracking pixels and the bus. Whatever happens, it ends in 'stopped' so the content plays.
 */
export function startAds(host: AdsHost) {
  const { store, bus } = host;
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
  let end: ((s: AdStatus) => void) | undefined;
  let slot: HTMLElement | null = null;
  const midrollDone = new Set<number>();
  const disposers: Array<() => void> = [];

  const setPlayState = (patch: Partial<PlayState>) => (playState.value = { ...playState.value, ...patch });
  const report = (error: AdError, errorUrls: string[]) => {
    createPixels({ impressions: [], errors: errorUrls, tracking: [], clickTracking: [] }).error(error.code);
    console.warn(`[player] ad error ${error.code}: ${error.message}`);
    bus.emit('player:error', { error: vastError(error.code, error.message) });
  };

  async function runBreak(type: AdHistoryItem['type'], tags: string[]): Promise<void> {
    if (!tags.length) return;
    const ctl = (breakCtl = new AbortController());
    store.adState.value = 'load';
    bus.emit('ad:init', { type });
    for (const tag of tags) {
      if (ctl.signal.aborted) break;
      const outcome = await playOne(type, tag, ctl.signal);
      // SPEC §4: skipped or completed moves on to the next tag; stop and error end all ads. A tag
      // that fails to load is skipped over (a waterfall), after its error pixel fired.
      if (outcome === 'stopped' || outcome === 'error') break;
    }
    if (breakCtl !== ctl) return;
    breakCtl = undefined;
    shown.value = false;
    if (!life.signal.aborted) store.adState.value = 'stopped';
  }

  async function playOne(type: AdHistoryItem['type'], tag: string, abort: AbortSignal): Promise<Outcome> {
    store.adState.value = 'load';
    let vast;
    try {
      vast = await loadVast(tag, abort);
    } catch (err) {
      if (abort.aborted) return 'stopped';
      const f = err as VastFailure;
      report(isAdError(f) ? f : AdErrors.unknown, f?.errorUrls ?? []);
      return 'load-error';
    }
    const pixels = createPixels(vast.pixels);
    let file;
    try {
      file = pickMediaFile(vast.doc.mediaFiles, canPlayType);
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
    return new Promise<Outcome>((resolve) => {
      let lastTick = -1;
      let stalled = 0;
      let lastTime = -1;
      const onEvent = (e: PlaybackEvent) => {
        const s = session.peek();
        if (!s || isFinal(s.status.peek())) return;
        switch (e.type) {
          case 'time':
            batch(() => {
              s.time.value = e.currentTime;
              if (e.duration > 0) s.duration.value = item.duration = e.duration;
            });
            pixels.progress(e.currentTime, s.duration.peek());
            if (Math.floor(e.currentTime) !== lastTick) {
              // SPEC §9: ad timeupdate at most once per second.
              lastTick = Math.floor(e.currentTime);
              bus.emit('ad:timeupdate', { ad: item, currentTime: e.currentTime });
            }
            return;
          case 'error':
            return fail(e.error);
          case 'click':
            return clickThrough(e.url, true);
          case 'volume':
            volume.value = e.volume;
            return;
          case 'native-fullscreen':
            return input('stop');
          case 'pip':
            return setPlayState({ isPIP: e.active });
          case 'pause':
            return input('pause', e.ended);
          default:
            return input(e.type);
        }
      };
      const playback: AdPlayback = isVpaid(file)
        ? createVpaidAd(host.vpaidFrameUrl, file.url, vast.doc.adParameters ?? '', volume.peek(), onEvent, store.fullscreen)
        : createAdMedia(file.url, volume.peek(), onEvent);
      const s: AdSession = {
        status: signal<AdStatus>('created'),
        time: signal(0),
        duration: signal(vast.doc.duration ?? 0),
        skipOffset: vast.doc.skipOffset,
        clickThrough: vast.doc.clickThrough,
        vpaid: isVpaid(file),
        item,
        playback,
        pixels,
        input: (i) => input(i),
      };
      const mediaTimer = setTimeout(() => fail(AdErrors.mediaTimeout(file.url)), MEDIA_TIMEOUT_MS);
      const watchdog = setInterval(() => {
        const st = s.status.peek();
        const moving = s.time.peek() !== lastTime;
        lastTime = s.time.peek();
        stalled = shouldPlay(playState.peek()) && (st === 'started' || st === 'playing') && !moving ? stalled + 1000 : 0;
        if (stalled >= STALL_MS) fail(AdErrors.mediaFile(file.url));
      }, 1000);
      const onAbort = () => input('stop');
      abort.addEventListener('abort', onAbort);
      let restoreSession: (() => void) | undefined;
      let shownOnce = false;

      function input(i: AdInput, ended = false): void {
        const prev = s.status.peek();
        const next = nextStatus(prev, i, ended);
        if (next === prev) return;
        if (prev === 'created' && !isFinal(next)) loaded();
        s.status.value = next;
        if (next === 'started') {
          pixels.impression();
          pixels.event('start');
          bus.emit('ad:play', { ad: item });
        } else if (next === 'playing' && prev === 'paused') {
          pixels.event('resume');
          bus.emit('ad:play', { ad: item });
        } else if (next === 'paused') {
          pixels.event('pause');
          bus.emit('ad:pause', { ad: item });
        } else if (next === 'completed') {
          pixels.progress(s.duration.peek(), s.duration.peek());
          pixels.event('complete');
          finish(next);
        } else if (next === 'skipped') {
          pixels.event('skip');
          finish(next);
        } else if (next === 'stopped') finish(next);
      }
      function loaded(): void {
        shownOnce = true;
        clearTimeout(mediaTimer);
        pixels.event('loaded');
        batch(() => {
          shown.value = true;
          store.adState.value = 'ready';
        });
        restoreSession ??= adMediaSession(ruAds.mediaTitle);
        // The viewer watches in picture-in-picture: the ad plays there, not behind the page.
        if (store.pip.peek()) void playback.takePip?.();
        bus.emit('ad:loaded', { ad: item });
      }
      function fail(error: AdError): void {
        if (isFinal(s.status.peek())) return;
        s.status.value = 'error';
        pixels.error(error.code);
        report(error, []);
        finish('error');
      }
      function finish(status: AdStatus): void {
        clearTimeout(mediaTimer);
        clearInterval(watchdog);
        abort.removeEventListener('abort', onAbort);
        restoreSession?.();
        if (status !== 'error' && shownOnce) bus.emit('ad:ended', { ad: item });
        end = undefined;
        session.value = null;
        const close = () => {
          setPlayState({ isPIP: false });
          playback.destroy();
          resolve(status);
        };
        // Handed back while the ad still holds the window: once it is gone, a gesture would be needed.
        if (playState.peek().isPIP && host.takeContentPip) void host.takeContentPip().finally(close);
        else close();
      }
      end = (st) => (st === 'error' ? fail(AdErrors.unknown) : input('stop'));
      // A pause the viewer chose for an earlier ad does not carry over to this one.
      setPlayState({ type: 'none', isClick: false });
      session.value = s;
      if (slot) slot.append(playback.el);
      playback.start();
    });
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
      if (!list || ep === undefined || d <= MIDROLL_MIN_DURATION || t <= d / 2 || midrollDone.has(ep)) return;
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
    bus.on('parent:command', ({ actionType }) => {
      if (actionType === 'pause' && session.peek()) setPlayState({ type: 'pause', isClick: true });
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
    if (!list || store.adState.peek() === 'stopped') {
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
    mount(el: HTMLElement | null, root: HTMLElement | null): void {
      slot = el;
      const s = session.peek();
      if (el && s && s.playback.el.parentNode !== el) el.append(s.playback.el);
      observer?.disconnect();
      observer = undefined;
      if (root && typeof IntersectionObserver === 'function') {
        observer = new IntersectionObserver(
          (entries) => setPlayState({ isVisible: entries[entries.length - 1].intersectionRatio >= VISIBILITY_THRESHOLD }),
          { threshold: [0, VISIBILITY_THRESHOLD, 1] },
        );
        observer.observe(root);
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
