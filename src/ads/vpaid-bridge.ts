import { type ReadonlySignal, effect } from '@preact/signals-core';
import { AdErrors } from './ad-error';
import type { AdPlayback, PlaybackEvent } from './playback';

/** A creative that has not said AdLoaded by then has failed (SPEC §8 901). */
const VPAID_INIT_TIMEOUT_MS = 6000;

/** Messages between the player and the frame carry this tag; anything else is ignored. */
export const VPAID_TAG = 'embed-player-vpaid';

export interface FrameMessage {
  tag: typeof VPAID_TAG;
  event: string;
  message?: string;
  url?: string;
  playerHandles?: boolean;
  currentTime?: number;
  duration?: number;
}

/**
 * VPAID 2.0 (SPEC §9): the creative's script runs in a sandboxed frame without same-origin rights
 * (it cannot reach the player's page, cookies or storage). The frame does the 2.0 handshake and
 * relays the creative's Ad* events, which become the same PlaybackEvents a <video> ad gives.
 */
export function createVpaidAd(
  frameUrl: string,
  creativeUrl: string,
  adParameters: string,
  volume: number,
  emit: (e: PlaybackEvent) => void,
  /** The player is fullscreen (native or stretched): the creative's view mode (SPEC §3 ad size). */
  fullscreen: ReadonlySignal<boolean>,
): AdPlayback {
  const frame = document.createElement('iframe');
  frame.className = 'pl-ad__vpaid';
  frame.title = 'VPAID';
  frame.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
  frame.setAttribute('allow', 'autoplay');
  let started = false;
  let loaded = false;
  const send = (cmd: string, extra: Record<string, unknown> = {}) =>
    frame.contentWindow?.postMessage({ tag: VPAID_TAG, cmd, ...extra }, '*');
  const timer = setTimeout(() => !loaded && emit({ type: 'error', error: AdErrors.vpaid('VPAID creative did not load') }), VPAID_INIT_TIMEOUT_MS);
  const size = () => ({
    width: frame.clientWidth || 640,
    height: frame.clientHeight || 360,
    viewMode: fullscreen.peek() ? 'fullscreen' : 'normal',
  });
  // After init, every change of the frame's size or of fullscreen is a resizeAd (VPAID 2.0 §3.1.2).
  let last = '';
  const resize = () => {
    const next = size();
    const key = `${next.width}x${next.height}:${next.viewMode}`;
    if (!last || key === last) return;
    last = key;
    send('resizeAd', next);
  };
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(resize) : undefined;
  observer?.observe(frame);
  const unwatch = effect(() => {
    fullscreen.value;
    resize();
  });

  const onMessage = (e: MessageEvent) => {
    if (e.source !== frame.contentWindow || !frame.contentWindow) return;
    const m = e.data as FrameMessage;
    if (!m || m.tag !== VPAID_TAG || typeof m.event !== 'string') return;
    switch (m.event) {
      case 'frame-ready': {
        const at = size();
        last = `${at.width}x${at.height}:${at.viewMode}`;
        return void send('init', { url: creativeUrl, params: adParameters, ...at, volume });
      }
      case 'AdLoaded':
        loaded = true;
        clearTimeout(timer);
        return emit({ type: 'canplaythrough' });
      case 'AdStarted':
      case 'AdPlaying':
        return emit({ type: 'playing' });
      case 'AdPaused':
        return emit({ type: 'pause', ended: false });
      case 'AdVideoComplete':
        return emit({ type: 'ended' });
      case 'AdSkipped':
        return emit({ type: 'skip' });
      case 'AdStopped':
      case 'AdUserClose':
        return emit({ type: 'stop' });
      case 'AdError':
        clearTimeout(timer);
        return emit({ type: 'error', error: AdErrors.vpaid(typeof m.message === 'string' ? m.message.slice(0, 200) : '') });
      case 'AdClickThru':
        return emit({ type: 'click', url: m.playerHandles && typeof m.url === 'string' ? m.url : undefined });
      case 'time':
        if (Number.isFinite(m.currentTime) && Number.isFinite(m.duration))
          emit({ type: 'time', currentTime: Math.max(0, m.currentTime!), duration: Math.max(0, m.duration!) });
    }
  };
  window.addEventListener('message', onMessage);

  return {
    el: frame,
    start() {
      frame.src = frameUrl;
    },
    async play() {
      send(started ? 'resumeAd' : 'startAd');
      started = true;
      return true;
    },
    pause() {
      send('pauseAd');
    },
    setVolume(v) {
      send('setAdVolume', { value: v });
    },
    skip() {
      send('skipAd');
    },
    destroy() {
      clearTimeout(timer);
      observer?.disconnect();
      unwatch();
      window.removeEventListener('message', onMessage);
      send('stopAd');
      frame.remove();
    },
  };
}
