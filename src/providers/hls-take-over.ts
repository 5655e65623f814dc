import type Hls from 'hls.js';
import { type BufferAppendedData, type BufferCreatedData, type ElementaryStreams, Events, type FragBufferedData, type Fragment, type FragParsedData } from 'hls.js';

/**
 * What hls.js needs kept when it takes over the page's own start (early-media.ts: its MediaSource and
 * SourceBuffers, what they hold kept); hls.js 1.7.4's internals, pinned by the e2e's early start.
 * - It announces taken-over SourceBuffers (BUFFER_CREATED) before MEDIA_ATTACHED, whose handlers then
 *   point its stream controllers at the element: a back-buffer flush would read the element's ranges
 *   (audio and video together) for the audio's, take audio fragments ahead of the video for evicted and
 *   fetch them again. Announced again once attached, they read their own buffers, as on a plain start.
 * - Its fragment tracker drops the fragments still being appended as it takes over
 *   (`attachTransferred`, `detectEvictedFragments` with `removeAppending`), clearing their elementary
 *   streams: the first main fragment would be buffered with no video stream, its audio controller would
 *   take the stream for audio-only and lift its rule that audio loads at most one fragment ahead of the
 *   video, and in a hole the two would share the link. What hls.js parsed of that fragment is put back
 *   as its appends land, before it counts as buffered.
 */
export function keepTakenOver(h: Hls): void {
  let created: BufferCreatedData | undefined;
  h.once(Events.BUFFER_CREATED, (_e, data) => (created = data));
  h.once(Events.MEDIA_ATTACHED, () => created && h.trigger(Events.BUFFER_CREATED, created));
  const parsed = new Map<Fragment, ElementaryStreams>();
  const onParsed = (_e: Events.FRAG_PARSED, { frag }: FragParsedData) => {
    if (frag.type === 'main') parsed.set(frag, { ...frag.elementaryStreams });
  };
  const onAppended = (_e: Events.BUFFER_APPENDED, { frag }: BufferAppendedData) => {
    const streams = parsed.get(frag);
    const { video, audio, audiovideo } = frag.elementaryStreams;
    if (streams && !video && !audio && !audiovideo) frag.elementaryStreams = streams;
  };
  const onBuffered = (_e: Events.FRAG_BUFFERED, { frag }: FragBufferedData) => {
    if (frag.type !== 'main' || frag.sn === 'initSegment') return;
    h.off(Events.FRAG_PARSED, onParsed);
    h.off(Events.BUFFER_APPENDED, onAppended);
    h.off(Events.FRAG_BUFFERED, onBuffered);
    parsed.clear();
  };
  h.on(Events.FRAG_PARSED, onParsed);
  h.on(Events.BUFFER_APPENDED, onAppended);
  h.on(Events.FRAG_BUFFERED, onBuffered);
}
