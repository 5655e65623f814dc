import { useComputed, useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'react';
import type { PlayerApi } from '../core/player-api';
import { formatTime } from './format-time';
import { shareAddress, shareTitle, socialLinks } from './share-url';
import { ruUi } from '../i18n/ru-ui';

/** SPEC §2 share popup (21rem): networks, a copyable link, 'Поделиться с тайм кодом:' off by default. */
export function SharePopup({ player, onClose }: { player: PlayerApi; onClose(): void }) {
  const { store, bus } = player;
  const withTime = useSignal(false);
  const copied = useSignal(false);
  const root = useRef<HTMLDivElement>(null);
  // The video is paused while sharing: the time shown is the one shared. Read live, as the pause's own
  // time update lands after the popup opens (and a seek while sharing moves what is shared).
  const time = store.currentTime.value;
  const episode = store.episode.value;
  // SPEC §2: without a season order nothing is added, so the time code cannot be offered.
  const timeable = typeof episode?.season?.order === 'number';
  const link = useComputed(() => shareAddress(location.href, store.episode.value, withTime.value ? store.currentTime.value : undefined));
  const title = shareTitle(player);

  // Listening from the commit that shows the popup (see the menu): an immediate click outside is heard.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Element | null;
      if (root.current && t && !root.current.contains(t) && !t.closest('[data-action="share"]')) onClose();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [onClose]);

  const copy = () => {
    bus.emit('ui:share', { target: 'copy', withTime: withTime.value });
    const done = () => (copied.value = true);
    try {
      navigator.clipboard.writeText(link.value).then(done, (err: unknown) => {
        console.warn('[player] share failed', err);
        root.current?.querySelector<HTMLInputElement>('.pl-share__link')?.select();
      });
    } catch (err) {
      console.warn('[player] share failed', err);
    }
  };

  return (
    <div ref={root} class="pl-share" role="dialog" aria-label={ruUi.share} onClick={(e) => e.stopPropagation()}>
      <div class="pl-share__head">
        <span class="pl-share__title">{ruUi.share}</span>
        <button type="button" class="pl-share__close" aria-label={ruUi.close} onClick={onClose}>
          ×
        </button>
      </div>
      <ul class="pl-share__targets">
        {socialLinks(link.value, title).map((s) => (
          <li key={s.id}>
            <a
              class="pl-share__target"
              data-share={s.id}
              href={s.href}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => bus.emit('ui:share', { target: s.id, withTime: withTime.value })}
            >
              {ruUi.shareTargets[s.id]}
            </a>
          </li>
        ))}
      </ul>
      <div class="pl-share__copy">
        <input
          class="pl-share__link"
          type="text"
          readOnly
          value={link}
          aria-label={ruUi.shareLink}
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <button type="button" class="pl-share__copy-button" onClick={copy}>
          {copied.value ? ruUi.copied : ruUi.copy}
        </button>
      </div>
      <label class="pl-share__time">
        <input
          type="checkbox"
          checked={withTime.value}
          disabled={!timeable}
          onChange={(e) => {
            withTime.value = (e.target as HTMLInputElement).checked;
            copied.value = false;
          }}
        />
        <span>
          {ruUi.shareWithTime} {formatTime(time, time >= 3600)}
        </span>
      </label>
    </div>
  );
}
