import { nextEpisode } from '../content/episodes';
import type { Episode } from '../content/types';
import type { PlayerParts } from './memory-types';

/** SPEC §4/§5: the next episode, when one exists and the content is available (else undefined). */
export function playableNext({ store }: Pick<PlayerParts, 'store'>): Episode | undefined {
  if (!store.isAvailable.value || store.error.value) return undefined;
  return nextEpisode(store.episodes.value, store.episode.value ?? undefined);
}

/**
 * Moves on to the next episode and plays it (from its saved position when the viewer was watching);
 * false when there is none or it is not allowed.
 */
export function playNext(parts: Pick<PlayerParts, 'store' | 'requests'>): boolean {
  const next = playableNext(parts);
  if (!next || !parts.requests.selectEpisode(next)) return false;
  parts.requests.play('user');
  return true;
}

/** SPEC §4 ended: if a next episode exists, it is selected automatically (binge). */
export function attachBinge(parts: PlayerParts): () => void {
  return parts.bus.on('media:ended', () => {
    playNext(parts);
  });
}
