import { type ReadonlySignal, effect } from '@preact/signals-core';
import { useEffect, useState } from 'preact/hooks';
import type { PieceModules, PieceName } from '../core/player-api';
import type { PlayerApi } from '../core/player-api';

/**
 * The module of a lazy piece once it has loaded (undefined until then, or if it failed), asked for
 * once `when` is true (at once without it).
 */
export function usePiece<K extends PieceName>(player: PlayerApi, name: K, when?: ReadonlySignal<boolean>): PieceModules[K] | undefined {
  const [mod, setMod] = useState<PieceModules[K]>();
  useEffect(() => {
    let live = true;
    let asked = false;
    const stop = effect(() => {
      if (asked || (when && !when.value)) return;
      asked = true;
      player.load(name).then(
        // Rendered in a task after the one that evaluated the piece: two short tasks, not one long one.
        (m) => setTimeout(() => live && setMod(() => m)),
        (err) => console.error(`[player] piece ${name} failed to load`, err),
      );
    });
    return () => {
      live = false;
      stop();
    };
  }, [player, name]);
  return mod;
}
