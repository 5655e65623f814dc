import { effect } from '@preact/signals-core';
import type { PlayerParts } from '../core/player-api';
import { PROGRESS_KEY, recallMap } from '../storage/memory';
import { rememberProgress } from '../storage/remember';
import { withProgress } from '../content/progress';

/** SPEC §9: progress is saved at most once every 10 s. */
export const SAVE_INTERVAL_MS = 10_000;

interface Position {
  episodeId: number;
  variantId: number | null;
  time: number;
  duration: number;
}

/**
 * SPEC §3/§9 progress memory: saved at most once every 10 s while playing, and once more when the page
 * is hidden or closed and when the viewer moves to another episode or variant, so nothing but the
 * last seconds is ever lost (DESIGN "Nothing lost"). An episode watched to the end is forgotten, so
 * coming back to it starts from the beginning. `onSave` hears every save (timeProgressChanged).
 */
export function attachProgressMemory(
  { store, bus }: PlayerParts,
  onSave: (currentTime: number, duration: number) => void,
  win: Window = window,
  now: () => number = Date.now,
): () => void {
  let lastSave = -Infinity;
  const due = () => {
    const t = now();
    if (t - lastSave < SAVE_INTERVAL_MS) return false;
    lastSave = t;
    return true;
  };
  let latest: Position | undefined;
  let written: Position | undefined;

  const write = (p: Position, at: number | undefined) =>
    rememberProgress(p.episodeId, withProgress(recallMap(PROGRESS_KEY), p.episodeId, p.variantId, at), now());

  const save = () => {
    if (!latest || latest === written) return;
    written = latest;
    write(latest, Math.floor(latest.time));
    onSave(latest.time, latest.duration);
  };

  const stop = effect(() => {
    const time = store.currentTime.value;
    const episode = store.episode.peek();
    // sourceUrl is '' from the moment another episode is chosen until its source loads: the old
    // video's last ticks must not be booked to the new episode.
    if (!episode || time < 1 || !store.started.peek() || !store.sourceUrl.peek() || !store.isAvailable.peek()) return;
    latest = { episodeId: episode.id, variantId: store.activeVariantId.peek(), time, duration: store.duration.peek() };
    if (due()) save();
  });

  const onHide = () => {
    if (win.document.visibilityState === 'hidden') save();
  };
  win.addEventListener('pagehide', save);
  win.document.addEventListener('visibilitychange', onHide);
  const offs = [
    bus.on('content:episode-changed', () => {
      // At the end the ended handler forgets the episode; saving it here would bring it back.
      if (!store.ended.peek()) save();
      latest = undefined;
    }),
    bus.on('media:ended', () => {
      if (latest) write(latest, undefined);
      latest = undefined;
    }),
  ];

  return () => {
    stop();
    win.removeEventListener('pagehide', save);
    win.document.removeEventListener('visibilitychange', onHide);
    offs.forEach((off) => off());
  };
}
