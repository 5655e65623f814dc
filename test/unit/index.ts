// Runs every unit suite in one process; uvu prints the totals and sets the exit code.
import './config/parse.test';
import './config/query.test';
import './config/embed-config.test';
import './config/embedding-address.test';
import './content/episodes.test';
import './content/descriptor.test';
import './core/errors.test';
import './core/bus.test';
import './providers/engine.test';
import './ui/format-time.test';
import './ui/player.test.tsx';
import './api/token.test';
import './api/client.test';
import './api/tree-shaking.test';
import './analytics/pure.test';
import './analytics/tracker.test';
import './telemetry/telemetry.test';
