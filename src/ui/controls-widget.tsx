// Lazy piece "controls": everything on screen that is not needed for the first frame. The HTML
// preloads it, so it arrives in parallel with the entry, but the first frame never waits for it.
import { effect, useSignal, useSignalEffect } from '@preact/signals';
import { NARROW } from './breakpoints';
import { useEffect, useMemo } from 'react';
import { render } from 'react-dom';
import type { PlayerApi } from '../core/player-api';
import './controls.css';
import './series.css';
import './subtitles.css';
import { Controls } from './controls';
import { GestureLayer } from './gesture-layer';
import { bindMediaSession } from './media-session';
import { Menu } from './menu/menu';
import { MobileControls } from './mobile-controls';
import { SeekAnnouncer } from './seek-announcer';
import { bindShortcuts } from './shortcuts';
import { Subtitles } from './subtitles';
import { NextEpisodeCard } from './next-episode';
import { watchIntroCredits } from './intro-credits';
import { SkipIntro } from './skip-intro';
import { ResumePrompt } from './resume-prompt';
import { Title } from './title';
import { createUiState } from './ui-state';


/** Renders the controls into a layer of the player's frame (ui/player.ts); returns what unmounts them. */
export function mountChrome(into: HTMLElement, player: PlayerApi): () => void {
  render(<Chrome player={player} frame={into.parentElement} />, into);
  return () => render(null, into);
}

function Chrome({ player, frame }: { player: PlayerApi; frame: HTMLElement | null }) {
  const { store } = player;
  const ui = useMemo(createUiState, [player]);
  const narrow = useSignal(typeof matchMedia === 'function' && matchMedia(NARROW).matches);
  // The frame (ui/player.ts) says whether the controls are hidden: its data-idle.
  const controlsShown = useSignal(!frame?.hasAttribute('data-idle'));
  const marks = useMemo(() => watchIntroCredits(player, controlsShown), [player]);

  useEffect(() => {
    if (!frame) return marks.dispose;
    const seen = new MutationObserver(() => (controlsShown.value = !frame.hasAttribute('data-idle')));
    seen.observe(frame, { attributes: true, attributeFilter: ['data-idle'] });
    // While the skip button shows, the frame says so: the subtitles make room for it.
    const stopFlag = effect(() => void frame.toggleAttribute('data-skip-intro', marks.skipShown.value));
    return () => {
      seen.disconnect();
      stopFlag();
      frame.removeAttribute('data-skip-intro');
      marks.dispose();
    };
  }, [player]);

  useEffect(() => {
    const mq = typeof matchMedia === 'function' ? matchMedia(NARROW) : undefined;
    const onChange = () => (narrow.value = !!mq?.matches);
    mq?.addEventListener('change', onChange);
    const offKeys = bindShortcuts(player, ui);
    const offSession = bindMediaSession(player);
    return () => {
      mq?.removeEventListener('change', onChange);
      offKeys();
      offSession();
    };
  }, [player]);

  // Auto-hide never while a menu is open or a mouse is over the controls.
  useSignalEffect(() => {
    store.controlsHeld.value = !!ui.menu.value.page || ui.pointerOver.value;
  });

  const ready = !!store.sourceUrl.value;
  return (
    <>
      <GestureLayer player={player} ui={ui} />
      <Subtitles store={store} />
      <Title store={store} />
      <SkipIntro marks={marks} frame={frame} />
      {ready && (narrow.value ? <MobileControls player={player} ui={ui} /> : <Controls player={player} ui={ui} />)}
      <Menu player={player} ui={ui} />
      {ui.notice.value && (
        <div class="pl-notice" role="alert">
          {ui.notice.value}
        </div>
      )}
      <SeekAnnouncer player={player} />
      <NextEpisodeCard player={player} marks={marks} />
      <ResumePrompt player={player} />
    </>
  );
}
