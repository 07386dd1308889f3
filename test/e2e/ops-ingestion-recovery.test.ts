/**
 * Start-up recovery of interrupted ingestion on real stores (embedded PGlite catalog with its pgvector
 * index, in memory): a document stored as "indexing" is invisible to search until it is ready; a job
 * still touched by its process is left alone; an abandoned one is failed and its document and vectors
 * removed; a job whose document was complete is closed as succeeded; a queued job is failed.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewDocument } from "../../src/domain/types.js";
import { recoverInterruptedIngestion } from "../../src/ingest/interrupted-ingestion.js";
import { silentLogger } from "../../src/logger.js";
import type { Catalog, ChunkToStore } from "../../src/stores/catalog.js";
import { openStores, type Stores } from "../../src/stores/open-stores.js";
import type { VectorIndex } from "../../src/stores/vector-index.js";

const chunk: ChunkToStore = {
  kind: "text",
  text: "Forklift inspections are recorded by the shift supervisor.",
  tokenCount: 9,
  position: 0,
  provenance: { pageStart: 1, pageEnd: 1, charStart: 0, charEnd: 58 },
  terms: { termIds: [3, 7], counts: [1, 1], length: 2 },
};

function newDocument(spaceId: string): NewDocument {
  return {
    spaceId,
    title: "Depot rota",
    fileName: "rota.pdf",
    mediaType: "application/pdf",
    sha256: randomUUID().replaceAll("-", ""),
    byteSize: 3,
    pageCount: 1,
    uploader: "U1",
    bytes: new Uint8Array([1, 2, 3]),
  };
}

describe("interrupted ingestion recovery", () => {
  let stores: Stores;
  let catalog: Catalog;
  let vectorIndex: VectorIndex;

  beforeAll(async () => {
    stores = await openStores({ mode: "embedded", dataDir: "memory://" }, { denseDimensions: 4, logger: silentLogger });
    catalog = stores.catalog;
    if (!stores.vectorIndex) throw new Error("embedded stores have a vector index");
    vectorIndex = stores.vectorIndex;
  }, 60_000);

  afterAll(async () => {
    await vectorIndex?.close();
    await stores?.client.close();
  });

  /** A running job whose document is stored (as indexing) with its one vector written. */
  async function interruptedUpload(spaceId: string) {
    await catalog.ensureSpace(spaceId);
    const job = await catalog.createJob({ spaceId, fileName: "rota.pdf" });
    await catalog.updateJob(job.id, { status: "running" });
    const stored = await catalog.addDocument({
      document: newDocument(spaceId),
      pages: [{ pageNumber: 1, text: chunk.text }],
      chunks: [chunk],
      jobId: job.id,
    });
    const chunkId = stored.chunks[0]?.id ?? "";
    await vectorIndex.upsert([
      { chunkId, documentId: stored.document.id, spaceId, sparse: { indices: [3, 7], values: [1, 1] } },
    ]);
    return { job, documentId: stored.document.id, chunkId };
  }

  const sparseHits = (spaceId: string) =>
    vectorIndex.querySparse({ indices: [3, 7], values: [1, 1] }, { spaceIds: [spaceId], limit: 10 });

  /** Makes a job look abandoned: its process last touched it `ageMs` ago. */
  async function age(jobId: string, ageMs: number) {
    await stores.client.query(
      "UPDATE ingestion_jobs SET updated_at = clock_timestamp() - make_interval(secs => $2::float8 / 1000) WHERE id = $1",
      [jobId, ageMs],
    );
  }

  it("hides an indexing document from search until it is ready", async () => {
    const spaceId = `space-${randomUUID()}`;
    const { job, documentId, chunkId } = await interruptedUpload(spaceId);
    expect((await catalog.getJob(job.id))?.documentId).toBe(documentId);
    expect((await catalog.getDocument(documentId))?.status).toBe("indexing");
    expect(await catalog.getChunks([chunkId])).toEqual([]);
    expect(await catalog.listChunkTerms(spaceId)).toEqual([]);

    await catalog.markDocumentReady(documentId);
    expect((await catalog.getChunks([chunkId])).map((found) => found.id)).toEqual([chunkId]);
    expect((await catalog.listChunkTerms(spaceId)).map((entry) => entry.chunkId)).toEqual([chunkId]);
    await expect(catalog.markDocumentReady(documentId)).rejects.toMatchObject({ code: "document_not_indexing" });
    await catalog.updateJob(job.id, { status: "succeeded", documentId });
  });

  it("leaves a live job alone and cleans up an abandoned one: rows, vectors and bytes", async () => {
    const spaceId = `space-${randomUUID()}`;
    const { job, documentId } = await interruptedUpload(spaceId);
    await age(job.id, 30_000);
    await catalog.touchJob(job.id); // its process is alive and says so
    expect(await recoverInterruptedIngestion({ catalog, vectorIndex, logger: silentLogger, staleForMs: 20_000 })).toBe(
      0,
    );
    expect(await catalog.getDocument(documentId)).not.toBeNull();

    await age(job.id, 30_000); // …and then it died
    const recovered = await recoverInterruptedIngestion({
      catalog,
      vectorIndex,
      logger: silentLogger,
      staleForMs: 20_000,
    });
    expect(recovered).toBeGreaterThanOrEqual(1);
    expect(await catalog.getDocument(documentId)).toBeNull();
    expect(await catalog.getDocumentBytes(documentId)).toBeNull();
    expect(await catalog.getPages(documentId)).toEqual([]);
    expect(await sparseHits(spaceId)).toEqual([]);
    expect((await catalog.getTermStatistics([spaceId], [3])).chunkCount).toBe(0);
    expect(await catalog.getJob(job.id)).toMatchObject({ status: "failed", errorCode: "ingestion_interrupted" });
    // A second replica's sweep finds nothing more to do.
    expect(await recoverInterruptedIngestion({ catalog, vectorIndex, logger: silentLogger, staleForMs: 0 })).toBe(0);
  });

  it("closes a job whose document was complete, and fails a job that never started", async () => {
    const spaceId = `space-${randomUUID()}`;
    const { job, documentId } = await interruptedUpload(spaceId);
    await catalog.markDocumentReady(documentId);
    const queued = await catalog.createJob({ spaceId, fileName: "later.pdf" });
    await recoverInterruptedIngestion({ catalog, vectorIndex, logger: silentLogger, staleForMs: 0 });
    expect(await catalog.getJob(job.id)).toMatchObject({ status: "succeeded", documentId });
    expect((await catalog.getDocument(documentId))?.status).toBe("ready");
    expect((await sparseHits(spaceId)).length).toBe(1);
    expect(await catalog.getJob(queued.id)).toMatchObject({ status: "failed", errorCode: "ingestion_interrupted" });
  });
});
