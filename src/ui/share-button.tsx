import { useSignal } from '@preact/signals';
import { NARROW } from './breakpoints';
import type { PlayerApi } from '../core/player-api';
import { ShareIcon } from './series-icons';
import { SharePopup } from './share-popup';
import { shareAddress, shareTitle } from './share-url';
import { ruUi } from '../i18n/ru-ui';


/** SPEC §2/§4/§6 share: only with enabled_share. Starting it pauses the video (and so ends menus). */
export function ShareButton({ player }: { player: PlayerApi }) {
  const open = useSignal(false);
  if (!player.config.query.enabledShare) return null;
  const { store, bus, requests } = player;

  const start = () => {
    requests.pause('user');
    let narrow = false;
    try {
      narrow = matchMedia(NARROW).matches;
    } catch {
      narrow = false;
    }
    if (narrow && typeof navigator.share === 'function') {
      bus.emit('ui:share', { target: 'native', withTime: false });
      navigator
        .share({ title: shareTitle(player), url: shareAddress(location.href, store.episode.peek()) })
        .catch((err: unknown) => console.warn('[player] share failed', err));
      return;
    }
    bus.emit('ui:share', { target: 'popup', withTime: false });
    open.value = true;
  };

  return (
    <>
      <button
        type="button"
        class="pl-button"
        data-action="share"
        aria-label={ruUi.share}
        aria-expanded={open.value}
        onClick={() => (open.value ? (open.value = false) : start())}
      >
        <ShareIcon />
      </button>
      {open.value && <SharePopup player={player} onClose={() => (open.value = false)} />}
    </>
  );
}
