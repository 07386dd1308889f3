/**
 * A TCP relay to a local port that a test can cut (listener closed, open connections destroyed) and
 * restore on the same port: a dependency (PostgreSQL, Qdrant) that drops off the network and comes back.
 */
import { createServer, Socket as NetSocket, type Server, type Socket } from "node:net";

export type TcpRelay = {
  /** The relay's port on 127.0.0.1. */
  readonly port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
};

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    const relay = createServer((client) => {
      const upstream = new NetSocket();
      sockets.add(client).add(upstream);
      const forget = () => {
        sockets.delete(client);
        sockets.delete(upstream);
      };
      upstream.connect(targetPort, "127.0.0.1");
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.on("close", () => {
        upstream.destroy();
        forget();
      });
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve));
    port = (relay.address() as { port: number }).port;
    server = relay;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const relay = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
    },
    restore: listen,
  };
}
