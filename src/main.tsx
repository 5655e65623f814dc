// The only module with side effects at import: read the config, start loading, mount the player.
import { continueStart } from './bootstrap/continue';
import { pageDomain, readPageConfig } from './bootstrap/page-config';
import { createPlayer } from './controller/player';
import { createPieceLoader } from './core/pieces';
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
// The bootstrap and this entry often run in one task (both arrived together): starting the content
// and mounting the frame come in tasks of their own, each well under 50 ms (no long task).
setTimeout(() => {
  void player.start();
  setTimeout(() => mountPlayer(player, mount));
});
