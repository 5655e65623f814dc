// An emulated cellular link in user space, for every browser engine: TCP relays on 127.0.0.1 in front of
// the servers a page uses (page, API, media, an ad server on another origin), all crossing ONE downlink
// and ONE uplink that carry bytes only at the delivery opportunities of a mahimahi trace
// (bench/link-trace.ts), each direction after the same fixed one-way delay. A new connection pays its
// handshake first: a SYN up the uplink and a SYN-ACK down the downlink (40 bytes each, waiting their turn
// in the queues like any packet), so at least 2 × delay before its first byte moves. ACKs are not
// modelled (a download's ACKs are a few % of the uplink); TCP/IP headers are not counted apart.
//
// How connections share the link: one FIFO per direction (bench/link-schedule.ts, as mahimahi and a
// base station's per-phone buffer are) and a window per connection: a connection may have at most
// `windowBytes` (64 KiB) queued on the link; the rest of what its sender wrote waits in the relay, and
// the sender's socket is paused once that too exceeds a window. Whole responses are never queued
// behind one another: as each connection's bytes leave it refills behind the others', so busy flows
// interleave and share capacity evenly, as TCP flows with equal round trips do through a drop-tail
// queue, and a new request (or handshake) waits behind at most a window of each busy flow's bytes: the
// queueing delay real cellular links show under load, without mahimahi's unbounded queue. The window
// is refilled as bytes leave (not a round trip later), so it does not cap one flow's rate; 64 KiB is
// 43 packets, at least what any ms of the shared traces carries (16 down, 43 up at most), so a timer
// that wakes late still finds bytes queued for the opportunities it serves unless it is later than a
// window's worth of the trace.
//
// The link's clock (and so the trace, from `offsetMs`) starts at its first connection; stats() count
// the payload bytes that crossed each direction. Bytes leave at the trace's times, whenever the timers
// actually run; a busy machine can only make them arrive later, never sooner.
//
// By hand:  node --import tsx bench/link.ts --trace FILE [--up FILE] [--delay 40] [--offset 0]
//             --target 127.0.0.1:8080 [--target HOST:PORT ...]
//   or --rate 1.6 (Mb/s, a constant trace both ways) instead of --trace. `--trace X.down` takes X.up
//   beside it for the uplink when there is one, else the same trace. Prints one relay port per target
//   (open http://127.0.0.1:PORT/ in any browser); Ctrl-C prints the bytes carried and stops.
import net from 'node:net';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { constantTrace, meanBitsPerSecond, readTrace, type Trace } from './link-trace';
import { createDirection, createSender } from './link-direction';

export interface LinkOptions {
  /** Network → browser capacity. */
  down: Trace;
  /** Browser → network capacity. */
  up: Trace;
  /** One-way delay of each direction, ms (a round trip is twice this). */
  delayMs: number;
  /** Where in both traces the link's clock starts, ms (wraps over each trace's period). Default 0. */
  offsetMs?: number;
  /** Bytes one connection may have queued in one direction of the link. Default 64 KiB. */
  windowBytes?: number;
}

export interface LinkStats {
  /** Payload bytes that crossed the downlink (server → browser). */
  bytesDown: number;
  /** Payload bytes that crossed the uplink (browser → server). */
  bytesUp: number;
  /** Connections accepted by all relays. */
  connections: number;
}

export interface Relay {
  /** The port on 127.0.0.1 to use instead of the target's. */
  port: number;
  /** Stops listening and ends this relay's connections. */
  close(): Promise<void>;
}

export interface Link {
  /** A relay on 127.0.0.1 (a port of its own) to `targetHost:targetPort`, through this link's shared directions. */
  relay(targetPort: number, targetHost?: string): Promise<Relay>;
  stats(): LinkStats;
  /** Payload bytes that had reached the browser `ms` after the link's first connection (to 10 ms). */
  bytesDownBy(ms: number): number;
  /** Ends every relay and socket and stops the link's timers. */
  close(): Promise<void>;
}

const HANDSHAKE_PACKET_BYTES = 40;

