/** SPEC §4 ad status values. */
export type AdStatus = 'created' | 'loaded' | 'started' | 'playing' | 'paused' | 'skipped' | 'stopped' | 'error' | 'completed';

/** What the ad's media (video element or VPAID creative) reports, plus the skip click and a stop. */
export type AdInput = 'canplaythrough' | 'playing' | 'pause' | 'ended' | 'error' | 'skip' | 'stop';

export const isFinal = (s: AdStatus) => s === 'skipped' || s === 'stopped' || s === 'error' || s === 'completed';

/**
 * SPEC §4: canplaythrough gives loaded; the first playing gives started, later ones playing; pause
 * gives paused (completed when the media has ended); ended gives completed; media error gives error;
 * a skip click gives skipped. A final status never changes again.
 */
export function nextStatus(status: AdStatus, input: AdInput, ended = false): AdStatus {
  if (isFinal(status)) return status;
  switch (input) {
    case 'canplaythrough':
      return status === 'created' ? 'loaded' : status;
    case 'playing':
      return status === 'created' || status === 'loaded' ? 'started' : 'playing';
    case 'pause':
      return ended ? 'completed' : status === 'created' || status === 'loaded' ? status : 'paused';
    case 'ended':
      return 'completed';
    case 'error':
      return 'error';
    case 'skip':
      return 'skipped';
    case 'stop':
      return 'stopped';
  }
}
