import type { PlayerParts } from '../core/player-api';

/** SPEC §4 ended: if a next episode exists (and moving on is allowed), it is selected and plays. */
export function attachBinge({ bus, requests }: Pick<PlayerParts, 'bus' | 'requests'>): () => void {
  return bus.on('media:ended', () => {
    requests.playNext();
  });
}
