// The only module with side effects at import: read the config, start loading, mount the player.
import { readEmbedConfig } from './config/embed-config';
import { embeddingAddress } from './config/embedding-address';
import { createPlayer } from './controller/player';
import { createPieceLoader } from './core/pieces';
import { mountPlayer } from './ui/player';
import './ui/player.css';

const mount = document.getElementById('root') ?? document.body;
let frameDataset: DOMStringMap | undefined;
try {
  frameDataset = (window.frameElement as HTMLElement | null)?.dataset;
} catch {
  frameDataset = undefined;
}

const config = readEmbedConfig({
  datasets: [mount.dataset, frameDataset],
  globals: window as unknown as Record<string, unknown>,
  search: location.search,
  scriptUrl: import.meta.url,
});

const player = createPlayer(config, {
  domain: embeddingAddress({
    inFrame: window.parent !== window,
    ancestorOrigins: location.ancestorOrigins,
    referrer: document.referrer,
    href: location.href,
  }),
  pageUrl: location.href,
  load: createPieceLoader(config.assetBase),
});
// The bootstrap and this entry often run in one task (both arrived together): starting the content
// and mounting the frame come in tasks of their own, each well under 50 ms (no long task).
setTimeout(() => {
  void player.start();
  setTimeout(() => mountPlayer(player, mount));
});
