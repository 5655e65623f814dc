// Lazy piece "fingerprint": the device identity of SPEC §1/§9, kept in the device_fp cookie that
// every request then sends as X-Session-Context (api/http.ts commonHeaders).
import { load } from '@fingerprintjs/fingerprintjs';
import type { PastEvent } from '../core/bus';
import type { PlayerApi } from '../core/player-api';
import { writeCookie } from '../storage/write-cookie';

/** SPEC §9. */
export const DEVICE_COOKIE = 'device_fp';
export const DEVICE_COOKIE_MAX_AGE = 31_536_000;
export const COMPONENT_TIMEOUT_MS = 1000;

type Agent = { get(): Promise<{ visitorId: string }> };

/**
 * Computes the visitor id and stores it. Gives up after the component timeout; any failure leaves
 * the cookie (and so the header) as it was and never touches playback. Resolves to the id or undefined.
 */
export async function identify(
  loadAgent: () => Promise<Agent> = () => load({ monitoring: false }),
  timeoutMs = COMPONENT_TIMEOUT_MS,
): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`fingerprint took over ${timeoutMs} ms`)), timeoutMs);
    });
    const { visitorId } = await Promise.race([loadAgent().then((agent) => agent.get()), timeout]);
    if (!visitorId) throw new Error('empty visitor id');
    if (!writeCookie(DEVICE_COOKIE, visitorId, { maxAge: DEVICE_COOKIE_MAX_AGE })) throw new Error('cookies unavailable');
    return visitorId;
  } catch (err) {
    console.warn('[player] device fingerprint unavailable', err);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * FingerprintJS leaves fullscreen to read the screen frame when it reads as zero, as it does in
 * fullscreen in Chromium (its getUnstableScreenFrame): a viewer would be thrown out of fullscreen.
 * So the identity waits until the player is not in fullscreen.
 */
export function start(player: PlayerApi, _past: PastEvent[], doc: Document = document, run: () => unknown = identify): void {
  if (!doc.fullscreenElement) return void run();
  const onChange = () => {
    if (doc.fullscreenElement) return;
    off();
    void run();
  };
  const off = () => doc.removeEventListener('fullscreenchange', onChange);
  doc.addEventListener('fullscreenchange', onChange);
  player.onDestroy(off);
}
