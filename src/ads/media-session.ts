/**
 * SPEC §2: during the ad the media session reads 'Объявление' and offers no seeking; afterwards the
 * episode's metadata comes back. Returns the undo.
 */
export function adMediaSession(title: string, actions: { play(): void; pause(): void }): () => void {
  const ms = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined;
  if (!ms || typeof MediaMetadata !== 'function') return () => {};
  const previous = ms.metadata;
  const set = (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => {
    try {
      ms.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  };
  ms.metadata = new MediaMetadata({ title });
  for (const a of ['seekbackward', 'seekforward', 'seekto'] as const) set(a, null);
  set('play', actions.play);
  set('pause', actions.pause);
  return () => {
    ms.metadata = previous;
    set('play', null);
    set('pause', null);
  };
}
