/**
 * An HTTP relay in front of a server (the Qdrant stand-in) that can hold requests: a held request is
 * still delivered — the server applies it — but its reply never comes back, as when Qdrant wrote a
 * batch and the process died before the acknowledgement arrived. Tests use it to stop a real Folio at
 * an exact point of its work.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type HoldingProxy = {
  url: string;
  /** Requests matching this (method, path) are applied upstream but never answered; null: relay all. */
  holdWhen(predicate: ((method: string, path: string) => boolean) | null): void;
  /** Resolves when the next held request has been applied upstream. */
  nextHeld(): Promise<{ method: string; path: string }>;
  close(): Promise<void>;
};

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts)));
    request.on("error", reject);
  });
}

export async function startHoldingProxy(upstreamUrl: string): Promise<HoldingProxy> {
  let hold: ((method: string, path: string) => boolean) | null = null;
  const waiting: Array<(request: { method: string; path: string }) => void> = [];
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? "GET";
    const path = request.url ?? "/";
    const body = await readBody(request);
    const upstream = await fetch(new URL(path, upstreamUrl), {
      method,
      headers: { "content-type": request.headers["content-type"] ?? "application/json" },
      body: method === "GET" || method === "HEAD" ? undefined : body,
    });
    const reply = Buffer.from(await upstream.arrayBuffer());
    if (hold?.(method, path)) {
      for (const resolve of waiting.splice(0)) resolve({ method, path });
      return; // applied upstream; the caller waits for an answer that never comes
    }
    response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
    response.end(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    holdWhen(predicate) {
      hold = predicate;
    },
    nextHeld: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
