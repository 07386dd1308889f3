/**
 * Ingestion of one uploaded file: dedupe by content hash, parse, chunk and count terms off the main thread,
 * store document + pages + chunks in one catalog transaction (as "indexing", invisible to search),
 * write the BM25 vectors, then flip the document to "ready": searchable by keywords. Its passages are
 * embedded after that, in the background (meaning-indexer.ts). A rejected file leaves nothing behind but a
 * failed job row with its reason; a process that dies half-way leaves a running job that start-up
 * recovery (interrupted-ingestion.ts) fails cleanly, removing the document, its vectors and bytes.
 */
import { createHash } from "node:crypto";
import type { ParsedDocument } from "../../ingestion/parsed-document.js";
import { indexedDocument } from "../domain/index-text.js";
import type { DocumentRecord, MediaType } from "../domain/types.js";
import { FolioError, ParseError, toFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type Bm25Parameters, documentVector } from "../retrieval/bm25.js";
import { countTerms } from "../retrieval/text-analyzer.js";
import type { Catalog, ChunkToStore } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import { mapInSlices } from "../workers/map-in-slices.js";
import type { DocumentEvents } from "./document-events.js";
import { recordReplacement } from "./document-versions.js";
import type { IngestInput, IngestResult, ReplacedVersion } from "./ingest-result.js";
import type { MeaningIndexer } from "./meaning-indexer.js";
import type { ParseActivity } from "./parse-activity.js";
import type { SparseVectorMaintainer } from "./sparse-vector-maintainer.js";

/**
 * Parses and chunks one file in isolation (a worker thread in production), each chunk with its term counts
 * under its contextual header (index-text.ts, `indexedDocument` for the title). Throws ParseError.
 */
export type ProcessFile = (input: {
  bytes: Uint8Array;
  fileName: string;
  signal?: AbortSignal;
}) => Promise<{ document: ParsedDocument; chunks: ChunkToStore[] }>;

export type IngestionServiceOptions = {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  processFile: ProcessFile;
  sparseVectors: SparseVectorMaintainer;
  /** Writes dense vectors in the background; null: keyword-only (no embedding model loaded). */
  meaning: MeaningIndexer | null;
  /** Told when a document is added or replaced; absent in set-ups nobody watches (evaluations). */
  events?: DocumentEvents;
  /** Where parses are counted, so background embedding can step aside for them. */
  parseActivity?: ParseActivity;
  bm25: Bm25Parameters;
  logger: Logger;
  /** How often a running job records that it is alive (default 5 s); recovery leaves live jobs alone. */
  heartbeatMs?: number;
};

export const DEFAULT_JOB_HEARTBEAT_MS = 5_000;

export type IngestionService = {
  ingestFile(input: IngestInput): Promise<IngestResult>;
};

