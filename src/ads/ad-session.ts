import { type ReadonlySignal, type Signal, batch, effect, signal, untracked } from '@preact/signals-core';
import type { AdsHost } from '../core/ads-contract';
import type { AdHistoryItem, Bus } from '../core/bus';
import type { Store } from '../core/store';
import { ruAds } from '../i18n/ru-ads';
import { type AdError, AdErrors } from './ad-error';
import { createAdMedia } from './ad-media';
import { adMediaSession } from './ad-media-session';
import { type AdInput, type AdStatus, isFinal, nextStatus } from './ad-status';
import { isVpaid } from './media-file';
import type { AdPlayback, PlaybackEvent } from './playback';
import type { Pixels } from './pixels';
import type { MediaFile, VastDoc } from './vast-parse';
import { type Offset, offsetSeconds } from './vast-time';
import { type PlayState, shouldPlay } from './visibility';
import { createVpaidAd } from './vpaid-bridge';

/** The ad's media must be playable through within this (VAST 402). */
const MEDIA_TIMEOUT_MS = 8000;
/**
 * How long an ad waits for the overlay to mount: the page mounts it a task or two after the start
 * (main.tsx, FIRST_ASK_WAIT_MS at most before), so an ad whose answers came first needs it within
 * a moment; one that never comes is an ad that cannot play (VAST 450), not a slow medium.
 */
export const SLOT_WAIT_MS = 1500;
/** An ad that should play but has not advanced for this long is given up (VAST 405). */
const STALL_MS = 8000;

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
  /** Where the ad stands in its pod ('Реклама 1 из 2'). */
  pod: PodPlace;
  playback: AdPlayback;
  pixels: Pixels;
  input(i: AdInput): void;
}

/** 'next-file': the media file failed before its ad loaded, and another file of the ad is left to try. */
export type Outcome = AdStatus | 'load-error' | 'next-file';

/** 1-based index of the ad in its break's pod, and the pod's size (1 for a single ad). */
export interface PodPlace {
  index: number;
  size: number;
}

/** What a playing ad shares with the runner of its break. */
export interface SessionContext {
  store: Store;
  bus: Bus;
  host: AdsHost;
  /** The ad on screen (the overlay reads it). */
  session: Signal<AdSession | null>;
  /** An ad of the current break has been on screen: the overlay keeps covering the content. */
  shown: Signal<boolean>;
  /** The <video> every ad of the runner plays in. */
  adVideo: HTMLVideoElement;
  volume: Signal<number>;
  playState: Signal<PlayState>;
  setPlayState(patch: Partial<PlayState>): void;
  /** Sends the error pixel of the levels above the ad and puts the error on the bus. */
  report(error: AdError, errorUrls: string[]): void;
  clickThrough(url?: string, open?: boolean): void;
  /** The overlay's element for the ad media, once mounted. */
  slot: ReadonlySignal<HTMLElement | null>;
  /** How the runner ends the ad from outside (a stopped break, a lost slot): set while it plays. */
  setEnd(end: ((s: AdStatus, error?: AdError) => void) | undefined): void;
}

export interface AdToPlay {
  item: AdHistoryItem;
  pixels: Pixels;
  file: MediaFile;
  doc: VastDoc;
  abort: AbortSignal;
  pod: PodPlace;
  /** No other media file of this ad is left to try: its failure is the ad's. */
  lastFile: boolean;
}

/**
 * Plays one ad (SPEC §4 ad status): media events drive its status, each status its pixels and bus
 * events; a media timeout or a stall ends it with its VAST code. Resolves with how it ended.
 */
export function playAd(ctx: SessionContext, { item, pixels, file, doc, abort, pod, lastFile }: AdToPlay): Promise<Outcome> {
  const { store, bus, host, session, shown, volume, playState, setPlayState } = ctx;
  if (abort.aborted) return Promise.resolve('stopped');
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
          return ctx.clickThrough(e.url, true);
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
      ? createVpaidAd(host.vpaidFrameUrl, file.url, doc.adParameters ?? '', volume.peek(), onEvent, store.fullscreen)
      : createAdMedia(ctx.adVideo, file.url, volume.peek(), onEvent);
    const s: AdSession = {
      status: signal<AdStatus>('created'),
      time: signal(0),
      duration: signal(doc.duration ?? 0),
      skipOffset: doc.skipOffset,
      clickThrough: doc.clickThrough,
      vpaid: isVpaid(file),
      item,
      pod,
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
    let waitingForSlot: (() => void) | undefined;

    function input(i: AdInput, ended = false): void {
      const prev = s.status.peek();
      const next = nextStatus(prev, i, ended);
      if (next === prev) return;
      if (prev === 'created' && !isFinal(next)) loaded();
      s.status.value = next;
      if (next === 'started') {
        pixels.impression();
        pixels.event('start');
        // A share of the ad's length is known in seconds once its media says how long it is.
        if (s.skipOffset) item.skipOffset = offsetSeconds(s.skipOffset, s.duration.peek());
        store.currentAd.value = item;
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
    /** `final`: the ad itself cannot play (no slot on the page), whichever file it tried. */
    function fail(error: AdError, final = false): void {
      if (isFinal(s.status.peek())) return;
      s.status.value = 'error';
      // A file that never loaded is followed by the next one: one error pixel, when none plays.
      if (!final && !lastFile && !shownOnce) {
        console.warn(`[player] ad media file failed, trying the next one: ${error.message}`);
        return finish('error', 'next-file');
      }
      pixels.error(error.code);
      ctx.report(error, []);
      finish('error');
    }
    function finish(status: AdStatus, outcome: Outcome = status): void {
      waitingForSlot?.();
      clearTimeout(mediaTimer);
      clearInterval(watchdog);
      abort.removeEventListener('abort', onAbort);
      restoreSession?.();
      if (store.currentAd.peek() === item) store.currentAd.value = null;
      if (status !== 'error' && shownOnce) bus.emit('ad:ended', { ad: item });
      ctx.setEnd(undefined);
      session.value = null;
      const close = () => {
        setPlayState({ isPIP: false });
        playback.destroy();
        resolve(outcome);
      };
      // Handed back while the ad still holds the window: once it is gone, a gesture would be needed.
      if (playState.peek().isPIP && host.takeContentPip) void host.takeContentPip().finally(close);
      else close();
    }
    ctx.setEnd((st, error) => (st === 'error' ? fail(error ?? AdErrors.unknown, true) : input('stop')));
    // A pause the viewer chose for an earlier ad does not carry over to this one.
    setPlayState({ type: 'none', isClick: false });
    session.value = s;
    // An ad plays only inside the player, on the page: never detached behind an error screen. An ad
    // whose answers came before the overlay mounted waits for it, SLOT_WAIT_MS at most.
    const begin = (slot: HTMLElement) => {
      slot.append(playback.el);
      playback.start();
    };
    const slot = ctx.slot.peek();
    if (slot) return begin(slot);
    const slotTimer = setTimeout(() => fail(AdErrors.cantPlay('the player is not on the page'), true), SLOT_WAIT_MS);
    const stopWaiting = effect(() => {
      const found = ctx.slot.value;
      if (found)
        untracked(() => {
          waitingForSlot?.();
          begin(found);
        });
    });
    waitingForSlot = () => {
      waitingForSlot = undefined;
      clearTimeout(slotTimer);
      stopWaiting();
    };
  });
}
