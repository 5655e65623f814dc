import type { PlayerParts } from '../core/player-api';
import { MUTED_KEY, VOLUME_KEY, recall } from '../storage/memory';
import { remember } from '../storage/remember';

/**
 * SPEC §3/§4 player-volume and player-muted, saved on each change. The player restores them before
 * anything plays; that restoring event, like any event that changes nothing, is not written back.
 * The muted autoplay fallback is the browser's choice, not the viewer's, so it is not remembered.
 */
export function attachVolumeMemory({ store, bus }: PlayerParts): () => void {
  return bus.on('media:volume', ({ volume, muted }) => {
    if (store.mutedAutoplay.peek()) return;
    if (recall(VOLUME_KEY) !== volume) remember(VOLUME_KEY, volume);
    if ((recall(MUTED_KEY) ?? false) !== muted) remember(MUTED_KEY, muted);
  });
}
