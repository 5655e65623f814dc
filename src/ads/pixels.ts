import { fillMacros } from './macros';
import type { Tracking } from './vast-parse';
import { offsetSeconds } from './vast-time';

/** Tracking URLs of one ad, every wrapper level merged. */
export interface AdPixels {
  impressions: string[];
  errors: string[];
  tracking: Tracking[];
  clickTracking: string[];
}

export type Send = (url: string) => void;

/** Fire-and-forget: keepalive survives the page closing, no-cors needs no preflight from the ad server. */
const sendPixel: Send = (url) => {
  try {
    fetch(url, { keepalive: true, mode: 'no-cors', credentials: 'include', cache: 'no-store' }).catch(() => {});
  } catch {
    // A refused request (CSP, bad URL) must never break the ad.
  }
};

/** SPEC §7 tracking: each event (and each progress offset) fires at most once per ad. */
export function createPixels(pixels: AdPixels, send: Send = sendPixel) {
  const fired = new Set<string>();
  const once = (key: string, urls: string[], code?: number) => {
    if (fired.has(key)) return;
    fired.add(key);
    for (const u of urls) send(fillMacros(u, code));
  };
  const urlsOf = (event: string) => pixels.tracking.filter((t) => t.event === event && !t.offset).map((t) => t.url);
  return {
    /** start, loaded, resume, pause, complete, skip, mute, unmute, firstQuartile, midpoint, thirdQuartile… */
    event(name: string): void {
      once(name, urlsOf(name));
    },
    impression(): void {
      once('impression', pixels.impressions);
    },
    click(): void {
      once('click', pixels.clickTracking);
    },
    error(code: number): void {
      once('error', pixels.errors, code);
    },
    /** Quartiles and progress offsets reached at `time` of an ad lasting `duration`. */
    progress(time: number, duration: number): void {
      if (duration > 0) {
        const q = time / duration;
        if (q >= 0.25) once('firstQuartile', urlsOf('firstQuartile'));
        if (q >= 0.5) once('midpoint', urlsOf('midpoint'));
        if (q >= 0.75) once('thirdQuartile', urlsOf('thirdQuartile'));
      }
      pixels.tracking.forEach((t, i) => {
        if (t.offset && time >= offsetSeconds(t.offset, duration)) once(`progress${i}`, [t.url]);
      });
    },
    fired: (key: string) => fired.has(key),
  };
}

export type Pixels = ReturnType<typeof createPixels>;
