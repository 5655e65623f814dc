// Lazy widget "hls": the only module that imports hls.js.
import Hls, { ErrorTypes, Events, type ErrorData } from 'hls.js';

export interface HlsHandlers {
  /** A fatal error hls.js could not recover from, after the retries below. */
  onFatal(data: { details: string; type: string; url?: string; response?: unknown }): void;
}

export interface HlsHandle {
  destroy(): void;
  hls: Hls;
}

const NETWORK_RETRY_DELAY_MS = 5000;

/**
 * Starts on the lowest rendition (about -0.7 s to first frame on a slow network, DESIGN) and lets ABR
 * climb. A fatal network error is retried once after 5 s (SPEC §8, streaming code 27); a media error
 * is recovered once, then the codec swap is tried, as hls.js recommends.
 */
export function attachHls(video: HTMLVideoElement, url: string, startAt: number, handlers: HlsHandlers): HlsHandle {
  let networkRetries = 0;
  let mediaRecoveries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hls = create(startAt);
  const handle: HlsHandle = {
    get hls() {
      return hls;
    },
    destroy() {
      clearTimeout(timer);
      hls.destroy();
    },
  };

  function create(at: number): Hls {
    const h = new Hls({
      startLevel: 0,
      testBandwidth: false,
      capLevelToPlayerSize: true,
      startPosition: at > 0 ? at : -1,
      backBufferLength: 30,
    });
    h.on(Events.ERROR, (_e, data) => onError(h, data));
    h.loadSource(url);
    h.attachMedia(video);
    return h;
  }

  function onError(h: Hls, data: ErrorData) {
    if (!data.fatal || h !== hls) return;
    if (data.type === ErrorTypes.NETWORK_ERROR && networkRetries++ < 1) {
      const at = video.currentTime;
      timer = setTimeout(() => {
        hls.destroy();
        hls = create(at);
      }, NETWORK_RETRY_DELAY_MS);
      return;
    }
    if (data.type === ErrorTypes.MEDIA_ERROR && mediaRecoveries < 2) {
      if (mediaRecoveries++ === 1) h.swapAudioCodec();
      h.recoverMediaError();
      return;
    }
    handlers.onFatal({
      details: data.details,
      type: data.type,
      url: data.url ?? data.context?.url,
      response: data.response,
    });
  }

  return handle;
}
