// The player's frame: the <video>, the spinner, the big play button, the unmute chip and the SPEC §8
// screens. Critical path, so plain DOM driven by signals, not preact: preact (~4 kB brotli) loads with
// the lazy pieces that render with it, the controls and the ad overlay, which the frame mounts into
// slots of their own (`display: contents`, so they lay out as the frame's children).
import { effect, signal, untracked } from '@preact/signals-core';
import type { PlayerApi } from '../core/player-api';
import type { PlayerError } from '../core/errors';
import { errorScreen } from './error-screen';
import { ru } from '../i18n/ru';

const HIDE_DELAY_MS = 2000;

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  el.className = className;
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  return el;
};

/**
 * Mounts the player's frame into `mount` and attaches the player to its <video> (in the next task:
 * the first render's task stays short). Returns what unmounts it and lets go of the player.
 */
export function mountPlayer(player: PlayerApi, mount: HTMLElement): () => void {
  const { store, bus, requests } = player;
  const idle = signal(false);
  let live = true;
  let timer: ReturnType<typeof setTimeout> | undefined;

  // Controls auto-hide after 2000 ms without activity while playing; the delay is infinite while the
  // source preloads, i.e. until it plays for the first time (SPEC §9).
  const wake = () => {
    idle.value = false;
    clearTimeout(timer);
    timer = setTimeout(() => (idle.value = !store.controlsHeld.peek()), HIDE_DELAY_MS);
  };

  const frame = element('div', 'pl', { tabindex: '-1', 'aria-label': ru.playerLabel });
  for (const type of ['pointermove', 'pointerdown', 'keydown']) frame.addEventListener(type, wake);
  // The engine's own picture-in-picture toggle (Firefox) sits over the picture's right edge and takes
  // the clicks meant for the menus there; the player's button asks for it (media-extras.ts).
  const video = element('video', 'pl-video', { playsinline: '', crossorigin: 'anonymous', preload: 'metadata', disablepictureinpicture: '' });
  video.onclick = () => requests.togglePlay('user');
  const chromeSlot = element('div', 'pl-slot');
  const spinner = element('div', 'pl-spinner', { role: 'status', 'aria-label': ru.loadingLabel });
  const bigPlay = element('button', 'pl-big-play', { type: 'button', 'aria-label': ru.playLabel });
  bigPlay.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M8 5v14l11-7z"/></svg>';
  bigPlay.onclick = () => requests.play('user');
  const unmute = element('button', 'pl-unmute', { type: 'button' });
  unmute.textContent = ru.unmuteLabel;
  unmute.onclick = () => requests.toggleMute();
  const adsSlot = element('div', 'pl-slot');
  frame.append(video);
  mount.append(frame);

  // In the frame in this order, when shown; inserted and removed, never moved (a moved <video> may
  // pause, a moved button loses focus).
  const layers: HTMLElement[] = [video, chromeSlot, spinner, bigPlay, unmute, adsSlot];
  const show = (el: HTMLElement, on: boolean) => {
    if (!on) return el.remove();
    if (el.parentNode === frame) return;
    const after = layers.slice(layers.indexOf(el) + 1).find((l) => l.parentNode === frame);
    frame.insertBefore(el, after ?? null);
  };
  const flag = (name: string, on: boolean) => (on ? frame.setAttribute(name, '') : frame.removeAttribute(name));

  let shownError: PlayerError | null = null;
  let errorEl: HTMLElement | undefined;
  // A lazy piece's layer (the controls, the ad overlay), mounted while there is no error.
  const pieceLayer = (slot: HTMLElement) => {
    let unmountLayer: (() => void) | undefined;
    return (mountLayer: ((into: HTMLElement) => () => void) | undefined, on: boolean) => {
      if (on && mountLayer && !unmountLayer) {
        show(slot, true);
        // The layer's own signal reads are its own, not this effect's.
        unmountLayer = untracked(() => mountLayer(slot));
      } else if (!on && unmountLayer) {
        unmountLayer();
        unmountLayer = undefined;
        show(slot, false);
      }
    };
  };
  const chromeLayer = pieceLayer(chromeSlot);
  const adsLayer = pieceLayer(adsSlot);
  const chrome = signal<((into: HTMLElement) => () => void) | undefined>(undefined);

  let askedControls = false;
  const stops = [
    // The controls piece, once the start has settled; mounted in a task after the one that evaluated
    // it: two short tasks, not one long one.
    effect(() => {
      if (askedControls || !store.startSettled.value) return;
      askedControls = true;
      player.load('controls').then(
        (m) => setTimeout(() => live && (chrome.value = (into) => m.mountChrome(into, player))),
        (err) => console.error('[player] piece controls failed to load', err),
      );
    }),
    bus.on('ui:hide-controls', () => (idle.value = !store.controlsHeld.peek())),
    effect(() => {
      if (store.paused.value || store.controlsHeld.value || !store.started.value) {
        idle.value = false;
        clearTimeout(timer);
      } else wake();
    }),
    // An effect of its own, run only when what it reads changes: each set of the poster is a new fetch
    // of it (four of 65 kB in a 3G start when the effect below set it, sharing the link with the
    // fragments). With autoplay the first frame comes first (controller/start-settled.ts), and once the
    // film has started the poster is never shown: not asked for.
    effect(() => {
      const poster = store.startSettled.value && !store.started.value && store.poster.value;
      if (poster) video.poster = poster;
      else video.removeAttribute('poster');
    }),
    effect(() => {
      const error = store.error.value;
      const started = store.started.value;
      const busy = !error && (store.loading.value || store.waiting.value || (store.playRequested.value && store.paused.value) || (store.adState.value === 'load' && !started));
      // An error screen is never covered by the chip: nothing is playing to unmute.
      const unmuteShown = store.mutedAutoplay.value && !error;
      flag('data-idle', idle.value && !store.paused.value && started);
      flag('data-started', started);
      flag('data-stretched', store.stretched.value);
      flag('data-unmute', unmuteShown);
      chromeLayer(chrome.value, !error);
      show(spinner, busy);
      show(bigPlay, !started && !error && !busy);
      show(unmute, unmuteShown);
      adsLayer(player.ads.value?.mountOverlay, !error);
      if (error !== shownError) {
        errorEl?.remove();
        shownError = error;
        errorEl = error ? frame.appendChild(errorScreen(error, requests.retry)) : undefined;
      }
    }),
  ];
  setTimeout(() => live && player.attach(video, frame));
  return () => {
    live = false;
    clearTimeout(timer);
    for (const stop of stops) stop();
    chromeLayer(undefined, false);
    adsLayer(undefined, false);
    frame.remove();
    player.destroy();
  };
}
