/**
 * Folio's HTTP server end to end: a real Folio (embedded PGlite, temporary data directory) behind a
 * real node:http server on a local port — probes, the signed source viewer, console uploads with
 * their specific rejections, streamed answers, and a thread that survives a restart.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Answer, AnswerEvent } from "../../src/answer/answer-events.js";
import { locateConsoleAssets } from "../../src/http/console-assets.js";
import { createHttpServer } from "../../src/http/http-server.js";
import { createLinkSigner } from "../../src/links/signed-links.js";
import { silentLogger } from "../../src/logger.js";
import { hasSharedData, sharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

/** What the console page sends with its API calls (src/http/console-access.ts). */
const CONSOLE_HEADERS = { "X-Folio-Console": "1" };

const LINK_SECRET = "http-server-test-secret-0123456789abcdef";
const PDF_NAME = "contoso-perksplus.pdf";
const pdfBytes = hasSharedData ? readFileSync(sharedData("enterprise-pdfs/pdfs", PDF_NAME)) : Buffer.alloc(0);

type UploadLine =
  | { type: "progress"; file: string; stage: string }
  | {
      type: "result";
      id: string;
      result: {
        file: string;
        documentId: string | null;
        status: string;
        pages: number | null;
        chunks: number;
        error?: { code: string; message: string };
      };
    };

async function upload(
  baseUrl: string,
  fileName: string,
  bytes: Uint8Array,
): Promise<{ status: number; lines: UploadLine[]; body: string }> {
  const form = new FormData();
  form.append("file", new Blob([bytes]), fileName);
  const response = await fetch(`${baseUrl}/api/upload`, { method: "POST", body: form, headers: CONSOLE_HEADERS });
  const body = await response.text();
  if (response.status !== 200) return { status: response.status, lines: [], body };
  const lines = body
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as UploadLine);
  return { status: response.status, lines, body };
}

function resultOf(lines: UploadLine[]) {
  const results = lines.filter((line) => line.type === "result");
  expect(results).toHaveLength(1);
  return (results[0] as Extract<UploadLine, { type: "result" }>).result;
}

async function ask(baseUrl: string, question: string): Promise<AnswerEvent[]> {
  const response = await fetch(`${baseUrl}/api/ask`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...CONSOLE_HEADERS },
    body: JSON.stringify({ question }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const data = block.split("\n").find((line) => line.startsWith("data: "));
      return JSON.parse((data ?? "").slice("data: ".length)) as AnswerEvent;
    });
}

if (!hasSharedData) console.warn(`http-server: skipped — no shared data (../shared) for its PDFs and models.`);

