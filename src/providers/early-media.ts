// The first frame from the start's own fragments (playlist-prefetch.ts EarlyStart), appended by the
// page into a MediaSource of its own while hls.js (154 kB brotli) is still to come; hls.js then takes
// the MediaSource and its SourceBuffers over (hls-engine.ts) and loads on from them. On a slow link the
// first frame then waits for the page, the playlists and the two first fragments, not for hls.js too:
// they shared the link with it (docs/performance.md "The first frame without hls.js").
import { bounded } from '../core/deadline';
import type { EarlyMedia, EarlyStart, EarlyTrack } from '../core/player-api';
import { canAppendEarly } from './start-guess';

/** Opening the MediaSource and an append: local work, a few tens of ms; past this the engine starts as usual. */
const EARLY_APPEND_MS = 3000;
/** The start's first sample within this of 0, as hls.js places a fragment that starts the playlist; else hls.js does it. */
const START_TOLERANCE_S = 0.5;

const appended = (sb: SourceBuffer, data: BufferSource): Promise<unknown> =>
  bounded(
    new Promise((done, failed) => {
      sb.addEventListener('updateend', done, { once: true });
      sb.addEventListener('error', failed, { once: true });
      sb.appendBuffer(data);
    }),
    EARLY_APPEND_MS,
  );

/**
 * A first fragment appended as its bytes arrive (`track.coming`), not once its last byte is in: the
 * element parses a media segment in pieces, and shows the first frame once a few frames of it are in.
 * On LTE the 240p fragment's last byte came ~200 ms after its first. What did not come through the
 * feed (a fragment fetched before it was made) goes in whole at the end.
 */
async function appendComing(sb: SourceBuffer, track: EarlyTrack): Promise<void> {
  const feed = track.coming;
  let whole: ArrayBuffer | undefined;
  let done = false;
  void track.first.then((data) => ((whole = data), (done = true), feed.arrived?.()));
  let taken = 0;
  let bytes = 0;
  for (;;) {
    const chunk = feed.chunks[taken];
    if (chunk) {
      taken++;
      bytes += chunk.byteLength;
      await appended(sb, chunk);
    } else if (done) break;
    else await new Promise<void>((wake) => (feed.arrived = wake));
  }
  if (!whole) throw new Error('a first fragment did not come');
  if (bytes < whole.byteLength) await appended(sb, whole.slice(bytes));
}

/**
 * The start (`coming`) appended to `video` through a MediaSource of its own, for hls.js to take over;
 * undefined, with the element emptied again, where it cannot be (no plain MediaSource, no start, a
 * codec it does not take, an append refused, a first fragment that did not come, a start away from 0):
 * the engine then starts as it always did (canAppendEarly: the same test the bootstrap made before it
 * held hls.js back). The MediaSource opens while the playlists are still on the link, and takes each
 * init segment as it comes: the element sets its pipeline and decoders up meanwhile, not after the
 * first fragments' last byte. On LTE the first frame came 170 ms after that byte (the opening alone
 * 20–120 ms), where the bare hls.js page's, its MediaSource open since the master, came 50 ms after it.
 * `playable` is told once both init segments are in: the film may be asked to play from then, its
 * first fragments going in as they arrive (appendComing).
 */
export async function appendEarly(video: HTMLVideoElement, coming: Promise<EarlyStart | undefined>, playable?: () => void): Promise<EarlyMedia | undefined> {
  if (!canAppendEarly()) return;
  const mediaSource = new MediaSource();
  const url = URL.createObjectURL(mediaSource);
  try {
    video.src = url;
    await bounded(new Promise((open) => mediaSource.addEventListener('sourceopen', open, { once: true })), EARLY_APPEND_MS);
    // The link's wait (the prefetch's own deadlines bound it), not the element's.
    const start = await coming;
    if (!start) throw new Error('no start to append');
    if (video.src !== url) throw new Error('another source came first');
    const types = [`video/mp4; codecs="${start.video.codec}"`, `audio/mp4; codecs="${start.audio.codec}"`];
    if (!types.every((t) => MediaSource.isTypeSupported(t))) throw new Error(`a codec the MediaSource does not take: ${types}`);
    mediaSource.duration = start.duration;
    const [videoBuffer, audioBuffer] = types.map((t) => mediaSource.addSourceBuffer(t));
    let inits = 0;
    const fill = async (sb: SourceBuffer, track: EarlyTrack) => {
      await appended(sb, track.init);
      if (++inits === 2) playable?.();
      await appendComing(sb, track);
    };
    await Promise.all([fill(videoBuffer, start.video), fill(audioBuffer, start.audio)]);
    const b = video.buffered;
    if (!b.length || b.start(0) > START_TOLERANCE_S) throw new RangeError('the start is not at 0');
    return {
      variant: start.variant,
      media: video,
      mediaSource,
      buffers: { video: { codec: start.video.codec, buffer: videoBuffer }, audio: { codec: start.audio.codec, buffer: audioBuffer } },
    };
  } catch (err) {
    console.warn('[player] early start skipped', err);
    // Another source may have come while the start was on its way: that one is not emptied.
    if (video.src === url) {
      video.removeAttribute('src');
      video.load();
    }
    URL.revokeObjectURL(url);
    return undefined;
  }
}
