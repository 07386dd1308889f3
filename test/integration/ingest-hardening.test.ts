/**
 * Findings of a review, pinned: the HTTP server survives a request target that is not a URL, an upload
 * never removes another person's file of the same name, and two uploads of the same bytes at once end
 * as one document ("ingested" + "unchanged"), not as an error; text is served in its own charset. Real core on PGlite, real HTTP server.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

function rawRequest(url: string, requestLine: string): Promise<string> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.write(`${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });
    let received = "";
    socket.on("data", (data: Buffer) => {
      received += data.toString();
    });
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

const text = (value: string) => new TextEncoder().encode(value);

if (!hasSharedData) console.warn(`ingest-hardening: skipped — no shared data (../shared) for its models.`);

describe.skipIf(!hasSharedData)("hardening", () => {
  it("answers 400 to a request target that is not a URL, and keeps serving", async () => {
    const reply = await rawRequest(server.url, "GET //[ HTTP/1.1");
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain("invalid_url");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("keeps another uploader's document of the same name, and replaces only the uploader's own", async () => {
    const { core, ingestion } = server.folio;
    const spaceId = "slack:T1:C-policies";
    const alice = await ingestion.ingestFile({
      bytes: text("Travel policy. Economy class is required for flights under six hours."),
      fileName: "policy.txt",
      spaceId,
      uploader: "U-alice",
    });
    const mallory = await ingestion.ingestFile({
      bytes: text("Travel policy. Everyone flies first class and expenses are never checked."),
      fileName: "policy.txt",
      spaceId,
      uploader: "U-mallory",
    });
    let documents = await core.listDocuments(spaceId);
    expect(documents.map((document) => document.id).sort()).toEqual([alice.documentId, mallory.documentId].sort());

    const aliceAgain = await ingestion.ingestFile({
      bytes: text("Travel policy. Economy class is required for flights under eight hours."),
      fileName: "policy.txt",
      spaceId,
      uploader: "U-alice",
    });
    documents = await core.listDocuments(spaceId);
    expect(documents.map((document) => document.id).sort()).toEqual([aliceAgain.documentId, mallory.documentId].sort());
  });

  it("ends two simultaneous uploads of the same bytes as one document", async () => {
    const spaceId = "console:race";
    const bytes = text("Expense policy. Receipts are required for every expense over twenty-five dollars.");
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        server.folio.ingestion.ingestFile({ bytes, fileName: "expenses.txt", spaceId, uploader: null }),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(["ingested", "unchanged", "unchanged"]);
    expect(new Set(results.map((result) => result.documentId)).size).toBe(1);
    expect(await server.folio.core.listDocuments(spaceId)).toHaveLength(1);
  });

  it("serves a UTF-16 text upload with the charset it was read in", async () => {
    const body = Buffer.from("Café hours. The café serves espresso from seven every morning.", "utf16le");
    const bytes = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
    const result = await server.folio.ingestion.ingestFile({
      bytes,
      fileName: "cafe.txt",
      spaceId: "console:charset",
      uploader: null,
    });
    expect(result.status).toBe("ingested");
    const url = server.folio.core.signedDocumentUrl({ documentId: result.documentId ?? "" });
    const response = await fetch(url);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-16le");
    expect(new TextDecoder("utf-16le").decode(await response.arrayBuffer())).toContain("Café hours");
  });
});
