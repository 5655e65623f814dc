import type { PlayerApi } from '../core/player-api';
import { type KeyAction, type KeyTarget, keptByTarget, keyAction } from './keyboard';
import type { UiState } from './ui-state';

/** Carries out a shortcut through requests (docs/embedding.md "What the viewer gets" lists the keys). */
function runKeyAction(player: PlayerApi, action: KeyAction, lastTextTrack: { id: number }): void {
  const { store, requests } = player;
  switch (action.type) {
    case 'toggle-play':
      return requests.togglePlay('user');
    case 'seek-by':
      return requests.seekBy(action.seconds);
    case 'volume-by': {
      const base = store.muted.value ? 0 : store.volume.value;
      return requests.setVolume(Math.round(Math.max(0, Math.min(1, base + action.delta)) * 100) / 100);
    }
    case 'mute':
      return requests.toggleMute();
    case 'fullscreen':
      return requests.toggleFullscreen();
    case 'subtitles': {
      const tracks = store.textTracks.value;
      if (!tracks.length) return;
      if (store.textTrack.value >= 0) {
        lastTextTrack.id = store.textTrack.value;
        return requests.setTextTrack(-1);
      }
      const again = tracks.find((t) => t.id === lastTextTrack.id) ?? tracks[0];
      return requests.setTextTrack(again.id);
    }
    case 'jump':
      if (store.duration.value > 0) requests.seek(action.fraction * store.duration.value);
  }
}

/**
 * During an ad the keys act on the ad: play/pause and mute are the ad's, fullscreen is the player's;
 * the rest would act on the hidden content (seek it, switch its subtitles), so they do nothing.
 */
function runAdKey(player: PlayerApi, action: KeyAction): void {
  const ads = player.ads.value;
  if (action.type === 'toggle-play') ads?.togglePlay();
  else if (action.type === 'mute') ads?.toggleVolume();
  else if (action.type === 'fullscreen') player.requests.toggleFullscreen();
}

/** Shortcuts while the player has focus; sliders and buttons keep their own keys. */
export function bindShortcuts(player: PlayerApi, ui: UiState, doc: Document = document): () => void {
  const last = { id: -1 };
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented) return;
    if (e.key === 'Escape') {
      if (ui.menu.value.page) ui.dispatch({ type: 'outside' });
      else if (player.store.stretched.value) player.requests.toggleFullscreen();
      return;
    }
    const action = keyAction(e);
    if (!action || keptByTarget((e.target ?? {}) as KeyTarget, e.key)) return;
    e.preventDefault();
    if (player.store.adState.value === 'ready') return runAdKey(player, action);
    runKeyAction(player, action, last);
  };
  doc.addEventListener('keydown', onKey);
  return () => doc.removeEventListener('keydown', onKey);
}
