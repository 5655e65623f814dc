import type { PlayerApi } from '../core/player-api';
import { ruUi } from '../i18n/ru-ui';
import { CastButton, FullscreenButton, MenuButtons, PlayButton, SkipButtons, TimeText } from './controls';
import { CloseIcon } from './icons-ui';
import { NextButton } from './next-episode';
import { Progress } from './progress';
import { ShareButton } from './share-button';
import type { UiState } from './ui-state';

/** SPEC §2 mobile layout below 'sm': overlay controls in top, middle and bottom groups. */
export function MobileControls({ player, ui }: { player: PlayerApi; ui: UiState }) {
  const { store, requests } = player;
  return (
    <div class="pl-mobile" onClick={(e) => e.stopPropagation()}>
      <div class="pl-mobile__top" data-group="top">
        {store.stretched.value && (
          <button type="button" class="pl-button" data-action="close" aria-label={ruUi.close} onClick={() => requests.toggleFullscreen()}>
            <CloseIcon />
          </button>
        )}
        <span class="pl-spacer" />
        <CastButton player={player} ui={ui} />
        <MenuButtons player={player} ui={ui} />
      </div>
      {store.started.value && (
        <div class="pl-mobile__middle" data-group="middle">
          <SkipButtons player={player} />
          <PlayButton player={player} paused={store.paused.value} />
          <NextButton player={player} />
        </div>
      )}
      <div class="pl-mobile__bottom" data-group="bottom">
        <Progress player={player} />
        <div class="pl-bar">
          <TimeText player={player} />
          <span class="pl-spacer" />
          <ShareButton player={player} />
          <FullscreenButton player={player} />
        </div>
      </div>
    </div>
  );
}
