import { useEffect, useMemo } from 'react';
import type { PlayerApi } from '../core/player-api';
import { createTapClassifier, tapZone } from './gestures';
import { SKIP_S } from './keyboard';
import type { UiState } from './ui-state';


/**
 * A transparent surface over the video (SPEC §2 gestures): single tap toggles pause (not on touch;
 * before start it is the start-play flow), double tap toggles fullscreen, or seeks ±10 s on the
 * left/right fifth. On touch a single tap toggles the controls instead: it shows hidden ones (any
 * press does) and hides shown ones.
 */
export function GestureLayer({ player, ui }: { player: PlayerApi; ui: UiState }) {
  const { requests } = player;
  const state = useMemo(() => ({ touch: false, controlsShown: false }), []);
  const taps = useMemo(
    () =>
      createTapClassifier({
        single: () => {
          if (state.touch) {
            if (state.controlsShown) player.bus.emit('ui:hide-controls', {});
            return;
          }
          requests.togglePlay('user');
        },
        double: (zone) => {
          if (zone === 'left') requests.seekBy(-SKIP_S);
          else if (zone === 'right') requests.seekBy(SKIP_S);
          else requests.toggleFullscreen();
        },
      }),
    [player],
  );
  useEffect(() => () => taps.dispose(), [taps]);

  return (
    <div
      class="pl-gestures"
      aria-hidden="true"
      // Read before the player's own handler wakes the controls: was this press on hidden ones?
      onPointerDown={(e) => (state.controlsShown = !(e.currentTarget as HTMLElement).closest('[data-idle]'))}
      onPointerUp={(e) => {
        if (e.button !== 0 || ui.swallowTap) return;
        const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
        state.touch = e.pointerType === 'touch';
        taps.tap(tapZone(e.clientX - rect.left, rect.width));
      }}
    />
  );
}
