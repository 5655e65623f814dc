import { useEffect, useMemo } from 'react';
import type { PlayerApi } from '../controller/player';
import { createTapClassifier, tapZone } from './gestures';
import type { UiState } from './ui-state';

const SKIP_S = 10;

/**
 * A transparent surface over the video (SPEC §2 gestures): single tap toggles pause (not on touch;
 * before start it is the start-play flow), double tap toggles fullscreen, or seeks ±10 s on the
 * left/right fifth.
 */
export function GestureLayer({ player, ui }: { player: PlayerApi; ui: UiState }) {
  const { store, requests } = player;
  const state = useMemo(() => ({ touch: false }), []);
  const taps = useMemo(
    () =>
      createTapClassifier({
        single: () => {
          if (state.touch) return;
          if (store.started.value) requests.togglePlay('user');
          else requests.play('user');
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
      onPointerUp={(e) => {
        if (e.button !== 0 || ui.swallowTap) return;
        const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
        state.touch = e.pointerType === 'touch';
        taps.tap(tapZone(e.clientX - rect.left, rect.width));
      }}
    />
  );
}
