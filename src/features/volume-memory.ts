import type { PlayerParts } from '../core/player-api';
import { MUTED_KEY, VOLUME_KEY, readStored, writeStored } from '../storage/local';

/**
 * SPEC §3/§4 player-volume and player-muted, saved on each change. The player restores them before
 * anything plays; that restoring event, like any event that changes nothing, is not written back.
 * The muted autoplay fallback is the browser's choice, not the viewer's, so it is not remembered.
 */
export function attachVolumeMemory({ store, bus }: PlayerParts): () => void {
  return bus.on('media:volume', ({ volume, muted }) => {
    if (store.mutedAutoplay.peek()) return;
    if (readStored(VOLUME_KEY) !== volume) writeStored(VOLUME_KEY, volume);
    if ((readStored(MUTED_KEY) ?? false) !== muted) writeStored(MUTED_KEY, muted);
  });
}
