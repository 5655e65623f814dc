import { batch } from '@preact/signals-core';
import type { Bus } from '../core/bus';
import { type ErrorCode, type ErrorData, isExpected, playerError } from '../core/errors';
import type { Store } from '../core/store';

/**
 * The one place a fatal error becomes the SPEC §8 screen (store.error); errors that are not fatal
 * (the engine's recoverable ones, ads) pass by on the bus for analytics and logs.
 */
export function createErrorHandling(store: Store, bus: Bus, pauseContent: () => void) {
  // A page going away cuts its requests ("Failed to fetch"): that is not a failure to show or report.
  let leaving = false;
  const onPageHide = () => (leaving = true);
  const onPageShow = () => (leaving = false);
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  const off = bus.on('player:error', ({ error }) => {
    if (!error.fatal || store.error.peek()) return;
    if (error.code !== 'content-blocked') pauseContent();
    batch(() => {
      store.error.value = error;
      store.loading.value = false;
    });
    if (!isExpected(error)) console.error(`[player] ${error.code}: ${error.message}`, error.data?.cause ?? '');
  });
  return {
    /** Raises a fatal error of the controller's own (content, source, media), once. */
    fail(code: ErrorCode, message: string, data?: ErrorData): void {
      if (store.error.peek() || leaving) return;
      bus.emit('player:error', { error: playerError(code, message, data) });
    },
    dispose(): void {
      off();
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
    },
  };
}
