import { widgetFiles } from 'virtual:widgets';
import type * as AnalyticsWidget from '../analytics/analytics-widget';
import type * as HlsEngine from '../providers/hls-engine';
import type * as FingerprintWidget from '../telemetry/fingerprint-widget';
import type * as SentryWidget from '../telemetry/sentry-widget';
import type * as ControlsWidget from '../ui/controls-widget';

/** Lazy pieces by name (see build.mjs). */
export interface Widgets {
  hls: typeof HlsEngine;
  controls: typeof ControlsWidget;
  analytics: typeof AnalyticsWidget;
  sentry: typeof SentryWidget;
  fingerprint: typeof FingerprintWidget;
}


/**
 * Imports a lazy piece from the player-asset path with ?widget=NAME (SPEC §2). The URL must be the
 * exact one the HTML preloads, query included, or the browser downloads the module twice.
 */
export function loadWidget<K extends keyof Widgets>(name: K, assetBase: string): Promise<Widgets[K]> {
  const file = widgetFiles[name];
  return import(/* @vite-ignore */ `${assetBase}${file}?widget=${name}`) as Promise<Widgets[K]>;
}

const cache = new Map<string, Promise<unknown>>();

/** Like loadWidget, but one import per name and base, shared by every caller. */
export function widget<K extends keyof Widgets>(name: K, assetBase: string): Promise<Widgets[K]> {
  const key = assetBase + name;
  let p = cache.get(key) as Promise<Widgets[K]> | undefined;
  if (!p) {
    p = loadWidget(name, assetBase);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}
