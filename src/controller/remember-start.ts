import type { Bus } from '../core/bus';
import type { Store } from '../core/store';
import type { StartCache } from '../providers/playlist-prefetch';
import { rememberStart } from '../storage/start-memory';

/**
 * At each source's first frame, what its engine asked for first is remembered for the title
 * (storage/start-memory.ts): a returning viewer's bootstrap asks for it at once. Not for a source the
 * bootstrap could not guess (a descriptor's link) or one nothing prefetched (native playback, the
 * placeholder).
 */
export function rememberStarts(
  store: Store,
  bus: Bus,
  movie: number | undefined,
  loaded: () => { url: string; startAt: number; prefetched?: StartCache } | undefined,
): () => void {
  return bus.on('media:first-frame', () => {
    const source = loaded();
    const episode = store.episode.peek();
    const asked = source?.prefetched?.firstAsked();
    if (movie === undefined || !source || !asked || !episode || store.descriptor.peek() || source.url !== store.sourceUrl.peek()) return;
    rememberStart({ movie, episode: episode.id, variant: store.activeVariantId.peek(), master: source.url, at: source.startAt, ...asked });
  });
}
