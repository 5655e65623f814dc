// The first frame from the start's own fragments (playlist-prefetch.ts EarlyStart), appended by the
// page into a MediaSource of its own while hls.js (154 kB brotli) is still to come; hls.js then takes
// the MediaSource and its SourceBuffers over (hls-engine.ts) and loads on from them. On a slow link the
// first frame then waits for the page, the playlists and the two first fragments, not for hls.js too:
// they shared the link with it (docs/performance.md "The first frame on the link").
import { deadline, whenAborted } from '../core/deadline';
import type { EarlyMedia, EarlyStart } from '../core/player-api';
import { canAppendEarly } from './start-guess';

/** Opening the MediaSource and four appends: local work, a few tens of ms; past this the engine starts as usual. */
const EARLY_APPEND_MS = 3000;
/** The start's first sample within this of 0, as hls.js places a fragment that starts the playlist; else hls.js does it. */
const START_TOLERANCE_S = 0.5;

const appended = (sb: SourceBuffer, data: ArrayBuffer, signal: AbortSignal): Promise<unknown> =>
  Promise.race([
    new Promise((done, failed) => {
      sb.addEventListener('updateend', done, { once: true });
      sb.addEventListener('error', failed, { once: true });
      sb.appendBuffer(data);
    }),
    whenAborted(signal),
  ]);

/**
 * `start` appended to `video` through a MediaSource of its own, for hls.js to take over; undefined,
 * with the element emptied again, where it cannot be (no plain MediaSource, a codec it does not take,
 * an append refused, a start away from 0): the engine then starts as it always did (canAppendEarly:
 * the same test the bootstrap made before it held hls.js back).
 */
export async function appendEarly(video: HTMLVideoElement, start: EarlyStart): Promise<EarlyMedia | undefined> {
  const types = [`video/mp4; codecs="${start.video.codec}"`, `audio/mp4; codecs="${start.audio.codec}"`];
  if (!canAppendEarly() || !types.every((t) => MediaSource.isTypeSupported(t))) return;
  const mediaSource = new MediaSource();
  const url = URL.createObjectURL(mediaSource);
  const wait = deadline(EARLY_APPEND_MS);
  try {
    video.src = url;
    await Promise.race([new Promise((open) => mediaSource.addEventListener('sourceopen', open, { once: true })), whenAborted(wait.signal)]);
    mediaSource.duration = start.duration;
    const [videoBuffer, audioBuffer] = types.map((t) => mediaSource.addSourceBuffer(t));
    const fill = (sb: SourceBuffer, init: ArrayBuffer, first: ArrayBuffer) => appended(sb, init, wait.signal).then(() => appended(sb, first, wait.signal));
    await Promise.all([fill(videoBuffer, start.video.init, start.video.first), fill(audioBuffer, start.audio.init, start.audio.first)]);
    const b = video.buffered;
    if (!b.length || b.start(0) > START_TOLERANCE_S) throw new RangeError('the start is not at 0');
    const track = (id: 'main' | 'audio', container: string, codec: string, buffer: SourceBuffer) => ({ id, container, codec, levelCodec: codec, buffer, listeners: [] as [] });
    return {
      variant: start.variant,
      media: video,
      mediaSource,
      tracks: { video: track('main', 'video/mp4', start.video.codec, videoBuffer), audio: track('audio', 'audio/mp4', start.audio.codec, audioBuffer) },
    };
  } catch (err) {
    console.warn('[player] early start skipped', err);
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
    return undefined;
  } finally {
    wait.done();
  }
}
