/**
 * The background embedding of documents already searchable by keywords, with fakes for the catalog,
 * index and embedder (the real ones are exercised in test/e2e/document-versions.test.ts): slices of 32
 * passages that wait while an upload is parsed, progress told to the waiter and the document events,
 * the catalog marked once the vectors are written, a deleted document skipped, a failure reported.
 */
import { describe, expect, it } from "vitest";
import type { ChunkRecord, DocumentRecord } from "../../src/domain/types.js";
import type { Embedder } from "../../src/embedding/embedder.js";
import { createDocumentEvents, type DocumentEvent } from "../../src/ingest/document-events.js";
import { createMeaningIndexer } from "../../src/ingest/meaning-indexer.js";
import { createParseActivity } from "../../src/ingest/parse-activity.js";
import { silentLogger } from "../../src/logger.js";
import type { Catalog } from "../../src/stores/catalog.js";
import type { VectorIndex } from "../../src/stores/vector-index.js";

const document: DocumentRecord = {
  id: "doc-1",
  spaceId: "console:test",
  title: "Handbook",
  fileName: "handbook.pdf",
  mediaType: "application/pdf",
  sha256: "x",
  byteSize: 1,
  pageCount: 1,
  uploader: "console",
  status: "ready",
  awaitingMeaning: true,
  createdAt: new Date(0),
};

function chunksOf(count: number): ChunkRecord[] {
  return Array.from({ length: count }, (_, position) => ({
    id: `chunk-${position}`,
    documentId: document.id,
    spaceId: document.spaceId,
    kind: "text",
    text: `passage ${position}`,
    tokenCount: 3,
    position,
    provenance: {},
  }));
}

function setup(chunks: ChunkRecord[], embed?: (texts: string[]) => Promise<number[][]>) {
  const calls: string[][] = [];
  const written: Array<{ chunkId: string; dense: number[]; denseModel: string }> = [];
  const marked: string[] = [];
  const events: DocumentEvent[] = [];
  const documentEvents = createDocumentEvents();
  documentEvents.subscribe((event) => events.push(event));
  const parseActivity = createParseActivity();
  const embedder = {
    modelId: "test-model",
    dimensions: 2,
    async embedPassages(texts: string[], options?: { onProgress?: (done: number, total: number) => void }) {
      calls.push(texts);
      const vectors = embed ? await embed(texts) : texts.map((_, index) => [index, 1]);
      options?.onProgress?.(texts.length, texts.length);
      return vectors;
    },
  } as unknown as Embedder;
  const catalog = {
    listChunks: async () => chunks,
    async markDocumentMeaningReady(id: string) {
      marked.push(id);
      return true;
    },
    listDocumentsAwaitingMeaning: async () => [document],
  } as unknown as Catalog;
  const vectorIndex = {
    async updateDense(update: typeof written) {
      written.push(...update);
    },
  } as unknown as VectorIndex;
  const indexer = createMeaningIndexer({
    catalog,
    vectorIndex,
    embedder,
    events: documentEvents,
    logger: silentLogger,
    parseActivity,
  });
  return { indexer, calls, written, marked, events, parseActivity };
}

