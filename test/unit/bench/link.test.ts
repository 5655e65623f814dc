// The emulated link with real sockets: bytes arrive intact through its relays, never sooner than the
// trace allows (lower bounds only: a loaded machine only makes them later), and close() ends them all.
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLink } from '../../../bench/link';
import { constantTrace } from '../../../bench/link-trace';

// 1.2 Mb/s: one 1500-byte packet every 10 ms (at 10, 20, 30, … ms), 20 ms each way.
const TRACE = constantTrace(1.2e6);
const DELAY = 20;
const pattern = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + (i >> 8)) & 0xff));

/** Answers "N\n" with N bytes of the pattern, or with `echo` sends back what comes and ends when it ends. */
async function listen(echo: boolean) {
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    if (echo) {
      socket.pipe(socket);
      return;
    }
    let line = '';
    socket.on('data', (chunk) => {
      line += chunk.toString();
      if (line.endsWith('\n')) socket.end(pattern(Number(line)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
}

/** Sends `request` through 127.0.0.1:port (and its end, if asked); the whole answer and when it ended. */
function exchange(port: number, request: Buffer, end: boolean) {
  return new Promise<{ data: Buffer; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => (end ? socket.end(request) : socket.write(request)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      resolve({ data: Buffer.concat(chunks), ms: performance.now() - started });
      socket.end();
    });
  });
}

test('a download arrives intact, after the handshake, the request and a packet per 10 ms', async () => {
  const server = await listen(false);
  const link = createLink({ down: TRACE, up: TRACE, delayMs: DELAY });
  const relay = await link.relay(server.port);
  const { data, ms } = await exchange(relay.port, Buffer.from('30000\n'), false);
  assert.ok(data.equals(pattern(30_000)));
  // SYN leaves at 10 (arrives 30), SYN-ACK at 30 (50), the request at 50 (70), its 20 packets at 70 … 260.
  assert.ok(ms >= 260 + DELAY, `${ms} ms`);
  assert.equal(link.stats(), { bytesDown: 30_000, bytesUp: 6, connections: 1 });
  await link.close();
  await server.close();
});

test('bytesDownBy: the payload in the browser by a time on the link’s clock, never ahead of the trace', async () => {
  const server = await listen(false);
  const link = createLink({ down: TRACE, up: TRACE, delayMs: DELAY });
  const relay = await link.relay(server.port);
  const { ms } = await exchange(relay.port, Buffer.from('30000\n'), false);
  // Its 20 packets arrive at 90, 100, … 280 ms (the handshake carries no payload); the clock starts at
  // the connection, after the client's, so all of it is in by the client's `ms`.
  assert.is(link.bytesDownBy(89), 0, 'nothing before the first packet');
  for (const at of [95, 150, 200]) {
    const due = 1500 * (Math.floor((at + 10 - 90) / 10) + 1);
    assert.ok(link.bytesDownBy(at) <= due, `${link.bytesDownBy(at)} B by ${at} ms: at most the packets due, to a 10 ms step`);
  }
  assert.is(link.bytesDownBy(ms), 30_000);
  assert.is(link.bytesDownBy(-1), 0);
  await link.close();
  await server.close();
});

test('two relays of one link (two origins) share its downlink', async () => {
  const server = await listen(false);
  const link = createLink({ down: TRACE, up: TRACE, delayMs: DELAY });
  const [a, b] = await Promise.all([link.relay(server.port), link.relay(server.port)]);
  assert.is.not(a!.port, b!.port);
  const both = await Promise.all([a, b].map((r) => exchange(r!.port, Buffer.from('15000\n'), false)));
  for (const { data } of both) assert.ok(data.equals(pattern(15_000)));
  // Alone each would end after 10 packets (≥ 180 ms); together the 20 packets end at 260 at the earliest.
  assert.ok(Math.max(...both.map((r) => r.ms)) >= 260 + DELAY, `${both.map((r) => r.ms)} ms`);
  assert.equal(link.stats(), { bytesDown: 30_000, bytesUp: 12, connections: 2 });
  await link.close();
  await server.close();
});

test('an upload crosses the uplink, its end follows its last byte, and the echo comes back whole', async () => {
  const server = await listen(true);
  const link = createLink({ down: TRACE, up: TRACE, delayMs: DELAY, offsetMs: 5 });
  const relay = await link.relay(server.port);
  const sent = pattern(15_000);
  const { data, ms } = await exchange(relay.port, sent, true);
  assert.ok(data.equals(sent));
  // From 5 ms into the trace: SYN at 5 (25), SYN-ACK at 25 (45), 10 packets up at 45 … 135 (155), the last back at 155.
  assert.ok(ms >= 155 + DELAY, `${ms} ms`);
  assert.equal(link.stats(), { bytesDown: 15_000, bytesUp: 15_000, connections: 1 });
  await link.close();
  await server.close();
});

test('close() ends the connections still open and stops listening', async () => {
  const server = await listen(true);
  const link = createLink({ down: TRACE, up: TRACE, delayMs: DELAY });
  const relay = await link.relay(server.port);
  const open = net.connect(relay.port, '127.0.0.1');
  await new Promise((resolve) => open.once('connect', resolve));
  const closed = new Promise((resolve) => open.once('close', resolve));
  open.on('error', () => {});
  await link.close();
  await closed;
  const refused = await new Promise<string>((resolve) => net.connect(relay.port, '127.0.0.1').once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? '')));
  assert.is(refused, 'ECONNREFUSED');
  await server.close();
});

test.run();
