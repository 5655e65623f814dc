import { computed, effect, signal } from '@preact/signals-core';
import type { AdsHost } from '../core/ads-contract';
import { vastError } from '../core/errors';
import { createBreaks } from './ad-break';
import { type AdError, AdErrors } from './ad-error';
import { type AdList, fetchAdList } from './ad-list';
import type { AdSession, SessionContext } from './ad-session';
import { type AdStatus, isFinal } from './ad-status';
import { createPixels } from './pixels';
import { fetchVastText } from './vast-load';
import { safeUrl } from './vast-parse';
import { offsetSeconds } from './vast-time';
import { type PlayState, VISIBILITY_THRESHOLD, shouldPlay } from './visibility';

/** SPEC §4: mid-roll for content longer than this, at half its duration. */
const MIDROLL_MIN_DURATION = 1800;
const VOLUME_STEP = 0.05;

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
  /**
   * The break was asked to play: the viewer's play (a gesture, so the ad may have sound), autoplay,
   * or the film playing when a mid-roll came. Until then a loaded pre-roll waits unseen under the
   * big play button, and nothing bills (impression and start fire on the ad's first frame played).
   */
  const begun = signal(false);
  /** One <video> for every ad: an engine that let it play with sound once (WebKit) lets it again. */
  const adVideo = document.createElement('video');
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
  let end: ((s: AdStatus, error?: AdError) => void) | undefined;
  const slot = signal<HTMLElement | null>(null);
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
    adVideo,
    volume,
    playState,
    setPlayState,
    report,
    clickThrough: (url, open) => clickThrough(url, open),
    slot,
    setEnd: (fn) => (end = fn),
  };
  const breaks = createBreaks(ctx, fetchText, () => root, life.signal);

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
      const state = store.adState.value;
      if (state === 'stopped') begun.value = false;
      else if (store.playRequested.value) begun.value = true;
    }),
    effect(() => {
      const s = session.value;
      const st = s?.status.value;
      const want = begun.value && shouldPlay(playState.value);
      // An ad that never played has nothing to pause; asked, it plays at once (inside the viewer's click).
      if (!s || !st || isFinal(st) || (!want && (st === 'created' || st === 'loaded'))) {
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
      if (breaks.active() || store.adState.peek() !== 'stopped') return;
      midrollDone.add(ep);
      void breaks.run('midroll', list.midroll);
    }),
    // The gate may release the content on its own (hard cap): whatever is loading or playing stops.
    effect(() => {
      if (store.adState.value === 'stopped' && breaks.active()) {
        breaks.abort();
        end?.('stopped');
      }
    }),
    // A fatal error ends the break at once: the ad stops and no further pixel fires (DESIGN "One error model").
    bus.on('player:error', ({ error }) => {
      if (!error.fatal || !breaks.active()) return;
      breaks.abort();
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
    await breaks.run('preroll', list.preroll);
    if (!breaks.active() && store.adState.peek() !== 'stopped') store.adState.value = 'stopped';
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
    begun,
    volume,
    playState,
    canSkip,
    /** The overlay's element for the ad media, and the element whose visibility counts. */
    mount(el: HTMLElement | null, playerEl: HTMLElement | null): void {
      slot.value = el;
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
      breaks.abort();
      observer?.disconnect();
      disposers.forEach((d) => d());
    },
  };
}

export type AdRunner = ReturnType<typeof startAds>;
