import { useSignal } from '@preact/signals';
import { useEffect } from 'react';
import type { PlayerApi } from '../core/player-api';
import { ruUi } from '../i18n/ru-ui';
import { formatTime } from './format-time';

/** SPEC §9: a seek of at least 1 s is announced, 300 ms after the last one. */
const ANNOUNCE_THRESHOLD_S = 1;
const ANNOUNCE_DEBOUNCE_MS = 300;

export function SeekAnnouncer({ player }: { player: PlayerApi }) {
  const text = useSignal('');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = player.bus.on('media:seeked', ({ from, to }) => {
      if (Math.abs(to - from) < ANNOUNCE_THRESHOLD_S) return;
      clearTimeout(timer);
      timer = setTimeout(() => (text.value = ruUi.seekedTo(formatTime(to))), ANNOUNCE_DEBOUNCE_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [player]);
  return (
    <div class="pl-sr" role="status" aria-live="polite">
      {text}
    </div>
  );
}
