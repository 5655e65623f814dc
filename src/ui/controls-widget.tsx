// Lazy widget "controls": everything on screen that is not needed for the first frame. The HTML
// preloads it, so it arrives in parallel with the entry, but the first frame never waits for it.
import type { PlayerApi } from '../controller/player';
import { Controls } from './controls';
import { Title } from './title';

export function Chrome({ player }: { player: PlayerApi }) {
  const { store } = player;
  return (
    <>
      <Title store={store} />
      {store.sourceUrl.value && <Controls player={player} />}
    </>
  );
}
