import { effect, signal } from '@preact/signals-core';
import { getJson, takeEarly } from '../api/http';
import type { EmbedConfig } from '../config/embed-config';
import type { AdsHandle } from '../core/ads-contract';
import type { Bus } from '../core/bus';
import type { PieceLoader } from '../core/player-api';
import type { Store } from '../core/store';

export interface GateHooks {
  /** An ad is ready: pause the content (to resume it after). */
  onReady(): void;
  /** The break is over (or there is none): the content may play. */
  onStopped(): void;
  /** Gives picture-in-picture back to the content. */
  takeContentPip?: () => Promise<void>;
}

/** Longest the ad loader may sit in 'load' before the content is released anyway. */
export const AD_LOAD_CAP_MS = 9000;

/**
 * The critical-path half of the ads (SPEC §4 ad loader state): content playback is held while the
 * loader is 'load' or 'ready' and released on 'stopped'. The ads themselves are the lazy `ads`
 * widget; a stalled or failing ad server never keeps the viewer from the content past the cap.
 */
export function createAdGate(store: Store, bus: Bus, config: EmbedConfig, load: PieceLoader, hooks: GateHooks) {
  const handle = signal<AdsHandle | undefined>(undefined);
  const stop = () => (store.adState.value = 'stopped');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const url = config.envAdListUrl;
  if (!url) {
    console.warn('[player] ENV_AD_LIST_URL is not defined');
    stop();
  } else {
    store.adState.value = 'load';
    load('ads').then(
      (m) => {
        if (store.adState.peek() === 'load')
          handle.value = m.runAds({ store, bus, getJson, takeEarly, adListUrl: url, vpaidFrameUrl: config.assetBase + 'vpaid.html', takeContentPip: hooks.takeContentPip });
      },
      (err) => {
        console.warn('[player] ads failed to load', err);
        stop();
      },
    );
  }
  const dispose = effect(() => {
    const s = store.adState.value;
    clearTimeout(timer);
    if (s === 'load') timer = setTimeout(stop, AD_LOAD_CAP_MS);
    else if (s === 'ready') hooks.onReady();
    else if (s === 'stopped') hooks.onStopped();
  });
  return {
    handle,
    holds: () => store.adState.peek() === 'load' || store.adState.peek() === 'ready',
    destroy(): void {
      dispose();
      clearTimeout(timer);
      handle.peek()?.destroy();
    },
  };
}
