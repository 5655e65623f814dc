import type Hls from 'hls.js';
import type { LoadRetries, Retry } from '../playback/tuning';

type LoadPolicy = Hls['config']['fragLoadPolicy'];
/**
 * hls.js's own timers count time, not progress: a fragment still arriving at 30 kb/s would be cut.
 * Its load times are set past anything real, and the loader (`watchedLoader`) times a request out
 * once no byte of it has arrived for the playback policy's IDLE_MS (watched-loader.ts): a slow link is waited for, a silent server is not.
 */
const UNBOUNDED_MS = 600000;
const policy = ({ timeouts, errors, delayMs, maxDelayMs }: Retry): LoadPolicy => ({
  default: {
    maxTimeToFirstByteMs: UNBOUNDED_MS,
    maxLoadTimeMs: UNBOUNDED_MS,
    timeoutRetry: { maxNumRetry: timeouts, retryDelayMs: 0, maxRetryDelayMs: 0 },
    errorRetry: { maxNumRetry: errors, retryDelayMs: delayMs, maxRetryDelayMs: maxDelayMs },
  },
});

/** The playback policy's retries (TUNING.startRetries, playRetries: `retriesFor`) as hls.js's load policies. */
export const loadPolicies = (r: LoadRetries) => ({
  manifestLoadPolicy: policy(r.manifest),
  playlistLoadPolicy: policy(r.playlist),
  fragLoadPolicy: policy(r.fragment),
});
