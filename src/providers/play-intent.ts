/**
 * Whether the film is meant to be playing, for after the element was reset. A new MediaSource
 * (hls.js's media recovery, asked by the engine or done by hls.js itself) sets the element to paused
 * without a `pause` event, and an element that fails to decode pauses itself (Chromium: `error`, then
 * `pause`); neither is the viewer's pause. Any other pause is.
 */
export function watchPlayIntent(video: HTMLMediaElement): { playing: () => boolean; stop: () => void } {
  let playing = !video.paused;
  const onPlay = () => (playing = true);
  const onPause = () => {
    if (!video.error) playing = false;
  };
  video.addEventListener('play', onPlay);
  video.addEventListener('pause', onPause);
  return {
    playing: () => playing,
    stop() {
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
    },
  };
}
