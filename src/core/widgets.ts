import { widgetCss, widgetFiles } from 'virtual:widgets';
import type * as AdsWidget from '../ads/ads-widget';
import type * as AnalyticsWidget from '../analytics/analytics-widget';
import type * as HlsEngine from '../providers/hls-engine';
import type * as FingerprintWidget from '../telemetry/fingerprint-widget';
import type * as SentryWidget from '../telemetry/sentry-widget';
import type * as ControlsWidget from '../ui/controls-widget';
import type * as AudioGain from '../providers/audio-gain';
import type * as TextCues from '../providers/text-cues';
import type * as MediaExtras from '../providers/media-extras';

/** Lazy pieces by name (see build.mjs). */
export interface Widgets {
  hls: typeof HlsEngine;
  controls: typeof ControlsWidget;
  'audio-gain': typeof AudioGain;
  cues: typeof TextCues;
  ads: typeof AdsWidget;
  extras: typeof MediaExtras;
  analytics: typeof AnalyticsWidget;
  sentry: typeof SentryWidget;
  fingerprint: typeof FingerprintWidget;
}

const loads = new Map<string, Promise<unknown>>();

/**
 * Imports a lazy piece from the player-asset path with ?widget=NAME (SPEC §2), once per name and
 * base for every caller (a failed load may be tried again). The URL must be the exact one the HTML
 * preloads, query included, or the browser downloads the module twice.
 */
export function loadWidget<K extends keyof Widgets>(name: K, assetBase: string): Promise<Widgets[K]> {
  const key = assetBase + name;
  let p = loads.get(key) as Promise<Widgets[K]> | undefined;
  if (!p) {
    p = importWidget(name, assetBase);
    p.catch(() => loads.delete(key));
    loads.set(key, p);
  }
  return p;
}

function importWidget<K extends keyof Widgets>(name: K, assetBase: string): Promise<Widgets[K]> {
  const file = widgetFiles[name];
  const mod = import(/* @vite-ignore */ `${assetBase}${file}?widget=${name}`) as Promise<Widgets[K]>;
  const css = widgetCss[name];
  if (!css) return mod;
  // Its stylesheet first, so the piece never shows unstyled; a failed sheet does not block it.
  const sheet = new Promise((done) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = assetBase + css;
    link.onload = link.onerror = done;
    document.head.appendChild(link);
  });
  return Promise.all([mod, sheet]).then(([m]) => m);
}
