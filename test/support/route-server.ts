/**
 * A bare node:http server on a free local port that serves an adapter's routes (method and path
 * matched, query ignored) and answers 404 to anything else — as Folio's own HTTP server mounts them.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpRoute } from "../../src/http/http-route.js";

export type RouteServer = {
  url: string;
  /** Drops open connections and stops listening. */
  close(): Promise<void>;
};

export async function serveRoutes(routes: readonly HttpRoute[]): Promise<RouteServer> {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    const route = routes.find((candidate) => request.method === candidate.method && pathname === candidate.path);
    if (route) void route.handle(request, response);
    else response.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
