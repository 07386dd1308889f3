/**
 * The console API's conversation logic with a fake core (the answer pipeline itself is tested
 * elsewhere): follow-ups carry the conversation's earlier turns, "new conversation" starts over, a
 * question asked of an empty console says to add a file, and only the console's own documents can
 * be deleted; uploads keep non-ASCII file names, count text fields of a chunked body against the limit
 * and are refused past four at once. Requests go through a real loopback HTTP server.
 */

import { EventEmitter, once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { type ClientRequest, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AnswerContext, AnswerEvent } from "../../src/answer/answer-events.js";
import type { DocumentRecord } from "../../src/domain/types.js";
import type { FolioCore } from "../../src/folio-core.js";
import { createConsoleApi, EMPTY_SPACE_ANSWER } from "../../src/http/console-api.js";
import { createConsoleHistory } from "../../src/http/console-history.js";
import { silentLogger } from "../../src/logger.js";

const SPACE = "console:test";

function documentRecord(id: string, spaceId: string): DocumentRecord {
  return {
    id,
    spaceId,
    title: `Title ${id}`,
    fileName: `${id}.pdf`,
    mediaType: "application/pdf",
    sha256: id,
    byteSize: 10,
    pageCount: 1,
    uploader: "console",
    status: "ready",
    awaitingMeaning: false,
    createdAt: new Date("2026-11-25T01:00:00Z"),
  } as DocumentRecord;
}

/** A core that answers "answer to <question>" and records each question's context. */
function fakeCore(documents: DocumentRecord[]) {
  const contexts: AnswerContext[] = [];
  const deleted: string[] = [];
  const ingested: string[] = [];
  const ingestOptions: Array<{ sameName?: string; meaning?: string }> = [];
  const core = {
    async ingestFile(input: { fileName: string; sameName?: string; meaning?: string }) {
      ingested.push(input.fileName);
      ingestOptions.push({ sameName: input.sameName, meaning: input.meaning });
      return { file: input.fileName, documentId: "d1", status: "ingested", pages: 1, chunks: 1 };
    },
    async *answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent> {
      contexts.push(context);
      const answer = `answer to ${question}`;
      yield { type: "delta", text: answer };
      yield {
        type: "done",
        answer: { requestId: context.requestId, answer, noContext: false, citations: [], timingsMs: {} },
      };
    },
    listDocuments: async (spaceId: string) => documents.filter((document) => document.spaceId === spaceId),
    getDocument: async (id: string) => documents.find((document) => document.id === id) ?? null,
    async deleteDocument(id: string) {
      deleted.push(id);
      return true;
    },
    signedDocumentUrl: ({ documentId }: { documentId: string }) => `http://folio.test/files/${documentId}`,
  } as unknown as FolioCore;
  return { core, contexts, deleted, ingested, ingestOptions };
}

describe("console API conversation", () => {
  let dataDir: string;
  let server: Server;
  let baseUrl: string;
  let fake: ReturnType<typeof fakeCore>;
  /** Emits "upload" each time the API starts on an upload request. */
  const uploads = new EventEmitter();

  const start = async (
    documents: DocumentRecord[],
    meaningProgressOf?: (documentId: string) => { done: number; total: number } | null,
    meaningFailed?: (documentId: string) => boolean,
  ) => {
    fake = fakeCore(documents);
    const history = createConsoleHistory({ dataDir, spaceId: SPACE, logger: silentLogger });
    const api = createConsoleApi({
      core: fake.core,
      history,
      spaceId: SPACE,
      librarySpaceId: null,
      maxUploadBytes: 1024,
      countSections: async () => 3,
      logger: silentLogger,
      ...(meaningProgressOf ? { meaningProgressOf } : {}),
      ...(meaningFailed ? { meaningFailed } : {}),
    });
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://folio.test");
      if (url.pathname === "/api/upload") uploads.emit("upload");
      const handled =
        url.pathname === "/api/upload"
          ? api.upload(request, response, url)
          : url.pathname === "/api/ask"
            ? api.ask(request, response)
            : url.pathname === "/api/history"
              ? api.history(response)
              : url.pathname === "/api/conversation"
                ? api.startConversation(response)
                : url.pathname === "/api/documents"
                  ? api.documents(response)
                  : api.deleteDocument(response, url.pathname.split("/").pop() ?? "");
      handled.catch((error: { message: string; details?: { status?: number } }) => {
        response.writeHead(error.details?.status ?? 500, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ error: { code: (error as { code?: string }).code, message: error.message } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const ask = async (question: string): Promise<string> => {
    const response = await fetch(`${baseUrl}/api/ask`, { method: "POST", body: JSON.stringify({ question }) });
    const events = (await response.text())
      .split("\n\n")
      .filter((block) => block.includes("data:"))
      .map((block) => JSON.parse(block.slice(block.indexOf("data:") + 5)) as AnswerEvent);
    const done = events.find((event) => event.type === "done");
    return done?.type === "done" ? done.answer.answer : "";
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "folio-console-api-"));
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it("passes the conversation's earlier turns to a follow-up question", async () => {
    await start([documentRecord("a", SPACE)]);
    await ask("What is required at AAL2?");
    await ask("And what about AAL3?");
    expect(fake.contexts.map((context) => context.history)).toEqual([
      [],
      [
        { role: "user", text: "What is required at AAL2?" },
        { role: "assistant", text: "answer to What is required at AAL2?" },
      ],
    ]);
  });

  it("starts a new conversation: the thread empties and earlier turns no longer reach the answer", async () => {
    await start([documentRecord("a", SPACE)]);
    await ask("What is required at AAL2?");
    const started = await fetch(`${baseUrl}/api/conversation`, { method: "POST" });
    expect(started.status).toBe(200);
    const history = (await (await fetch(`${baseUrl}/api/history`)).json()) as { entries: unknown[] };
    expect(history.entries).toEqual([]);
    await ask("And what about AAL3?");
    expect(fake.contexts[1]?.history).toEqual([]);
  });

  it("tells an empty console to add a file instead of searching", async () => {
    await start([]);
    expect(await ask("What is required at AAL2?")).toBe(EMPTY_SPACE_ANSWER);
    expect(EMPTY_SPACE_ANSWER).toMatch(/^No documents yet — drop a file here/);
    expect(fake.contexts).toEqual([]);
  });

  it("lists documents with pages, sections and added time, and deletes only the console's own", async () => {
    await start([documentRecord("mine", SPACE), documentRecord("slacks", "slack:T1:C1")]);
    const listed = (await (await fetch(`${baseUrl}/api/documents`)).json()) as { documents: unknown[] };
    expect(listed.documents).toEqual([
      {
        id: "mine",
        title: "Title mine",
        fileName: "mine.pdf",
        mediaType: "application/pdf",
        pageCount: 1,
        sections: 3,
        createdAt: "2026-11-25T01:00:00.000Z",
        url: "http://folio.test/files/mine",
        meaning: "off",
      },
    ]);
    const refused = await fetch(`${baseUrl}/api/documents/slacks`, { method: "DELETE" });
    expect(refused.status).toBe(404);
    const deleted = await fetch(`${baseUrl}/api/documents/mine`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(fake.deleted).toEqual(["mine"]);
  });

  it("says how each document can be found: by meaning, by keywords while its passages are embedded, or keywords only", async () => {
    const embedding = { ...documentRecord("embedding", SPACE), awaitingMeaning: true };
    const queued = { ...documentRecord("queued", SPACE), awaitingMeaning: true };
    const broken = { ...documentRecord("broken", SPACE), awaitingMeaning: true };
    await start(
      [documentRecord("read", SPACE), embedding, queued, broken],
      (id) => (id === "embedding" ? { done: 40, total: 120 } : null),
      (id) => id === "broken",
    );
    const listed = (await (await fetch(`${baseUrl}/api/documents`)).json()) as {
      documents: Array<{ id: string; meaning: string; meaningProgress?: unknown }>;
    };
    expect(listed.documents.map(({ id, meaning, meaningProgress }) => ({ id, meaning, meaningProgress }))).toEqual([
      { id: "read", meaning: "ready", meaningProgress: undefined },
      { id: "embedding", meaning: "pending", meaningProgress: { done: 40, total: 120 } },
      { id: "queued", meaning: "pending", meaningProgress: undefined },
      { id: "broken", meaning: "failed", meaningProgress: undefined },
    ]);
  });

  it("uploads in the background and passes the same-name choice on; refuses an unknown one", async () => {
    await start([]);
    const form = () => {
      const body = new FormData();
      body.append("file", new Blob(["hello"]), "notes.txt");
      return body;
    };
    expect((await fetch(`${baseUrl}/api/upload?sameName=keep-both`, { method: "POST", body: form() })).status).toBe(
      200,
    );
    expect((await fetch(`${baseUrl}/api/upload?meaning=wait`, { method: "POST", body: form() })).status).toBe(200);
    const refused = await fetch(`${baseUrl}/api/upload?sameName=overwrite`, { method: "POST", body: form() });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'sameName must be "replace" or "keep-both".',
    );
    expect(fake.ingestOptions).toEqual([
      { sameName: "keep-both", meaning: "background" },
      { sameName: "replace", meaning: "wait" },
    ]);
  });

  /** An upload whose body is sent chunked (no Content-Length), held open until `end` is called. */
  const openUpload = (fileName: string) => {
    const boundary = "folio-test-boundary";
    const target = new URL(`${baseUrl}/api/upload`);
    const outgoing: ClientRequest = httpRequest({
      host: target.hostname,
      port: Number(target.port),
      path: target.pathname,
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Transfer-Encoding": "chunked" },
    });
    const reply = once(outgoing, "response").then(async ([response]) => {
      let body = "";
      for await (const chunk of response) body += chunk;
      return { status: response.statusCode as number, body };
    });
    outgoing.on("error", () => undefined);
    outgoing.write(`--${boundary}\r\n`);
    return {
      reply,
      writeField: (size: number) =>
        outgoing.write(`Content-Disposition: form-data; name="note"\r\n\r\n${"x".repeat(size)}\r\n--${boundary}\r\n`),
      end: () =>
        outgoing.end(
          `Content-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
        ),
    };
  };

  it("keeps a non-ASCII file name as sent (UTF-8), not as Latin-1", async () => {
    await start([]);
    const form = new FormData();
    form.append("file", new Blob(["Quarterly figures."]), "Übersicht 2026 – Zürich.txt");
    const response = await fetch(`${baseUrl}/api/upload`, { method: "POST", body: form });
    expect(response.status).toBe(200);
    expect(fake.ingested).toEqual(["Übersicht 2026 – Zürich.txt"]);
    expect(await response.text()).toContain('"file":"Übersicht 2026 – Zürich.txt"');
  });

  it("counts text fields of a chunked body against the upload limit", async () => {
    await start([]);
    const upload = openUpload("a.txt");
    // 1 KB limit plus 64 KB of multipart overhead: 200 KB of text fields is far past it.
    for (let index = 0; index < 4; index += 1) upload.writeField(50 * 1024);
    upload.end();
    const reply = await upload.reply;
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error.code).toBe("file_too_large");
    expect(fake.ingested).toEqual([]);
  });

  it("receives at most four uploads at once and tells a fifth to retry", async () => {
    await start([]);
    const held = [];
    for (let index = 0; index < 4; index += 1) {
      const started = once(uploads, "upload");
      held.push(openUpload(`held-${index}.txt`));
      await started;
    }
    const fifth = openUpload("fifth.txt");
    fifth.end();
    const refused = await fifth.reply;
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.code).toBe("upload_busy");
    for (const upload of held) upload.end();
    expect((await Promise.all(held.map((upload) => upload.reply))).map((reply) => reply.status)).toEqual([
      200, 200, 200, 200,
    ]);
    expect(fake.ingested.sort()).toEqual(["held-0.txt", "held-1.txt", "held-2.txt", "held-3.txt"]);
  });
});
