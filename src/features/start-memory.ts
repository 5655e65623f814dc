import { effect } from '@preact/signals-core';
import type { PlayerParts } from '../core/player-api';
import { STARTS_KEY } from '../core/memory-protocol';
import { remember } from '../storage/remember';
import { withStart } from '../storage/start-memory';

/**
 * At each source's first frame, what its engine asked for first is remembered for the title
 * (storage/start-memory.ts): a returning viewer's bootstrap asks for it at once. Not for a source the
 * bootstrap cannot guess (a descriptor's link), nor once another source has replaced it.
 */
export function attachStartMemory({ store, config }: Pick<PlayerParts, 'store' | 'config'>): () => void {
  return effect(() => {
    const first = store.firstAsked.value;
    const episode = store.episode.peek();
    const movie = config.movieId;
    if (!first || !episode || movie === undefined || store.descriptor.peek() || first.url !== store.sourceUrl.peek()) return;
    const { url: master, startAt: at, playlists, segments } = first;
    const starts = withStart({ movie, episode: episode.id, variant: store.activeVariantId.peek(), master, at, playlists, segments });
    if (starts) remember(STARTS_KEY, starts);
  });
}
