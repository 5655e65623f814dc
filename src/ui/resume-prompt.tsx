import { useSignal, useSignalEffect } from '@preact/signals';
import { useRef } from 'react';
import type { PlayerApi } from '../core/player-api';
import { formatTime } from './format-time';
import { ruUi } from '../i18n/ru-ui';

/**
 * SPEC §2/§4 resume prompt: shown before an episode has started when a saved position exists and no
 * time code was given (t and episode_time start the first episode where they say). Once an episode
 * has started it never comes back for it, so a change of audio source does not bring it up again.
 */
export function ResumePrompt({ player }: { player: PlayerApi }) {
  const { store, requests, config } = player;
  const dismissed = useSignal('');
  const firstEpisode = useRef<number>();
  const episode = store.episode.value;
  const variant = store.activeVariantId.value;
  const key = episode ? `${episode.id}/${variant}` : '';
  useSignalEffect(() => {
    if (store.started.value) dismissed.value = `${store.episode.peek()?.id}/${store.activeVariantId.peek()}`;
  });
  if (!episode) return null;
  firstEpisode.current ??= episode.id;
  const timeCoded =
    episode.id === firstEpisode.current && (config.query.timeCode ?? config.query.episodeTime) !== undefined;
  if (
    timeCoded ||
    dismissed.value === key ||
    store.started.value ||
    store.playRequested.value ||
    !store.isAvailable.value ||
    !store.sourceUrl.value ||
    !(store.duration.value > 0)
  )
    return null;
  const saved = store.savedTime.value;
  if (!saved || saved >= store.duration.value) return null;
  const choose = (at: number) => {
    dismissed.value = key;
    if (at > 0) requests.seek(at);
    requests.play('user');
  };
  return (
    <div class="pl-resume" role="dialog" aria-label={ruUi.resumeAt(formatTime(saved, true))} onClick={(e) => e.stopPropagation()}>
      <p class="pl-resume__text">{ruUi.resumeAt(formatTime(saved, true))}</p>
      <div class="pl-resume__actions">
        <button type="button" class="pl-resume__continue" data-action="resume" onClick={() => choose(saved)}>
          {ruUi.resumeContinue}
        </button>
        <button type="button" class="pl-resume__restart" data-action="restart" onClick={() => choose(0)}>
          {ruUi.resumeRestart}
        </button>
      </div>
    </div>
  );
}
