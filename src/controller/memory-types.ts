import type { PlayerApi } from './player';

/** What the lazy memory pieces get from the player: its store, bus, requests and config. */
export type PlayerParts = Pick<PlayerApi, 'store' | 'bus' | 'requests' | 'config'>;
