// The only module with side effects at import: read the config, start loading, mount the player.
import { continueStart } from './bootstrap/continue';
import { pageDomain, readPageConfig } from './bootstrap/page-config';
import { createPlayer } from './controller/player';
import { createPieceLoader } from './core/pieces';
import { FIRST_ASK_WAIT_MS, firstAsk } from './providers/start-guess';
import { mountPlayer } from './ui/player';
import './ui/player.css';

const mount = document.getElementById('root') ?? document.body;
const config = readPageConfig(mount, import.meta.url);
const domain = pageDomain();
// The bootstrap's start, carried on from the episodes' answer (bootstrap/continue.ts).
continueStart(config, domain);

const player = createPlayer(config, {
  domain,
  pageUrl: location.href,
  load: createPieceLoader(config.assetBase),
});
// Where this entry lands as the episodes answer (a slow device: 4x CPU), its start and first render
// ran before the bootstrap's handler of that answer and held its master request ~100 ms: they wait
// for it, FIRST_ASK_WAIT_MS at most (a slow catalogue does not hold the interface longer).
// Starting the content and mounting the frame come in tasks of their own, each well under 50 ms (no
// long task).
void firstAsk(FIRST_ASK_WAIT_MS).then(() =>
  setTimeout(() => {
    void player.start();
    setTimeout(() => mountPlayer(player, mount));
  }),
);
