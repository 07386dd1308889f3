/**
 * The catalog contract: one suite every Catalog implementation must pass (PGlite and PostgreSQL).
 * Each test works in its own space, so the suite can share one database and run in any order.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { NewDocument } from "../../src/domain/types.js";
import type { Catalog, ChunkToStore } from "../../src/stores/catalog.js";
import { createSeededRandom } from "../support/seeded-random.js";

export type CatalogFactory = () => Promise<{ catalog: Catalog; close(): Promise<void> }>;

function newSpaceId(): string {
  return `test:${randomUUID()}`;
}

function sampleDocument(spaceId: string, overrides: Partial<NewDocument> = {}): NewDocument {
  return {
    spaceId,
    title: "Employee Handbook",
    fileName: "handbook.pdf",
    mediaType: "application/pdf",
    sha256: randomUUID().replaceAll("-", ""),
    byteSize: 5,
    pageCount: 2,
    uploader: "U123",
    bytes: new Uint8Array([37, 80, 68, 70, 0]),
    ...overrides,
  };
}

const sampleChunks: ChunkToStore[] = [
  {
    kind: "text",
    text: "Parental leave is 16 weeks.",
    tokenCount: 9,
    position: 0,
    provenance: { pageStart: 1, pageEnd: 2, charStart: 10, charEnd: 4 },
    terms: { termIds: [3, 7, 11], counts: [1, 2, 1], length: 4 },
  },
  {
    kind: "table",
    text: "Plan | Days\nBasic | 10",
    tokenCount: 12,
    position: 1,
    provenance: { sheet: "Leave", rowStart: 1, rowEnd: 1, headingPath: ["Benefits", "Leave"] },
    terms: { termIds: [7, 20], counts: [1, 1], length: 2 },
  },
];

export function runCatalogContract(name: string, openCatalog: CatalogFactory): void {
  describe(`catalog contract: ${name}`, () => {
    // One database per suite: every test works in its own space, so they cannot see each other.
    let opened: Awaited<ReturnType<CatalogFactory>>;
    beforeAll(async () => {
      opened = await openCatalog();
      return () => opened.close();
    });
    async function withCatalog(test: (catalog: Catalog) => Promise<void>): Promise<void> {
      await test(opened.catalog);
    }

    it("creates a space once and finds it again", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        expect(await catalog.getSpace(spaceId)).toBeNull();
        const created = await catalog.ensureSpace(spaceId, "General");
        const again = await catalog.ensureSpace(spaceId, "Renamed");
        expect(created.title).toBe("General");
        expect(again).toEqual(created);
        const listed = await catalog.listSpaces();
        expect(listed.filter((space) => space.id === spaceId)).toEqual([created]);
      }));

    it("renames a space under the same id, its documents still in it, and renames no space that is not there", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const created = await catalog.ensureSpace(spaceId, "Handbook");
        const { document } = await catalog.addDocument({ document: sampleDocument(spaceId), pages: [], chunks: [] });
        const renamed = await catalog.renameSpace(spaceId, "Company handbook");
        expect(renamed).toEqual({ ...created, title: "Company handbook" });
        expect(await catalog.getSpace(spaceId)).toEqual(renamed);
        expect((await catalog.listDocuments(spaceId)).map((listed) => listed.id)).toEqual([document.id]);
        expect(await catalog.renameSpace(newSpaceId(), "Nowhere")).toBeNull();
      }));

    it("adds a document with pages and chunks and reads them back exactly", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        await catalog.ensureSpace(spaceId);
        const input = sampleDocument(spaceId);
        const pages = [
          { pageNumber: 1, text: "Page one" },
          { pageNumber: 2, text: "Page two" },
        ];
        const { document, chunks } = await catalog.addDocument({ document: input, pages, chunks: sampleChunks });
        expect(document).toMatchObject({ spaceId, title: "Employee Handbook", fileName: "handbook.pdf", pageCount: 2 });
        expect(document.status).toBe("ready");
        expect(await catalog.getDocument(document.id)).toEqual(document);
        expect(await catalog.getDocuments([document.id, "not-a-uuid", document.id])).toEqual([document]);
        expect(await catalog.getDocumentBytes(document.id)).toEqual(new Uint8Array([37, 80, 68, 70, 0]));
        expect(await catalog.getPages(document.id)).toEqual(pages);
        const listed = await catalog.listChunks(document.id);
        expect(listed).toEqual(chunks);
        expect(listed.map(({ id, documentId, spaceId: chunkSpace, ...draft }) => draft)).toEqual(
          sampleChunks.map(({ terms, ...draft }) => draft),
        );
        const [first, second] = chunks;
        expect(await catalog.getChunks([second?.id ?? "", randomUUID(), first?.id ?? ""])).toEqual([second, first]);
        expect(await catalog.findDocumentBySha256(spaceId, input.sha256)).toEqual(document);
        expect(await catalog.findDocumentBySha256(newSpaceId(), input.sha256)).toBeNull();
        expect(await catalog.listDocuments(spaceId)).toEqual([document]);
      }));

    it("keeps a document searchable by keywords only until its meaning is marked ready", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const plain = await catalog.addDocument({ document: sampleDocument(spaceId), pages: [], chunks: [] });
        expect(plain.document.awaitingMeaning).toBe(false);
        const job = await catalog.createJob({ spaceId, fileName: "handbook.pdf" });
        const { document } = await catalog.addDocument({
          document: sampleDocument(spaceId, { awaitingMeaning: true }),
          pages: [],
          chunks: sampleChunks,
          jobId: job.id,
        });
        expect(document.awaitingMeaning).toBe(true);
        const awaiting = async () =>
          (await catalog.listDocumentsAwaitingMeaning()).filter((listed) => listed.spaceId === spaceId);
        // Still indexing: not searchable at all, so nothing to resume yet.
        expect(await awaiting()).toEqual([]);
        await catalog.markDocumentReady(document.id);
        expect((await awaiting()).map((listed) => listed.id)).toEqual([document.id]);
        expect(await catalog.markDocumentMeaningReady(document.id)).toBe(true);
        expect(await catalog.markDocumentMeaningReady(document.id)).toBe(false);
        expect(await catalog.markDocumentMeaningReady("not-a-uuid")).toBe(false);
        expect(await awaiting()).toEqual([]);
        expect((await catalog.getDocument(document.id))?.awaitingMeaning).toBe(false);
      }));

    it("refuses the same bytes twice in one space", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const input = sampleDocument(spaceId);
        await catalog.addDocument({ document: input, pages: [], chunks: [] });
        await expect(catalog.addDocument({ document: input, pages: [], chunks: sampleChunks })).rejects.toMatchObject({
          code: "duplicate_document",
        });
        // The failed insert left no statistics behind.
        expect((await catalog.getTermStatistics([spaceId], [7])).chunkCount).toBe(0);
        expect(await catalog.listDocuments(spaceId)).toHaveLength(1);
      }));

    it("keeps exact BM25 statistics per space and removes them with the document", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const otherSpace = newSpaceId();
        const first = await catalog.addDocument({ document: sampleDocument(spaceId), pages: [], chunks: sampleChunks });
        await catalog.addDocument({
          document: sampleDocument(otherSpace),
          pages: [],
          chunks: [sampleChunks[0] as ChunkToStore],
        });
        const statistics = await catalog.getTermStatistics([spaceId], [3, 7, 20, 99]);
        expect(statistics.chunkCount).toBe(2);
        expect(statistics.totalLength).toBe(6);
        expect(Object.fromEntries(statistics.documentFrequencies)).toEqual({ 3: 1, 7: 2, 20: 1 });
        const both = await catalog.getTermStatistics([spaceId, otherSpace], [7]);
        expect(both.chunkCount).toBe(3);
        expect(both.totalLength).toBe(10);
        expect(both.documentFrequencies.get(7)).toBe(3);
        const terms = await catalog.listChunkTerms(spaceId);
        expect(terms.map((entry) => entry.terms)).toEqual(sampleChunks.map((chunk) => chunk.terms));

        expect(await catalog.deleteDocument(first.document.id)).toBe(true);
        expect(await catalog.deleteDocument(first.document.id)).toBe(false);
        const after = await catalog.getTermStatistics([spaceId], [3, 7, 20]);
        expect(after.chunkCount).toBe(0);
        expect(after.totalLength).toBe(0);
        expect(after.documentFrequencies.size).toBe(0);
        expect(await catalog.getDocument(first.document.id)).toBeNull();
        expect(await catalog.getDocumentBytes(first.document.id)).toBeNull();
        expect(await catalog.getPages(first.document.id)).toEqual([]);
        expect(await catalog.listChunks(first.document.id)).toEqual([]);
        expect(await catalog.getChunks(first.chunks.map((chunk) => chunk.id))).toEqual([]);
        expect(await catalog.listChunkTerms(spaceId)).toEqual([]);
        expect((await catalog.getTermStatistics([otherSpace], [7])).documentFrequencies.get(7)).toBe(1);
      }));

    it("keeps exact statistics over many chunks added and removed in batches", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const random = createSeededRandom(7);
        const makeChunks = (count: number): ChunkToStore[] =>
          Array.from({ length: count }, (_, position) => {
            const termIds = [...new Set(Array.from({ length: 30 }, () => Math.floor(random() * 2 ** 29)))].slice(
              0,
              1 + (position % 30),
            );
            const counts = termIds.map(() => 1 + Math.floor(random() * 4));
            return {
              kind: "text",
              text: `chunk ${position} — naïve café`,
              tokenCount: 10 + position,
              position,
              provenance: { pageStart: 1 + position, pageEnd: 1 + position, charStart: 0, charEnd: 5 },
              terms: { termIds, counts, length: counts.reduce((sum, count) => sum + count, 0) },
            };
          });
        const kept = makeChunks(250);
        const removed = makeChunks(120);
        await catalog.addDocument({ document: sampleDocument(spaceId), pages: [], chunks: kept });
        const gone = await catalog.addDocument({ document: sampleDocument(spaceId), pages: [], chunks: removed });
        expect(await catalog.deleteDocument(gone.document.id)).toBe(true);

        const expectedFrequencies = new Map<number, number>();
        for (const chunk of kept) {
          for (const termId of chunk.terms.termIds)
            expectedFrequencies.set(termId, (expectedFrequencies.get(termId) ?? 0) + 1);
        }
        const askedTerms = [...expectedFrequencies.keys(), ...removed.flatMap((chunk) => chunk.terms.termIds)];
        const statistics = await catalog.getTermStatistics([spaceId], askedTerms);
        expect(statistics.chunkCount).toBe(250);
        expect(statistics.totalLength).toBe(kept.reduce((sum, chunk) => sum + chunk.terms.length, 0));
        expect(new Map([...statistics.documentFrequencies].sort(([left], [right]) => left - right))).toEqual(
          new Map([...expectedFrequencies].sort(([left], [right]) => left - right)),
        );
        const stored = await catalog.listChunkTerms(spaceId);
        expect(stored.map((entry) => entry.terms)).toEqual(kept.map((chunk) => chunk.terms));
      }));

    it("moves ingestion jobs only along queued → running → succeeded | failed", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const job = await catalog.createJob({ spaceId, fileName: "a.pdf" });
        expect(job).toMatchObject({ spaceId, fileName: "a.pdf", status: "queued", documentId: null, errorCode: null });
        await expect(catalog.updateJob(job.id, { status: "succeeded" })).rejects.toMatchObject({
          code: "invalid_job_transition",
        });
        const running = await catalog.updateJob(job.id, { status: "running" });
        expect(running.status).toBe("running");
        const failed = await catalog.updateJob(job.id, {
          status: "failed",
          errorCode: "pdf_encrypted",
          errorMessage: "This PDF is password protected.",
        });
        expect(failed).toMatchObject({ status: "failed", errorCode: "pdf_encrypted" });
        expect(failed.updatedAt.getTime()).toBeGreaterThanOrEqual(job.updatedAt.getTime());
        await expect(catalog.updateJob(job.id, { status: "running" })).rejects.toMatchObject({
          code: "invalid_job_transition",
        });
        expect(await catalog.getJob(job.id)).toEqual(failed);
        const queued = await catalog.createJob({ spaceId, fileName: "b.pdf" });
        await expect(catalog.updateJob(queued.id, { status: "failed" })).rejects.toMatchObject({
          code: "invalid_job_transition",
        });
        await catalog.updateJob(queued.id, { status: "running" });
        const documentId = randomUUID();
        const succeeded = await catalog.updateJob(queued.id, { status: "succeeded", documentId });
        expect(succeeded).toMatchObject({ status: "succeeded", documentId, errorCode: null, errorMessage: null });
        await expect(catalog.updateJob(queued.id, { status: "failed" })).rejects.toMatchObject({
          code: "invalid_job_transition",
        });
        await expect(catalog.updateJob(randomUUID(), { status: "running" })).rejects.toMatchObject({
          code: "job_not_found",
        });
      }));

    it("de-duplicates event ids under concurrent inserts", () =>
      withCatalog(async (catalog) => {
        const eventId = `Ev${randomUUID()}`;
        const outcomes = await Promise.all(Array.from({ length: 20 }, () => catalog.markEventProcessed(eventId)));
        expect(outcomes.filter(Boolean)).toHaveLength(1);
        expect(await catalog.markEventProcessed(eventId)).toBe(false);
        expect(await catalog.markEventProcessed(`${eventId}-other`)).toBe(true);
        await catalog.releaseEvent(eventId);
        expect(await catalog.markEventProcessed(eventId)).toBe(true);
        expect(await catalog.markEventProcessed(eventId)).toBe(false);
      }));

    it("treats ids that are not uuids as unknown", () =>
      withCatalog(async (catalog) => {
        const spaceId = newSpaceId();
        const { chunks } = await catalog.addDocument({
          document: sampleDocument(spaceId),
          pages: [],
          chunks: sampleChunks,
        });
        expect(await catalog.getDocument("not-a-uuid")).toBeNull();
        expect(await catalog.getDocumentBytes("../etc/passwd")).toBeNull();
        expect(await catalog.getPages("x")).toEqual([]);
        expect(await catalog.listChunks("x")).toEqual([]);
        expect(await catalog.getChunks(["x", chunks[0]?.id ?? ""])).toEqual([chunks[0]]);
        expect(await catalog.deleteDocument("x")).toBe(false);
        expect(await catalog.getJob("x")).toBeNull();
        await expect(catalog.updateJob("x", { status: "running" })).rejects.toMatchObject({ code: "job_not_found" });
      }));

    it("keeps settings: set, overwrite, read back, remove", () =>
      withCatalog(async (catalog) => {
        const key = `test.setting:${randomUUID()}`;
        expect(await catalog.getSetting(key)).toBeNull();
        await catalog.setSetting(key, "on");
        expect(await catalog.getSetting(key)).toBe("on");
        await catalog.setSetting(key, "off");
        expect(await catalog.getSetting(key)).toBe("off");
        expect(await catalog.getSetting(`${key}-other`)).toBeNull();
        await catalog.setSetting(key, null);
        expect(await catalog.getSetting(key)).toBeNull();
        await catalog.setSetting(key, null);
        expect(await catalog.getSetting(key)).toBeNull();
      }));

    it("stores feedback per answer", () =>
      withCatalog(async (catalog) => {
        const answerId = randomUUID();
        const spaceId = newSpaceId();
        await catalog.addFeedback({ answerId, spaceId, user: "U1", rating: "up" });
        await catalog.addFeedback({ answerId, spaceId, user: "U2", rating: "down", comment: "wrong page" });
        const feedback = await catalog.listFeedback(answerId);
        expect(feedback.map(({ user, rating, comment }) => ({ user, rating, comment }))).toEqual([
          { user: "U1", rating: "up", comment: null },
          { user: "U2", rating: "down", comment: "wrong page" },
        ]);
      }));
  });
}
