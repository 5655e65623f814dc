// Runs every unit suite in one process; uvu prints the totals and sets the exit code.
import './config/parse.test';
import './config/query.test';
import './config/embed-config.test';
import './config/embedding-address.test';
import './content/episodes.test';
import './content/descriptor.test';
import './controller/player.test';
import './core/errors.test';
import './core/bus.test';
import './providers/engine.test';
import './providers/playlist-prefetch.test';
import './ui/format-time.test';
import './ui/player.test.tsx';
import './ads/vast.test';
import './ads/runner.test';
import './ads/gate.test';