export function createLink(options: LinkOptions): Link {
  const offsetMs = options.offsetMs ?? 0;
  const windowBytes = options.windowBytes ?? 64 * 1024;
  if (!(options.delayMs >= 0) || !Number.isFinite(offsetMs) || !(windowBytes >= 1)) {
    throw new Error(`link: delayMs ${options.delayMs}, offsetMs ${offsetMs}, windowBytes ${windowBytes}: expected delay ≥ 0, a finite offset, a window ≥ 1 byte`);
  }
  let startedAt: number | undefined;
  const clock = () => (startedAt === undefined ? 0 : performance.now() - startedAt);
  const feeders = new Map<number, () => void>();
  const onRoom = (flow: number) => feeders.get(flow)?.();
  const down = createDirection(options.down, offsetMs, options.delayMs, clock, onRoom);
  const up = createDirection(options.up, offsetMs, options.delayMs, clock, onRoom);
  const relays = new Set<Relay>();
  let connections = 0;
  let nextFlow = 0;

  function connect(client: net.Socket, targetPort: number, targetHost: string, sockets: Set<net.Socket>) {
    startedAt ??= performance.now();
    connections++;
    const flow = nextFlow++;
    client.setNoDelay(true);
    sockets.add(client);
    let server: net.Socket | undefined;
    const abort = () => {
      for (const s of [client, server]) if (s) s.destroy();
    };
    client.on('error', abort);
    client.on('close', (hadError) => {
      sockets.delete(client);
      if (hadError) abort();
    });
    const syn = (_: Buffer | undefined, last: boolean) => {
      if (!last || client.destroyed) return;
      const s = net.connect({ port: targetPort, host: targetHost, allowHalfOpen: true });
      server = s;
      sockets.add(s);
      s.pause();
      s.setNoDelay(true);
      s.on('error', abort);
      s.on('close', (hadError) => {
        sockets.delete(s);
        feeders.delete(flow);
        if (hadError) abort();
      });
      s.once('connect', () => down.send(flow, { flow, bytes: HANDSHAKE_PACKET_BYTES, arrived: (__, done) => done && established(s) }));
    };
    const established = (s: net.Socket) => {
      if (client.destroyed || s.destroyed) return abort();
      const upSender = createSender(up, flow, client, s, windowBytes);
      const downSender = createSender(down, flow, s, client, windowBytes);
      feeders.set(flow, () => {
        upSender.feed();
        downSender.feed();
      });
      upSender.start();
      downSender.start();
    };
    up.send(flow, { flow, bytes: HANDSHAKE_PACKET_BYTES, arrived: syn });
  }

  return {
    relay(targetPort, targetHost = '127.0.0.1') {
      const sockets = new Set<net.Socket>();
      const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => connect(client, targetPort, targetHost, sockets));
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
          const relay: Relay = {
            port: (server.address() as net.AddressInfo).port,
            close: () =>
              new Promise<void>((done) => {
                relays.delete(relay);
                for (const s of sockets) s.destroy();
                server.close(() => done());
              }),
          };
          relays.add(relay);
          resolve(relay);
        });
      });
    },
    stats: () => ({ bytesDown: down.carried(), bytesUp: up.carried(), connections }),
    bytesDownBy: (ms) => down.arrivedBy(ms),
    async close() {
      down.stop();
      up.stop();
      await Promise.all([...relays].map((r) => r.close()));
    },
  };
}

function parseTarget(text: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(text);
  if (!match) throw new Error(`--target ${text}: expected HOST:PORT`);
  return { host: match[1] || '127.0.0.1', port: Number(match[2]) };
}

async function main() {
  const { values } = parseArgs({
    options: {
      trace: { type: 'string' },
      up: { type: 'string' },
      rate: { type: 'string' },
      delay: { type: 'string', default: '40' },
      offset: { type: 'string', default: '0' },
      target: { type: 'string', multiple: true },
    },
  });
  const targets = (values.target ?? []).map(parseTarget);
  if ((!values.trace && !values.rate) || targets.length === 0) {
    throw new Error('usage: bench/link.ts (--trace FILE [--up FILE] | --rate MBPS) [--delay 40] [--offset 0] --target HOST:PORT [--target ...]');
  }
  const rate = Number(values.rate);
  if (values.rate && !(rate > 0)) throw new Error(`--rate ${values.rate}: expected Mb/s above 0`);
  const down = values.trace ? readTrace(values.trace) : constantTrace(rate * 1e6);
  const upBeside = values.trace?.replace(/\.down$/, '.up');
  const upPath = values.up ?? (upBeside !== values.trace && upBeside && existsSync(upBeside) ? upBeside : undefined);
  const up = upPath ? readTrace(upPath) : down;
  const link = createLink({ down, up, delayMs: Number(values.delay), offsetMs: Number(values.offset) });
  const mbps = (t: Trace) => `${(meanBitsPerSecond(t) / 1e6).toFixed(2)} Mb/s mean`;
  console.log(`down: ${down.name} (${mbps(down)}), up: ${up.name} (${mbps(up)}), one-way delay ${values.delay} ms, from ${values.offset} ms`);
  for (const t of targets) console.log(`127.0.0.1:${(await link.relay(t.port, t.host)).port} -> ${t.host}:${t.port}`);
  process.once('SIGINT', () => {
    const s = link.stats();
    console.log(`carried ${s.bytesDown} B down, ${s.bytesUp} B up, ${s.connections} connections`);
    void link.close().then(() => process.exit(0));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
