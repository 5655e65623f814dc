// Lazy widget "controls": everything on screen that is not needed for the first frame. The HTML
// preloads it, so it arrives in parallel with the entry, but the first frame never waits for it.
import type { PlayerApi } from '../controller/player';
export { attachMemory } from '../controller/memory';
import { Controls } from './controls';
import { NextEpisodeCard } from './next-episode';
import { ResumePrompt } from './resume-prompt';
import { adoptSeriesStyles } from './series-style';
import { Title } from './title';

export function Chrome({ player }: { player: PlayerApi }) {
  const { store } = player;
  adoptSeriesStyles();
  return (
    <>
      <Title store={store} />
      {store.sourceUrl.value && <Controls player={player} />}
      <NextEpisodeCard player={player} />
      <ResumePrompt player={player} />
    </>
  );
}
