// /player/embed.mjs: `import { createPlayer, partnerMemory } from 'https://PLAYER_HOST/player/embed.mjs'`.
import type { Player, PlayerOptions } from './embed';
import { createPlayer as create } from './sdk';

export { partnerMemory } from './partner-memory';

/** The player page defaults to the folder this module was loaded from. */
export const createPlayer = (target: HTMLElement, options?: PlayerOptions): Player => create(target, options, import.meta.url);
