import type { Extras } from '../core/extras-contract';
import type { PieceLoader } from '../core/player-api';
import type { Store } from '../core/store';

/**
 * The extras piece (PiP, cast, AirPlay, subtitle files, audio gain), loaded at its first use:
 * `extra` loads it if need be and runs `run` on it; `extras` runs only if it is loaded already.
 */
export function lazyExtras(video: HTMLVideoElement, store: Store, load: PieceLoader) {
  let bound: Promise<Extras> | undefined;
  const extra = (run: (x: Extras) => unknown) =>
    (bound ??= load('extras').then(
      (m) => m.bindExtras(video, store, load),
      (err) => {
        bound = undefined; // tried again at the next use
        throw err;
      },
    ))
      .then(run)
      .catch((err) => console.warn('[player] extras module failed to load', err));
  return { extra, extras: (run: (x: Extras) => unknown) => void bound?.then(run) };
}