describe.skipIf(!hasSharedData)("Folio HTTP server", () => {
  let server: TestServer;
  let documentId: string;
  let streamedAnswer: Answer | null = null;

  beforeAll(async () => {
    server = await startTestServer({ environment: { FOLIO_LINK_SECRET: LINK_SECRET }, maxUploadBytes: 1024 * 1024 });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("answers the health and readiness probes with a request id", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok\n");
    expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const report = (await ready.json()) as { ready: boolean; status: string; dependencies: Record<string, unknown> };
    expect(report).toMatchObject({ ready: true, status: "ready" });
    expect(Object.keys(report.dependencies).sort()).toEqual(["catalog", "embedder", "languageModel", "vectorStore"]);
  });

  it("serves the console page and its assets, with a self-only content policy", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<input id="file-input" type="file" multiple />');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${server.url}/console.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const styles = await fetch(`${server.url}/console.css`);
    expect(styles.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("ingests an uploaded PDF into the console space, streaming its stages then the result", async () => {
    const { status, lines } = await upload(server.url, PDF_NAME, pdfBytes);
    expect(status).toBe(200);
    const stages = lines.filter((line) => line.type === "progress").map((line) => (line as { stage: string }).stage);
    expect(stages[0]).toBe("received");
    expect(stages.at(-1)).toBe("done");
    const result = resultOf(lines);
    const documents = await server.folio.catalog.listDocuments("console:default");
    expect(documents.map((document) => document.fileName)).toEqual([PDF_NAME]);
    const chunks = await server.folio.catalog.listChunks(documents[0]?.id ?? "");
    expect(result).toEqual({
      file: PDF_NAME,
      documentId: documents[0]?.id,
      status: "ingested",
      pages: 4,
      chunks: chunks.length,
      // The console's uploads answer once searchable by keywords; the passages are embedded after.
      searchableBy: "keywords",
      meaningPending: true,
    });
    expect(chunks.length).toBeGreaterThan(0);
    documentId = documents[0]?.id ?? "";

    const listed = (await (await fetch(`${server.url}/api/documents`)).json()) as {
      documents: { id: string; pageCount: number }[];
    };
    expect(
      listed.documents.map((document: { id: string; pageCount: number }) => [document.id, document.pageCount]),
    ).toEqual([[documentId, 4]]);
  });

  it("serves the original bytes for a valid signed link", async () => {
    const url = server.folio.core.signedDocumentUrl({ documentId, page: 3 });
    expect(url.startsWith(`${server.url}/files/${documentId}?exp=`)).toBe(true);
    expect(url.endsWith("#page=3")).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="${PDF_NAME}"; filename*=UTF-8''${PDF_NAME}`,
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer()).equals(pdfBytes)).toBe(true);
  });

  it("answers HEAD and a byte range of a signed link, and refuses a range past the end", async () => {
    const url = server.folio.core.signedDocumentUrl({ documentId });
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(pdfBytes.byteLength));
    expect(head.headers.get("accept-ranges")).toBe("bytes");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const ranged = await fetch(url, { headers: { Range: "bytes=0-7" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 0-7/${pdfBytes.byteLength}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(pdfBytes.subarray(0, 8))).toBe(true);
    const past = await fetch(url, { headers: { Range: `bytes=${pdfBytes.byteLength}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${pdfBytes.byteLength}`);
    expect((await fetch(`${server.url}/files/${documentId}`, { method: "HEAD" })).status).toBe(403);
  });

  it("refuses a link with another document id, a changed expiry, or a past expiry (403)", async () => {
    const url = new URL(server.folio.core.signedDocumentUrl({ documentId }));
    const otherId = new URL(url);
    otherId.pathname = `/files/${documentId.slice(0, -1)}${documentId.endsWith("0") ? "1" : "0"}`;
    const laterExpiry = new URL(url);
    laterExpiry.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
    const pastSigner = createLinkSigner({
      secret: LINK_SECRET,
      publicUrl: server.url,
      ttlSeconds: 60,
      now: () => Date.now() - 3_600_000,
    });
    const expired = pastSigner.signDocumentUrl({ documentId });
    const unsigned = `${server.url}/files/${documentId}`;

    for (const [link, message] of [
      [otherId.toString(), "This link is not valid. Use the link exactly as Folio gave it.\n"],
      [laterExpiry.toString(), "This link is not valid. Use the link exactly as Folio gave it.\n"],
      [unsigned, "This link is not valid. Use the link exactly as Folio gave it.\n"],
      [expired, "This link has expired. Ask Folio again for a fresh link.\n"],
    ] as const) {
      const response = await fetch(link);
      expect(response.status, link).toBe(403);
      expect(await response.text()).toBe(message);
    }
  });

  it("answers 404 for a validly signed link to a document that does not exist", async () => {
    const response = await fetch(server.folio.core.signedDocumentUrl({ documentId: "no-such-document" }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "document_not_found", message: "This document no longer exists." },
    });
  });

  it("rejects a broken PDF with its specific reason", async () => {
    const { status, lines } = await upload(
      server.url,
      "broken.pdf",
      new Uint8Array([0x13, 0x37, 0xbe, 0xef, 0x42, 0x99, 0x00, 0x7f]),
    );
    expect(status).toBe(200);
    expect(resultOf(lines)).toEqual({
      file: "broken.pdf",
      documentId: null,
      status: "rejected",
      pages: null,
      chunks: 0,
      error: {
        code: "content_mismatch",
        message:
          "This file is named .pdf, so a PDF was expected, but it is binary data of no kind Folio knows (damaged, or another format renamed) — upload the real PDF, or give the file the extension of what it is (Folio reads PDF, Word (.docx), Excel (.xlsx, .xls), CSV, TSV, Markdown, HTML and plain-text files).",
      },
    });
  });

  it("refuses an upload over the size limit with 413 and says the limit", async () => {
    const { status, body } = await upload(server.url, "huge.pdf", new Uint8Array(1024 * 1024 + 1));
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual({
      error: { code: "file_too_large", message: "The file is larger than the 1 MB upload limit." },
    });
  });

  it("keeps the console to this machine and refuses cross-site API calls", async () => {
    const withoutHeader = await fetch(`${server.url}/api/ask`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question: "What is rapid elasticity?" }),
    });
    expect(withoutHeader.status).toBe(403);
    expect(((await withoutHeader.json()) as { error: { code: string } }).error.code).toBe("console_header_missing");

    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const target = new URL(server.url);
      const request = httpRequest(
        { host: target.hostname, port: target.port, path: "/api/history", headers: { Host: "attacker.example" } },
        (response) => {
          let body = "";
          response.on("data", (data: Buffer) => {
            body += data.toString();
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on("error", reject);
      request.end();
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("console_local_only");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("answers JSON errors for bad requests and unknown routes, never a stack", async () => {
    const badJson = await fetch(`${server.url}/api/ask`, {
      method: "POST",
      body: "{not json",
      headers: CONSOLE_HEADERS,
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toEqual({
      error: { code: "invalid_json", message: "The request body must be a JSON object." },
    });
    const empty = await fetch(`${server.url}/api/ask`, {
      method: "POST",
      body: JSON.stringify({ question: "  " }),
      headers: CONSOLE_HEADERS,
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("invalid_question");
    const notMultipart = await fetch(`${server.url}/api/upload`, {
      method: "POST",
      body: "plain",
      headers: CONSOLE_HEADERS,
    });
    expect(notMultipart.status).toBe(400);
    expect(((await notMultipart.json()) as { error: { code: string } }).error.code).toBe("invalid_upload");
    const missing = await fetch(`${server.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not_found", message: "No route for GET /nowhere." } });
  });

  it("matches adapter routes first, by method and path, and hides a failing route's stack", async () => {
    const mounted = createHttpServer({
      folio: server.folio,
      logger: silentLogger,
      consoleAssetsDir: locateConsoleAssets(),
      routes: [
        {
          method: "POST",
          path: "/api/ask",
          handle(_request, response) {
            response.writeHead(202, { "Content-Type": "text/plain" });
            response.end("adapter");
          },
        },
        {
          method: "POST",
          path: "/broken",
          handle() {
            throw new Error("secret internal detail");
          },
        },
      ],
    });
    const { url } = await mounted.listen(0);
    try {
      const routed = await fetch(`${url}/api/ask`, { method: "POST", body: "{}" });
      expect(routed.status).toBe(202);
      expect(await routed.text()).toBe("adapter");
      const wrongMethod = await fetch(`${url}/broken`);
      expect(wrongMethod.status).toBe(404);
      const failing = await fetch(`${url}/broken`, { method: "POST" });
      expect(failing.status).toBe(500);
      const requestId = failing.headers.get("x-request-id");
      expect(await failing.json()).toEqual({
        error: { code: "internal_error", message: `Something went wrong on the server (request ${requestId}).` },
      });
    } finally {
      await mounted.close();
    }
  });

  it("streams an answer whose citation opens the page that holds the answer", async () => {
    const events = await ask(server.url, "How much can employees expense for fitness-related programs?");
    expect(events.map((event) => event.type)).toContain("delta");
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error(`the stream ended with ${JSON.stringify(done)}`);
    streamedAnswer = done.answer;
    expect(done.answer.answer).toContain("expense up to $1000 for fitness-related programs");
    const citation = done.answer.citations[0];
    expect(citation?.documentId).toBe(documentId);
    // pdftotext -f 3 -l 3 contoso-perksplus.pdf holds "expense up to $1000 for fitness-related programs".
    expect(citation?.pageStart).toBe(3);
    expect(citation?.url).toMatch(/#page=3$/);
  });

  it("keeps the thread across a restart and re-signs its citation links", async () => {
    if (!streamedAnswer) throw new Error("the previous test produced no answer");
    const firstCitation = streamedAnswer.citations[0];
    await server.stop();
    server = await startTestServer({ dataDir: server.dataDir, environment: { FOLIO_LINK_SECRET: LINK_SECRET } });
    const history = (await (await fetch(`${server.url}/api/history`)).json()) as {
      spaceId: string;
      entries: { kind: string; text: string; citations: { url: string }[] }[];
    };
    expect(history.spaceId).toBe("console:default");
    expect(history.entries.map((entry) => entry.kind)).toEqual(["upload", "upload", "question", "answer"]);
    const answer = history.entries[3];
    expect(answer?.text).toBe(streamedAnswer.answer);
    const citationUrl = answer?.citations[0]?.url ?? "";
    // The restarted server listens on another port; fresh links point at it and still open the file.
    expect(citationUrl.startsWith(`${server.url}/files/${documentId}?exp=`)).toBe(true);
    expect(citationUrl).toMatch(new RegExp(`#page=${firstCitation?.pageStart}$`));
    const file = await fetch(citationUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
  });
});

describe.skipIf(!hasSharedData)("Folio HTTP server upload limit", () => {
  const LIMIT = 1000;
  let small: TestServer;

  beforeAll(async () => {
    small = await startTestServer({ environment: { FOLIO_LINK_SECRET: LINK_SECRET }, maxUploadBytes: LIMIT });
  });

  afterAll(async () => {
    await small?.close();
  });

  it("counts every file of a chunked upload against the limit, not each file alone", async () => {
    const boundary = "folio-test-boundary";
    const encoder = new TextEncoder();
    // Three files of 900 B: each is under the 1000 B limit, together they are not.
    const parts = [1, 2, 3].flatMap((n) => [
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part-${n}.txt"\r\n` +
          "Content-Type: text/plain\r\n\r\n",
      ),
      new Uint8Array(900).fill(0x61),
      encoder.encode("\r\n"),
    ]);
    parts.push(encoder.encode(`--${boundary}--\r\n`));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = parts.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    // A stream body goes out chunked, with no Content-Length to refuse it by up front.
    const response = await fetch(`${small.url}/api/upload`, {
      method: "POST",
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, ...CONSOLE_HEADERS },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: {
        code: "file_too_large",
        message: "The files in this upload add up to more than the 1000 byte upload limit.",
      },
    });
    const history = (await (await fetch(`${small.url}/api/history`)).json()) as { entries: unknown[] };
    expect(history.entries).toEqual([]);
    expect(await small.folio.core.listDocuments("console:default")).toEqual([]);
  });
});
