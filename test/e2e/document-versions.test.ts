/**
 * Uploads through a real Folio (embedded PGlite, the real embedding model) behind its real HTTP
 * server: a background upload is searchable by keywords when it returns and by meaning once its
 * vectors are written, with the events a console tab hears; a file with the name of an earlier one
 * replaces it (or is kept beside it), and a link from an earlier answer to the replaced version says
 * so and opens the current one; a browser opening a link sees the title and file name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelDocument } from "../../src/domain/document-label.js";
import { escapeHtml } from "../../src/http/viewer-page.js";
import type { DocumentEvent } from "../../src/ingest/document-events.js";
import { hasSharedData } from "../support/shared-paths.js";
import { startTestServer, type TestServer } from "../support/start-test-server.js";

const SPACE = "console:default";
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const encode = (text: string) => new TextEncoder().encode(text);

if (!hasSharedData) console.warn("document versions: skipped — no shared data (../shared) for the embedding model.");

describe.skipIf(!hasSharedData)("document versions, searchability and the viewer (real Folio over HTTP)", () => {
  let server: TestServer;
  const events: DocumentEvent[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    server.folio.documentEvents.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Resolves with the first event matching, including one already heard. */
  const heard = (matches: (event: DocumentEvent) => boolean) =>
    new Promise<DocumentEvent>((resolve) => {
      const earlier = events.find(matches);
      if (earlier) return resolve(earlier);
      const stop = server.folio.documentEvents.subscribe((event) => {
        if (!matches(event)) return;
        stop();
        resolve(event);
      });
    });

  it("is searchable by keywords when a background upload returns, and by meaning once its vectors are written", async () => {
    const result = await server.folio.core.ingestFile({
      bytes: encode("# Gym rules\n\nThe rooftop sauna opens at seven in the morning and closes at nine at night.\n"),
      fileName: "gym-rules.md",
      spaceId: SPACE,
      uploader: "console",
      meaning: "background",
    });
    expect(result).toMatchObject({ status: "ingested", searchableBy: "keywords", meaningPending: true });
    const documentId = result.documentId ?? "";
    expect(events).toContainEqual({ type: "added", spaceId: SPACE, documentId });
    const byKeywords = await server.folio.retriever.search({
      query: "rooftop sauna",
      spaceIds: [SPACE],
      limit: 1,
      mode: "sparse",
    });
    expect(byKeywords.map((hit) => hit.documentId)).toEqual([documentId]);

    await heard((event) => event.type === "meaning_ready" && event.documentId === documentId);
    expect((await server.folio.catalog.getDocument(documentId))?.awaitingMeaning).toBe(false);
    const progress = events.filter(
      (event) => event.type === "meaning_progress" && event.documentId === documentId,
    ) as Array<Extract<DocumentEvent, { type: "meaning_progress" }>>;
    expect(progress.at(-1)).toMatchObject({ done: 1, total: 1 });
    // A paraphrase sharing no word with the text: only the dense vectors can find it.
    const byMeaning = await server.folio.retriever.search({
      query: "steam room hours",
      spaceIds: [SPACE],
      limit: 1,
      mode: "dense",
    });
    expect(byMeaning.map((hit) => hit.documentId)).toEqual([documentId]);
  });

  it("embeds again after a restart what a stopped server left searchable by keywords only", async () => {
    // Sixty paragraphs: two slices of embedding, so the server can be stopped between them.
    const text = Array.from(
      { length: 60 },
      (_, index) =>
        `## Rule ${index}\n\nMembers of the ${index} club book the court ${index} days ahead, pay a fee of ${index} dollars, and bring their own equipment to every session of the league.\n`,
    ).join("\n");
    const restartServer = await startTestServer();
    const result = await restartServer.folio.core.ingestFile({
      bytes: encode(text),
      fileName: "court-rules.md",
      spaceId: SPACE,
      uploader: "console",
      meaning: "background",
    });
    const documentId = result.documentId ?? "";
    expect(result.chunks).toBeGreaterThan(32);
    await new Promise<void>((resolve) => {
      const stop = restartServer.folio.documentEvents.subscribe((event) => {
        if (event.type === "meaning_progress" && event.documentId === documentId && event.done >= 32) {
          stop();
          resolve();
        }
      });
    });
    await restartServer.stop();

    const restarted = await startTestServer({ dataDir: restartServer.dataDir });
    try {
      expect((await restarted.folio.catalog.getDocument(documentId))?.awaitingMeaning).toBe(true);
      const ready = new Promise<void>((resolve) =>
        restarted.folio.documentEvents.subscribe((event) => {
          if (event.type === "meaning_ready" && event.documentId === documentId) resolve();
        }),
      );
      expect(await restarted.folio.meaningIndexer?.resumeAwaiting()).toBe(1);
      await ready;
      expect((await restarted.folio.catalog.getDocument(documentId))?.awaitingMeaning).toBe(false);
      const counts = await restarted.folio.vectorIndex.countByDenseModel(SPACE);
      expect(counts.find((entry) => entry.model === null)).toBeUndefined();
    } finally {
      await restarted.close();
    }
  });

  it("replaces an earlier file of the same name, and the earlier version's link says so", async () => {
    const first = await server.folio.core.ingestFile({
      bytes: encode("Parking permits cost 40 dollars a month.\n"),
      fileName: "parking.txt",
      spaceId: SPACE,
      uploader: "console",
    });
    const oldLink = server.folio.core.signedDocumentUrl({ documentId: first.documentId ?? "", page: null });
    const second = await server.folio.core.ingestFile({
      bytes: encode("Parking permits cost 55 dollars a month from January.\n"),
      fileName: "parking.txt",
      spaceId: SPACE,
      uploader: "console",
    });
    expect(second.status).toBe("ingested");
    expect(second.replaced?.map((version) => version.documentId)).toEqual([first.documentId]);
    expect(await server.folio.core.getDocument(first.documentId ?? "")).toBeNull();
    expect(events).toContainEqual({ type: "removed", spaceId: SPACE, documentId: first.documentId });

    const asJson = await fetch(oldLink);
    expect(asJson.status).toBe(410);
    const body = (await asJson.json()) as { error: { code: string; message: string }; currentUrl: string };
    expect(body.error.code).toBe("document_replaced");
    expect(body.error.message).toMatch(
      /^This version of parking\.txt was replaced by a newer upload on \d{4}-\d\d-\d\d; the current version is at http/,
    );
    const current = await fetch(body.currentUrl);
    expect(await current.text()).toBe("Parking permits cost 55 dollars a month from January.\n");

    const asPage = await fetch(oldLink, { headers: { Accept: BROWSER_ACCEPT } });
    expect(asPage.status).toBe(410);
    const html = await asPage.text();
    expect(html).toContain("<h1>This version was replaced</h1>");
    // Signed afresh for each request: the expiry (and so the signature) may differ by a second.
    expect(html).toContain(`href="${server.url}/files/${second.documentId}?exp=`);

    const third = await server.folio.core.ingestFile({
      bytes: encode("Parking permits for bicycles are free.\n"),
      fileName: "parking.txt",
      spaceId: SPACE,
      uploader: "console",
      sameName: "keep-both",
    });
    expect(third.replaced).toBeUndefined();
    const named = (await server.folio.core.listDocuments(SPACE)).filter(
      (document) => document.fileName === "parking.txt",
    );
    expect(named.map((document) => document.id).sort()).toEqual([second.documentId, third.documentId].sort());
  });

  it("shows a browser the document under its title and file name, and the bytes with raw=1", async () => {
    const bytes = encode("<title>Ignored</title>Visitors sign in at the front desk.\n");
    const result = await server.folio.core.ingestFile({
      bytes,
      fileName: "visitors <2026>.txt",
      spaceId: SPACE,
      uploader: "console",
    });
    const document = await server.folio.core.getDocument(result.documentId ?? "");
    const link = server.folio.core.signedDocumentUrl({ documentId: result.documentId ?? "", page: 3 });
    const page = await fetch(link, { headers: { Accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'none'; frame-src 'self'; /);
    const html = await page.text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
    expect(title).toBe(escapeHtml(labelDocument(document?.title ?? "", "visitors <2026>.txt")));
    // The file name is always there, escaped: document data never becomes markup.
    expect(title).toContain("visitors &#60;2026&#62;.txt");
    expect(html).not.toContain("<2026>");
    // A text file is shown as its sections (section-rendering.ts), with the file itself a download away.
    expect(html).toContain('data-role="document-sections"');
    expect(html).toContain("Visitors sign in at the front desk.");
    const source = /<a href="([^"]+)" download=/.exec(html)?.[1]?.replaceAll("&#38;", "&") ?? "";
    expect(source).toMatch(/&raw=1$/);
    const raw = await fetch(new URL(source, link), { headers: { Accept: BROWSER_ACCEPT } });
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(bytes);
  });
});
