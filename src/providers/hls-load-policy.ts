import type Hls from 'hls.js';

type LoadPolicy = Hls['config']['fragLoadPolicy'];
/**
 * hls.js's own timers count time, not progress: a fragment still arriving at 30 kb/s would be cut.
 * Its load times are set past anything real, and the loader (`watchedLoader`) times a request out
 * once no byte of it has arrived for the playback policy's IDLE_MS (watched-loader.ts): a slow link is waited for, a silent server is not.
 * Retries as hls.js's.
 */
const UNBOUNDED_MS = 600000;
const policy = (timeouts: number, errors: number, delay: number, maxDelay: number): LoadPolicy => ({
  default: {
    maxTimeToFirstByteMs: UNBOUNDED_MS,
    maxLoadTimeMs: UNBOUNDED_MS,
    timeoutRetry: { maxNumRetry: timeouts, retryDelayMs: 0, maxRetryDelayMs: 0 },
    errorRetry: { maxNumRetry: errors, retryDelayMs: delay, maxRetryDelayMs: maxDelay },
  },
});
/**
 * Until the stream has started, a failure that persists must reach the error screen quickly: errors
 * are retried once or twice, not hls.js's six times with back-off; the media watchdog ends a start
 * that gets no byte.
 */
export const STARTING = {
  manifestLoadPolicy: policy(1, 1, 500, 1000),
  playlistLoadPolicy: policy(1, 1, 500, 1000),
  fragLoadPolicy: policy(1, 2, 500, 1000),
};
export const PLAYING = {
  manifestLoadPolicy: policy(2, 1, 1000, 8000),
  playlistLoadPolicy: policy(2, 2, 1000, 8000),
  fragLoadPolicy: policy(2, 3, 1000, 4000),
};
