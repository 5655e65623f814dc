import type { PlayerParts } from '../core/player-api';
import { VARIANTS_KEY } from '../storage/memory';
import { rememberEntry } from '../storage/remember';

/** SPEC §3 episodeVariants: content id → the variant the viewer chose. */
export function attachVariantMemory({ bus }: Pick<PlayerParts, 'bus'>): () => void {
  return bus.on('content:variant-changed', ({ episode, variant }) => rememberEntry(VARIANTS_KEY, episode.contentId, variant.id));
}