export function createIngestionService(options: IngestionServiceOptions): IngestionService {
  const { catalog, vectorIndex, meaning, events, processFile, sparseVectors, logger } = options;

  async function ingestFile(input: IngestInput): Promise<IngestResult> {
    const startedAt = Date.now();
    const fileLogger = logger.child({ space: input.spaceId, file: input.fileName });
    input.onProgress?.("received");
    const sha256 = createHash("sha256").update(input.bytes).digest("hex");
    await catalog.ensureSpace(input.spaceId);
    const unchanged = async (): Promise<IngestResult | null> => {
      const existing = await catalog.findDocumentBySha256(input.spaceId, sha256);
      if (!existing) return null;
      const chunkCount = (await catalog.listChunks(existing.id)).length;
      input.onProgress?.("done");
      fileLogger.info({ documentId: existing.id }, "file unchanged; already ingested");
      return {
        file: input.fileName,
        documentId: existing.id,
        status: "unchanged",
        pages: existing.pageCount,
        chunks: chunkCount,
        searchableBy: meaning !== null && !existing.awaitingMeaning ? "meaning" : "keywords",
        ...(meaning !== null && existing.awaitingMeaning ? { meaningPending: true } : {}),
      };
    };
    const already = await unchanged();
    if (already) return already;

    const job = await catalog.createJob({ spaceId: input.spaceId, fileName: input.fileName });
    await catalog.updateJob(job.id, { status: "running" });
    const heartbeat = setInterval(() => {
      catalog.touchJob(job.id).catch((error: unknown) => {
        fileLogger.warn({ err: error, jobId: job.id }, "could not record that the ingestion job is alive");
      });
    }, options.heartbeatMs ?? DEFAULT_JOB_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      input.onProgress?.("parsing");
      const parseEnded = options.parseActivity?.begin();
      const processed = await processFile({
        bytes: input.bytes,
        fileName: input.fileName,
        signal: input.signal,
      }).finally(() => parseEnded?.());
      if (processed.chunks.length === 0) {
        throw new ParseError(
          "no_text",
          "This file contains no text Folio can search — check that it is not empty or an image.",
          {
            file: input.fileName,
          },
        );
      }
      // Stored and searchable by keywords first; embedding (most of an upload's time on CPU: 3–6 passages
      // a second) follows in the background (meaning-indexer.ts), so a 260-page filing is found in seconds.
      const { title } = indexedDocument(processed.document.title, input.fileName);
      input.onProgress?.("indexing");
      const termsByPosition = new Map(processed.chunks.map((chunk) => [chunk.position, chunk.terms]));
      const stored = await catalog.addDocument({
        document: {
          spaceId: input.spaceId,
          title,
          fileName: input.fileName,
          mediaType: processed.document.mediaType as MediaType,
          sha256,
          byteSize: input.bytes.byteLength,
          pageCount: processed.document.pages?.length ?? null,
          uploader: input.uploader,
          bytes: input.bytes,
          awaitingMeaning: meaning !== null,
        },
        pages: processed.document.pages ?? [],
        chunks: processed.chunks,
        jobId: job.id,
      });
      try {
        if (input.signal?.aborted) throw input.signal.reason;
        const statistics = await catalog.getTermStatistics([input.spaceId], []);
        const averageLength = statistics.chunkCount > 0 ? statistics.totalLength / statistics.chunkCount : 1;
        // Work proportional to the document runs in slices on this thread, so requests are answered meanwhile.
        await vectorIndex.upsert(
          await mapInSlices(stored.chunks, (chunk) => ({
            chunkId: chunk.id,
            documentId: stored.document.id,
            spaceId: input.spaceId,
            sparse: documentVector(
              termsByPosition.get(chunk.position) ?? countTerms(chunk.text),
              averageLength,
              options.bm25,
            ),
          })),
        );
        // Every sparse vector is written: from here on keyword search may return the document's chunks.
        await catalog.markDocumentReady(stored.document.id);
      } catch (error) {
        // Keep catalog and index consistent: vectors written by earlier batches go with the document.
        await vectorIndex.deleteByDocument(stored.document.id).catch((cleanupError: unknown) => {
          fileLogger.error({ err: cleanupError, documentId: stored.document.id }, "could not remove partial vectors");
        });
        await catalog.deleteDocument(stored.document.id);
        throw error;
      }
      const ready: DocumentRecord = { ...stored.document, status: "ready" };
      events?.publish({ type: "added", spaceId: input.spaceId, documentId: ready.id });
      fileLogger.info(
        { documentId: ready.id, chunks: stored.chunks.length, latencyMs: Date.now() - startedAt },
        "searchable by keywords",
      );
      const replaced =
        (input.sameName ?? "replace") === "replace" ? await replaceEarlierVersions(input, ready, fileLogger) : [];
      await catalog.updateJob(job.id, { status: "succeeded", documentId: ready.id });
      // The document is in; refreshing the space's length normalisation is upkeep, not part of this upload.
      await sparseVectors.refreshIfDrifted(input.spaceId).catch((error: unknown) => {
        fileLogger.warn({ err: error }, "BM25 vectors of the space could not be refreshed; they will be next time");
      });
      clearInterval(heartbeat);
      const searchableBy = await searchableByMeaning(input, ready, fileLogger);
      input.onProgress?.("done");
      fileLogger.info(
        { documentId: ready.id, chunks: stored.chunks.length, searchableBy, latencyMs: Date.now() - startedAt },
        "file ingested",
      );
      return {
        file: input.fileName,
        documentId: ready.id,
        status: "ingested",
        pages: ready.pageCount,
        chunks: stored.chunks.length,
        searchableBy,
        ...(searchableBy === "keywords" && meaning !== null && input.meaning === "background"
          ? { meaningPending: true }
          : {}),
        ...(replaced.length > 0 ? { replaced } : {}),
      };
    } catch (error) {
      clearInterval(heartbeat);
      // Two uploads of the same bytes at once: the second one lost the race and is simply unchanged.
      if (error instanceof FolioError && error.code === "duplicate_document") {
        const raced = await unchanged();
        if (raced) {
          await catalog.updateJob(job.id, { status: "succeeded", documentId: raced.documentId });
          return raced;
        }
      }
      const failure = toFolioError(error, "ingestion_failed");
      await catalog
        .updateJob(job.id, { status: "failed", errorCode: failure.code, errorMessage: failure.message })
        .catch((updateError: unknown) => {
          // Another replica's sweep took this job for interrupted and closed it already.
          if (!(updateError instanceof FolioError) || updateError.code !== "invalid_job_transition") throw updateError;
        });
      input.onProgress?.("done");
      if (error instanceof ParseError) {
        fileLogger.info({ code: failure.code, latencyMs: Date.now() - startedAt }, "file rejected");
        return {
          file: input.fileName,
          documentId: null,
          status: "rejected",
          pages: null,
          chunks: 0,
          error: { code: failure.code, message: failure.message },
        };
      }
      fileLogger.error({ code: failure.code, err: error }, "ingestion failed");
      if (failure instanceof FolioError && failure.code !== "internal_error" && failure.code !== "ingestion_failed")
        throw failure;
      // The cause (a database or disk error, say) is in the log line above; users get a safe sentence.
      throw new FolioError(
        "ingestion_failed",
        `Folio could not store ${input.fileName} because of a problem on the server — try again; if it keeps happening, tell your admin.`,
        { cause: error },
      );
    }
  }

  /**
   * A new version of a file (same name, same uploader, new bytes) replaces the older one in that space.
   * Someone else's file of the same name is left alone: an upload must never remove another person's
   * document (that is what /folio forget, with its permission check, is for). Each replaced document
   * leaves a note (document-versions.ts), so links in earlier answers say the version changed and
   * open the new one.
   */
  async function replaceEarlierVersions(
    input: IngestInput,
    kept: DocumentRecord,
    fileLogger: Logger,
  ): Promise<ReplacedVersion[]> {
    const documents = await catalog.listDocuments(input.spaceId);
    const replaced: ReplacedVersion[] = [];
    for (const document of documents) {
      if (document.fileName !== input.fileName || document.id === kept.id) continue;
      // Another upload of this name still indexing is that upload's business (it replaces this one when done).
      if (document.status !== "ready") continue;
      if (document.uploader !== input.uploader) continue;
      await recordReplacement(catalog, document, kept);
      await vectorIndex.deleteByDocument(document.id);
      await catalog.deleteDocument(document.id);
      events?.publish({ type: "removed", spaceId: document.spaceId, documentId: document.id });
      fileLogger.info({ documentId: document.id, replacedBy: kept.id }, "older version replaced");
      replaced.push({ documentId: document.id, title: document.title, createdAt: document.createdAt.toISOString() });
    }
    return replaced;
  }

  /** Background uploads return now; "wait" (the default) returns once the vectors are written, or failed. */
  async function searchableByMeaning(
    input: IngestInput,
    document: DocumentRecord,
    fileLogger: Logger,
  ): Promise<"keywords" | "meaning"> {
    if (meaning === null) return "keywords";
    const written = meaning.enqueue(document, ({ done, total }) => {
      if (input.meaning !== "background") input.onProgress?.("embedding", { done, total });
      else input.onMeaning?.({ state: "embedding", done, total });
    });
    if (input.meaning === "background") {
      const { onMeaning } = input;
      if (onMeaning) {
        written.then(
          (stored) => {
            if (stored) onMeaning({ state: "ready" });
          },
          () => onMeaning({ state: "failed" }),
        );
      }
      return "keywords";
    }
    try {
      return (await written) ? "meaning" : "keywords";
    } catch (error) {
      fileLogger.warn({ err: error, documentId: document.id }, "searchable by keywords only: embedding failed");
      return "keywords";
    }
  }

  return { ingestFile };
}
