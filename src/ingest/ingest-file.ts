/**
 * Ingestion of one uploaded file: dedupe by content hash, parse, chunk and count terms off the main thread,
 * store document + pages + chunks in one catalog transaction and write the BM25 vectors
 * (store-searchable-document.ts): searchable by keywords. Its passages are embedded after that, in the
 * background (meaning-indexer.ts, searchable-by-meaning.ts). An earlier version of the same file is
 * replaced (document-versions.ts). A rejected file leaves nothing behind but a failed job row with its
 * reason (ingestion-job.ts); a process that dies half-way leaves a running job that start-up recovery
 * (interrupted-ingestion.ts) fails cleanly, removing the document, its vectors and bytes.
 */
import { createHash } from "node:crypto";
import { indexedDocument } from "../domain/index-text.js";
import { FolioError, ParseError, toFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Bm25Parameters } from "../retrieval/bm25.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import type { DocumentEvents } from "./document-events.js";
import { replaceEarlierVersions } from "./document-versions.js";
import type { IngestInput, IngestResult } from "./ingest-result.js";
import { DEFAULT_JOB_HEARTBEAT_MS, type RunningJob, startIngestionJob } from "./ingestion-job.js";
import type { MeaningIndexer } from "./meaning-indexer.js";
import type { ParseActivity } from "./parse-activity.js";
import type { ProcessedFile, ProcessFile } from "./process-file.js";
import { searchableByMeaning } from "./searchable-by-meaning.js";
import type { SparseVectorMaintainer } from "./sparse-vector-maintainer.js";
import { storeSearchableDocument } from "./store-searchable-document.js";

export { DEFAULT_JOB_HEARTBEAT_MS } from "./ingestion-job.js";
export type { ProcessFile } from "./process-file.js";

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

export type IngestionService = {
  ingestFile(input: IngestInput): Promise<IngestResult>;
};

export function createIngestionService(options: IngestionServiceOptions): IngestionService {
  const { catalog, meaning, processFile, logger } = options;

  /** The same bytes already stored in the space: nothing to do (null when they are not). */
  async function unchanged(input: IngestInput, sha256: string, fileLogger: Logger): Promise<IngestResult | null> {
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
  }

  async function parse(input: IngestInput): Promise<ProcessedFile> {
    input.onProgress?.("parsing");
    const parseEnded = options.parseActivity?.begin();
    const processed = await processFile({ bytes: input.bytes, fileName: input.fileName, signal: input.signal }).finally(
      () => parseEnded?.(),
    );
    if (processed.chunks.length === 0) {
      throw new ParseError(
        "no_text",
        "This file contains no text Folio can search — check that it is not empty or an image.",
        { file: input.fileName },
      );
    }
    return processed;
  }

  /** Parsed, stored, searchable by keywords, earlier versions replaced, then (unless in the background) by meaning. */
  async function ingestNew(input: IngestInput, sha256: string, job: RunningJob, started: number, fileLogger: Logger) {
    const processed = await parse(input);
    // Stored and searchable by keywords first; embedding (most of an upload's time on CPU: 3–6 passages
    // a second) follows in the background (meaning-indexer.ts), so a 260-page filing is found in seconds.
    const { title } = indexedDocument(processed.document.title, input.fileName);
    input.onProgress?.("indexing");
    const { document: ready, chunkCount } = await storeSearchableDocument(
      options,
      { input, processed, title, sha256, jobId: job.id, awaitingMeaning: meaning !== null },
      fileLogger,
    );
    options.events?.publish({ type: "added", spaceId: input.spaceId, documentId: ready.id });
    fileLogger.info(
      { documentId: ready.id, chunks: chunkCount, latencyMs: Date.now() - started },
      "searchable by keywords",
    );
    const replaced =
      (input.sameName ?? "replace") === "replace"
        ? await replaceEarlierVersions({ ...options, events: options.events }, input, ready, fileLogger)
        : [];
    await job.succeeded(ready.id);
    // The document is in; refreshing the space's length normalisation is upkeep, not part of this upload.
    await options.sparseVectors.refreshIfDrifted(input.spaceId).catch((error: unknown) => {
      fileLogger.warn({ err: error }, "BM25 vectors of the space could not be refreshed; they will be next time");
    });
    job.stopHeartbeat();
    const searchableBy = await searchableByMeaning(meaning, input, ready, fileLogger);
    input.onProgress?.("done");
    fileLogger.info(
      { documentId: ready.id, chunks: chunkCount, searchableBy, latencyMs: Date.now() - started },
      "file ingested",
    );
    return {
      file: input.fileName,
      documentId: ready.id,
      status: "ingested",
      pages: ready.pageCount,
      chunks: chunkCount,
      searchableBy,
      ...(searchableBy === "keywords" && meaning !== null && input.meaning === "background"
        ? { meaningPending: true }
        : {}),
      ...(replaced.length > 0 ? { replaced } : {}),
    } satisfies IngestResult;
  }

  /**
   * A failed upload: a lost race with the same bytes is simply unchanged; a file the parsers refuse is a
   * rejected result; anything else is recorded and thrown as a FolioError with a safe message.
   */
  async function failed(
    input: IngestInput,
    sha256: string,
    job: RunningJob,
    error: unknown,
    context: { started: number; fileLogger: Logger },
  ): Promise<IngestResult> {
    if (error instanceof FolioError && error.code === "duplicate_document") {
      const raced = await unchanged(input, sha256, context.fileLogger);
      if (raced?.documentId) {
        await job.succeeded(raced.documentId);
        return raced;
      }
    }
    const failure = toFolioError(error, "ingestion_failed");
    await job.failed(failure);
    input.onProgress?.("done");
    if (error instanceof ParseError) {
      context.fileLogger.info({ code: failure.code, latencyMs: Date.now() - context.started }, "file rejected");
      return {
        file: input.fileName,
        documentId: null,
        status: "rejected",
        pages: null,
        chunks: 0,
        error: { code: failure.code, message: failure.message },
      };
    }
    context.fileLogger.error({ code: failure.code, err: error }, "ingestion failed");
    if (failure instanceof FolioError && failure.code !== "internal_error" && failure.code !== "ingestion_failed")
      throw failure;
    // The cause (a database or disk error, say) is in the log line above; users get a safe sentence.
    throw new FolioError(
      "ingestion_failed",
      `Folio could not store ${input.fileName} because of a problem on the server — try again; if it keeps happening, tell your admin.`,
      { cause: error },
    );
  }

  return {
    async ingestFile(input) {
      const started = Date.now();
      const fileLogger = logger.child({ space: input.spaceId, file: input.fileName });
      input.onProgress?.("received");
      const sha256 = createHash("sha256").update(input.bytes).digest("hex");
      await catalog.ensureSpace(input.spaceId);
      const already = await unchanged(input, sha256, fileLogger);
      if (already) return already;
      const upload = { spaceId: input.spaceId, fileName: input.fileName };
      const job = await startIngestionJob(catalog, upload, options.heartbeatMs ?? DEFAULT_JOB_HEARTBEAT_MS, fileLogger);
      try {
        return await ingestNew(input, sha256, job, started, fileLogger);
      } catch (error) {
        job.stopHeartbeat();
        return failed(input, sha256, job, error, { started, fileLogger });
      }
    },
  };
}
