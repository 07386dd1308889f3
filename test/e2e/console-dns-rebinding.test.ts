/**
 * DNS rebinding against FOLIO_CONSOLE=open (issue #22), through the real HTTP server: a page whose own
 * name now points at Folio sends its name in Host, so listing, uploading and deleting are refused even
 * from a loopback address and with the console header (a same-origin page can send it); the console
 * still answers under loopback names and IP addresses, and a browser's foreign Origin is refused.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

if (!hasSharedData) console.warn("console-dns-rebinding: skipped — no shared models (../shared) for the embedder.");

type Reply = { status: number; body: string };

function send(server: TestServer, method: string, path: string, headers: Record<string, string>): Promise<Reply> {
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: target.hostname, port: Number(target.port), method, path, headers },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(method === "POST" ? "{}" : undefined);
  });
}

describe.skipIf(!hasSharedData)("console in open mode against DNS rebinding", () => {
  let server: TestServer;
  let port: string;

  beforeAll(async () => {
    server = await startTestServer({ environment: { FOLIO_CONSOLE: "open" } });
    port = new URL(server.url).port;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("refuses a rebound host name on every console call, with the console header and from loopback", async () => {
    const rebound = { Host: `attacker.example:${port}`, "X-Folio-Console": "1" };
    for (const [method, path] of [
      ["GET", "/api/documents"],
      ["GET", "/api/history"],
      ["GET", "/"],
      ["POST", "/api/upload"],
      ["POST", "/api/ask"],
      ["DELETE", "/api/documents/any-id"],
    ] as const) {
      const reply = await send(server, method, path, rebound);
      expect({ method, path, status: reply.status, code: JSON.parse(reply.body).error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: "console_host_not_allowed",
      });
    }
  });

  it("answers under a loopback name and an IP address", async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await send(server, "GET", "/api/documents", { Host: host })).status).toBe(200);
    }
  });

  it("refuses a state-changing call whose Origin is another site", async () => {
    const reply = await send(server, "POST", "/api/ask", {
      Host: `127.0.0.1:${port}`,
      "X-Folio-Console": "1",
      Origin: "http://attacker.example",
      "Content-Type": "application/json",
    });
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body).error.code).toBe("console_origin_mismatch");
  });
});
