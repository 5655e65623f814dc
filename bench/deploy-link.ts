// The production-like deploy's link (bench/deploy-nginx.ts --link): fixed ports on 127.0.0.1 in front of
// nginx's two ports, each connection carried through the link of the moment (bench/link.ts). fresh()
// puts a new link in place, so every page measured meets the trace from the same point (its start, as
// bench:playback runs each page), whatever ran before; the pages' addresses (and the ad list baked into
// the player's page) keep their ports.
import net from 'node:net';
import { createLink, type Link, type LinkOptions } from './link';

export interface SwitchedLink {
  /** The ports to use instead of the targets', in the same order. */
  ports: number[];
  /** Ends the current link and its connections; connections from now on cross a new one. */
  fresh(): Promise<void>;
  close(): Promise<void>;
}

export async function switchedLink(options: LinkOptions, targets: number[]): Promise<SwitchedLink> {
  let link: Link | undefined;
  let relayPorts: number[] = [];
  const fresh = async () => {
    await link?.close();
    link = createLink(options);
    relayPorts = await Promise.all(targets.map(async (port) => (await link!.relay(port)).port));
  };
  await fresh();
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const servers = await Promise.all(
    targets.map(
      (_, i) =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer({ allowHalfOpen: true }, (client) => {
            const relayed = net.connect({ port: relayPorts[i], host: '127.0.0.1', allowHalfOpen: true });
            for (const s of [client, relayed]) {
              track(s);
              s.setNoDelay(true);
              s.on('error', () => [client, relayed].forEach((x) => x.destroy()));
              s.on('close', () => [client, relayed].forEach((x) => x.destroy()));
            }
            client.pipe(relayed);
            relayed.pipe(client);
          });
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return {
    ports: servers.map((s) => (s.address() as net.AddressInfo).port),
    fresh,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
      await link?.close();
    },
  };
}
