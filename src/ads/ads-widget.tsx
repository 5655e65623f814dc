// Lazy piece "ads": the ad runner and its overlay. The controller's gate (ads/gate.ts) imports it
// when an ad list URL is configured, in parallel with the content; the first frame never waits for it.
import type { Signal } from '@preact/signals';
import type { AdsHandle, AdsHost } from '../core/ads-contract';
import type { AdLoaderState } from '../core/store';
import { render } from 'react-dom';
import { AdOverlay } from './ad-overlay';
import { adoptAdStyles } from './ad-overlay-css';
import { startAds } from './runner';

export function runAds(host: AdsHost): AdsHandle & ReturnType<typeof startAds> {
  adoptAdStyles();
  const runner = startAds(host);
  const adState: Signal<AdLoaderState> = host.store.adState;
  // A stable callback ref. The player's visibility counts, not the overlay's, which is hidden until
  // the ad is ready.
  const slotRef = (el: HTMLDivElement | null) => runner.mount(el, el?.closest<HTMLElement>('.pl') ?? null);
  return {
    ...runner,
    mountOverlay(into) {
      render(<AdOverlay runner={runner} adState={adState} slotRef={slotRef} />, into);
      return () => render(null, into);
    },
  };
}
