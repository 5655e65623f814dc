import type { PlayerParts } from '../core/player-api';
import { VARIANTS_KEY, readMap, writeStored } from '../storage/local';

/** SPEC §3 episodeVariants: content id → the variant the viewer chose. */
export function attachVariantMemory({ bus }: Pick<PlayerParts, 'bus'>): () => void {
  return bus.on('content:variant-changed', ({ episode, variant }) =>
    writeStored(VARIANTS_KEY, { ...readMap(VARIANTS_KEY), [episode.contentId]: variant.id }),
  );
}