describe("meaning indexer", () => {
  it("embeds in slices of 32 that wait while an upload is parsed, then marks the document", async () => {
    const { indexer, calls, written, marked, events, parseActivity } = setup(chunksOf(40));
    const parseEnded = parseActivity.begin();
    const progress: Array<{ done: number; total: number }> = [];
    const done = indexer.enqueue(document, (value) => progress.push(value));
    // Give the indexer every chance to start: it must not while the parse runs.
    for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([]);
    expect(indexer.progressOf(document.id)).toEqual({ done: 0, total: 40 });
    parseEnded();
    expect(await done).toBe(true);
    expect(calls.map((texts) => texts.length)).toEqual([32, 8]);
    // Indexed under the same contextual header as the BM25 terms.
    expect(calls[0]?.[0]).toBe("Handbook\npassage 0");
    expect(written.map((entry) => entry.chunkId)).toEqual(chunksOf(40).map((chunk) => chunk.id));
    expect(written.every((entry) => entry.denseModel === "test-model")).toBe(true);
    expect(marked).toEqual([document.id]);
    expect(progress).toEqual([
      { done: 0, total: 40 },
      { done: 32, total: 40 },
      { done: 40, total: 40 },
    ]);
    expect(events.at(-1)).toEqual({ type: "meaning_ready", spaceId: document.spaceId, documentId: document.id });
    expect(indexer.progressOf(document.id)).toBeNull();
  });

  it("skips a document deleted before its turn", async () => {
    const { indexer, calls, marked } = setup([]);
    expect(await indexer.enqueue(document)).toBe(false);
    expect(calls).toEqual([]);
    expect(marked).toEqual([]);
  });

  it("reports a failed embedding and leaves the document awaiting meaning", async () => {
    const { indexer, marked, events } = setup(chunksOf(3), async () => {
      throw new Error("the model crashed");
    });
    await expect(indexer.enqueue(document)).rejects.toThrow("the model crashed");
    expect(marked).toEqual([]);
    expect(events.at(-1)).toEqual({ type: "meaning_failed", spaceId: document.spaceId, documentId: document.id });
    expect(indexer.hasFailed(document.id)).toBe(true);
    expect(indexer.hasFailed("another")).toBe(false);
  });

  it("resumes the documents the catalog lists as awaiting meaning, and refuses work once closed", async () => {
    const { indexer, marked } = setup(chunksOf(2));
    expect(await indexer.resumeAwaiting()).toBe(1);
    await indexer.close();
    await expect(indexer.enqueue(document)).rejects.toMatchObject({ code: "shutting_down" });
    // Closed before its turn came, or written just before: never marked without its vectors.
    expect(marked.length).toBeLessThanOrEqual(1);
  });

  it("embeds an upload queued during catch-up work between two of the catch-up's slices", async () => {
    const catchUp: DocumentRecord = { ...document, id: "left-by-a-stopped-server", title: "left-by-a-stopped-server" };
    const upload: DocumentRecord = { ...document, id: "just-uploaded", title: "just-uploaded" };
    const chunksFor = (documentId: string, count: number) =>
      chunksOf(count).map((chunk) => ({ ...chunk, id: `${documentId}-${chunk.position}`, documentId }));
    const embedded: string[] = [];
    let releaseFirst: () => void = () => {};
    const firstSliceHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let startedFirst: () => void = () => {};
    const firstSliceStarted = new Promise<void>((resolve) => {
      startedFirst = resolve;
    });
    const embedder = {
      modelId: "test-model",
      dimensions: 2,
      async embedPassages(texts: string[]) {
        // The index text starts with the document's title (its contextual header).
        embedded.push(`${texts.length} of ${texts[0]?.split(" — ")[0]}`);
        if (embedded.length === 1) {
          startedFirst();
          await firstSliceHeld;
        }
        return texts.map(() => [1, 0]);
      },
    } as unknown as Embedder;
    const catalog = {
      listChunks: async (documentId: string) => chunksFor(documentId, documentId === catchUp.id ? 64 : 5),
      markDocumentMeaningReady: async () => true,
      listDocumentsAwaitingMeaning: async () => [catchUp],
    } as unknown as Catalog;
    const vectorIndex = { updateDense: async () => {} } as unknown as VectorIndex;
    const indexer = createMeaningIndexer({
      catalog,
      vectorIndex,
      embedder,
      events: createDocumentEvents(),
      logger: silentLogger,
    });
    expect(await indexer.resumeAwaiting()).toBe(1);
    await firstSliceStarted;
    const uploaded = indexer.enqueue(upload);
    releaseFirst();
    expect(await uploaded).toBe(true);
    // The catch-up's own promise (asked for again as catch-up work, so not moved ahead).
    expect(await indexer.enqueue(catchUp, undefined, "catch-up")).toBe(true);
    expect(embedded).toEqual([
      "32 of left-by-a-stopped-server",
      "5 of just-uploaded",
      "32 of left-by-a-stopped-server",
    ]);
  });
});
