// @ts-check
/**
 * The reference server under load: many keep-alive clients over a mix of the player's routes.
 * Prints requests/s, p50/p99 latency, errors and the server's heap after a forced GC before and
 * after the load. Prints numbers; never fails on timing. Exits non-zero only when the server fails
 * (does not start, dies, drops connections or answers 5xx).
 *
 * Run: npm run bench:server (builds dist/ first if it is missing).
 *   BENCH_REQUESTS     requests in total (default 200000)
 *   BENCH_CLIENTS      concurrent keep-alive clients (default 200)
 *   BENCH_MAX_SECONDS  hard cap on the load phase; the run stops early and says so (default 300)
 *
 * The server runs in a child process, forked with --expose-gc, on 127.0.0.1 and a free port (never
 * any other address): in one process the load generator's own allocations would land in the heap
 * figure and its CPU would compete with the server's. The child reports its heap over the fork's
 * IPC channel when asked ({ type: 'heap' }): heapUsed after global.gc(). No debug route is added to
 * the server.
 */
import { execFileSync, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const HOST = '127.0.0.1';

if (process.argv[2] === '--serve') await serve();
else await main();

/** Child: the reference server as `npm start` configures it (ad list on), answering IPC messages. */
async function serve() {
  const { startServer } = await import('../server/index.mjs');
  const srv = await startServer({ host: HOST, port: 0, adListUrl: '/ad-list.json' });
  const send = (/** @type {object} */ msg) => /** @type {NonNullable<typeof process.send>} */ (process.send)(msg);
  const gc = /** @type {() => void} */ (globalThis.gc);
  const connections = () => new Promise((resolve) => srv.server.getConnections((_e, n) => resolve(n || 0)));
  process.on('message', async (/** @type {any} */ msg) => {
    if (msg.type === 'heap') {
      // Closed connections are released asynchronously: wait (briefly) until the server has none left.
      const until = Date.now() + 5000;
      while (msg.idle && (await connections()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      gc();
      await new Promise((r) => setImmediate(r));
      gc();
      const { heapUsed, rss } = process.memoryUsage();
      send({ type: 'heap', heapUsed, rss, connections: await connections(), logged: srv.requests.length });
    } else if (msg.type === 'stop') {
      await srv.close();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', url: srv.url, port: srv.port });
}

async function main() {
  const TOTAL = positiveInt('BENCH_REQUESTS', 200_000);
  const CLIENTS = positiveInt('BENCH_CLIENTS', 200);
  const MAX_SECONDS = positiveInt('BENCH_MAX_SECONDS', 300);

  if (!existsSync(new URL('../dist/player.html', import.meta.url))) {
    execFileSync(process.execPath, ['build.mjs'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) });
  }

  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: [...process.execArgv.filter((a) => a !== '--expose-gc'), '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let stopping = false;
  /** @type {(msg: any) => void} */
  let onReply = () => {};
  child.on('message', (msg) => onReply(msg));
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`The server process died (${signal ?? `exit code ${code}`}).`);
    process.exit(1);
  });
  /** @param {object} msg @returns {Promise<any>} */
  const ask = (msg) =>
    new Promise((resolve) => {
      onReply = resolve;
      child.send(msg);
    });

  const ready = await new Promise((resolve) => {
    onReply = resolve; // the child speaks first, once it listens
  });
  const port = /** @type {number} */ (ready.port);

  const start = await ask({ type: 'heap', idle: true });

  // One player session's worth of requests, in proportion: page, catalogue, ad list, playlists and
  // (mostly) media segments. Headers as a browser sends them, since the request log copies them.
  const browser = {
    'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Accept-Language': 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7',
    'Accept-Encoding': 'gzip, deflate, br, zstd',
  };
  const page = { ...browser, Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'Sec-Fetch-Dest': 'iframe' };
  const api = { ...browser, Accept: 'application/json', 'X-Session-Context': 'bench', 'Sec-Fetch-Mode': 'cors' };
  const media = { ...browser, Accept: '*/*', 'Sec-Fetch-Mode': 'cors' };
  /** @param {number} i */
  const seg = (i) => String(i % 15).padStart(3, '0');
  /** @type {Array<(cycle: number) => { path: string, headers: Record<string, string> }>} */
  const MIX = [
    () => ({ path: '/player/?movie_id=1', headers: page }),
    () => ({ path: '/catalog-api/contents/1', headers: api }),
    () => ({ path: '/catalog-api/contents/1/seasons', headers: api }),
    () => ({ path: '/catalog-api/episodes?content-id=1', headers: api }),
    () => ({ path: '/ad-list.json', headers: api }),
    () => ({ path: '/media/hls/master.m3u8', headers: media }),
    () => ({ path: '/media/hls/video/240p/index.m3u8', headers: media }),
    () => ({ path: '/media/hls/audio/rus/index.m3u8', headers: media }),
    (c) => ({ path: `/media/hls/video/240p/seg_${seg(3 * c)}.m4s`, headers: media }),
    (c) => ({ path: `/media/hls/video/240p/seg_${seg(3 * c + 1)}.m4s`, headers: media }),
    (c) => ({ path: `/media/hls/video/240p/seg_${seg(3 * c + 2)}.m4s`, headers: media }),
    (c) => ({ path: `/media/hls/audio/rus/seg_${seg(c)}.m4s`, headers: media }),
  ];

  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS, maxFreeSockets: CLIENTS });
  const latencies = new Float64Array(TOTAL);
  let issued = 0;
  let done = 0;
  let bytes = 0;
  let failures = 0; // connection errors and 5xx answers: the server failing
  /** @type {Map<number, number>} */
  const statuses = new Map();
  /** @type {Map<string, number>} */
  const failureKinds = new Map();
  let timedOut = false;

  /** @param {string} kind */
  const fail = (kind) => {
    failures++;
    failureKinds.set(kind, (failureKinds.get(kind) ?? 0) + 1);
  };

  /** @param {{ path: string, headers: Record<string, string> }} target @returns {Promise<void>} */
  const one = (target) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      let settled = false;
      const finish = (/** @type {number} */ status, /** @type {string | null} */ error) => {
        if (settled) return;
        settled = true;
        if (error) {
          if (!timedOut) fail(error);
        } else {
          latencies[done++] = performance.now() - t0;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 500) fail(`HTTP ${status}`);
        }
        resolve();
      };
      const req = http.request({ host: HOST, port, path: target.path, headers: target.headers, agent }, (res) => {
        res.on('data', (/** @type {Buffer} */ c) => {
          bytes += c.length;
        });
        res.on('end', () => finish(res.statusCode ?? 0, null));
        res.on('error', (e) => finish(0, /** @type {NodeJS.ErrnoException} */ (e).code || e.message));
        res.on('close', () => {
          if (!res.complete) finish(0, 'response cut off');
        });
      });
      req.on('error', (e) => finish(0, /** @type {NodeJS.ErrnoException} */ (e).code || e.message));
      req.end();
    });

  const client = async () => {
    while (issued < TOTAL && !timedOut) {
      const i = issued++;
      await one(MIX[i % MIX.length](Math.floor(i / MIX.length)));
    }
  };

  console.log(`Reference server (child process, ${ready.url}): ${TOTAL} requests from ${CLIENTS} keep-alive clients, ${MIX.length}-route mix, cap ${MAX_SECONDS} s`);
  const t0 = performance.now();
  const cap = setTimeout(() => {
    timedOut = true;
    // Whatever is still in flight after a grace period is abandoned, not waited for.
    setTimeout(() => agent.destroy(), 10_000).unref();
  }, MAX_SECONDS * 1000);
  await Promise.all(Array.from({ length: CLIENTS }, client));
  clearTimeout(cap);
  const seconds = (performance.now() - t0) / 1000;

  const endOpen = await ask({ type: 'heap', idle: false });
  agent.destroy();
  const end = await ask({ type: 'heap', idle: true });
  stopping = true;
  child.send({ type: 'stop' });

  const sorted = latencies.subarray(0, done).sort();
  /** @param {number} p */
  const pct = (p) => (done ? sorted[Math.min(done - 1, Math.ceil(p * done) - 1)] : NaN);
  const mb = (/** @type {number} */ n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const delta = end.heapUsed - start.heapUsed;
  const unexpected = [...statuses].filter(([s]) => s !== 200 && s < 500).reduce((n, [, c]) => n + c, 0);

  console.log(timedOut ? `stopped by the ${MAX_SECONDS} s cap after ${done} of ${TOTAL} requests` : `completed ${done} requests`);
  console.log(`throughput    ${Math.round(done / seconds)} req/s over ${seconds.toFixed(1)} s, ${mb(bytes)} received`);
  console.log(`latency       p50 ${pct(0.5).toFixed(2)} ms, p99 ${pct(0.99).toFixed(2)} ms, max ${pct(1).toFixed(2)} ms`);
  console.log(`errors        ${failures}${failures ? ` (${[...failureKinds].map(([k, n]) => `${k} × ${n}`).join(', ')})` : ''}`);
  console.log(`statuses      ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s} × ${n}`).join(', ')}${unexpected ? ` (${unexpected} not 200)` : ''}`);
  console.log(`heap after GC start ${mb(start.heapUsed)}, end ${mb(end.heapUsed)} (${delta >= 0 ? '+' : ''}${mb(delta)}); with ${endOpen.connections} connections still open ${mb(endOpen.heapUsed)}`);
  console.log(`rss           start ${mb(start.rss)}, end ${mb(end.rss)}; request log holds ${end.logged} entries`);
  process.exit(failures > 0 ? 1 : 0);
}

/** @param {string} name @param {number} fallback */
function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`${name} must be a positive integer, got ${raw}`);
    process.exit(2);
  }
  return n;
}
