/**
 * SPEC §2: during the ad the media session reads 'Объявление' and offers no seeking; afterwards the
 * episode's metadata comes back. Returns the undo. Action handlers cannot be read back, so the
 * content's own play/pause handlers are left alone (the gate holds content play while the ad runs)
 * and the seek ones are for the content's media-session code to register again after the ad.
 */
export function adMediaSession(title: string): () => void {
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
  const mine = new MediaMetadata({ title });
  ms.metadata = mine;
  for (const a of ['seekbackward', 'seekforward', 'seekto'] as const) set(a, null);
  return () => {
    // The content's own metadata, set since (its code loaded during the ad), stays.
    if (ms.metadata === mine) ms.metadata = previous;
  };
}
