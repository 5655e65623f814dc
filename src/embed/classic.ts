// /player/embed.js (classic script): window.EmbedPlayer.createPlayer and .partnerMemory. The build
// wraps it as an IIFE named EmbedPlayer.
import type { Player, PlayerOptions } from './embed';
import { createPlayer as create } from './sdk';

export { partnerMemory } from './partner-memory';

// Read while the script runs: afterwards document.currentScript is another script or null.
const base = (document.currentScript as HTMLScriptElement | null)?.src || location.href;

/** The player page defaults to the folder this script was loaded from. */
export const createPlayer = (target: HTMLElement, options?: PlayerOptions): Player => create(target, options, base);
