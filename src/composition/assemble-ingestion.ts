/**
 * The upload side of Folio: files parsed and chunked in worker threads (sized by the embedder's
 * tokenizer), stored and made searchable by keywords, then embedded in the background; uploads past the
 * concurrency wait in line. Uploads a dead process left half-done are failed cleanly at start and, on a
 * shared database, swept every minute.
 */
import { resolveParseLimits } from "../../ingestion/limits.js";
import { processFileInWorker } from "../../ingestion/run-in-worker.js";
import type { FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import { createDocumentEvents, type DocumentEvents } from "../ingest/document-events.js";
import { createIngestionService, type IngestionService } from "../ingest/ingest-file.js";
import {
  createIngestionQueue,
  DEFAULT_INGEST_CONCURRENCY,
  DEFAULT_INGEST_QUEUE_DEPTH,
} from "../ingest/ingestion-queue.js";
import {
  recoverInterruptedIngestion,
  SHARED_DATABASE_STALE_AFTER_MS,
  sweepInterruptedIngestion,
} from "../ingest/interrupted-ingestion.js";
import { createMeaningIndexer, type MeaningIndexer } from "../ingest/meaning-indexer.js";
import { createParseActivity } from "../ingest/parse-activity.js";
import type { ReadDocumentBlocks } from "../ingest/process-file.js";
import { createSparseVectorMaintainer, type SparseVectorMaintainer } from "../ingest/sparse-vector-maintainer.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

export type AssembledIngestion = {
  ingestion: IngestionService;
  documentEvents: DocumentEvents;
  meaningIndexer: MeaningIndexer | null;
  sparseVectors: SparseVectorMaintainer;
  readDocumentBlocks: ReadDocumentBlocks;
  /** Stops the sweep of interrupted uploads (at close). */
  stopSweeping(): void;
};

export async function assembleIngestion(input: {
  config: FolioConfig;
  catalog: Catalog;
  vectorIndex: VectorIndex;
  /** The embedder passages are indexed with; null: keyword-only. */
  embedder: Embedder | null;
  tokenizerDirectory: string | null;
  logger: Logger;
}): Promise<AssembledIngestion> {
  const { config, catalog, vectorIndex, embedder, logger } = input;
  const sparseVectors = createSparseVectorMaintainer({ catalog, vectorIndex, bm25: config.bm25, logger });
  const parseLimits = resolveParseLimits({
    maxMemoryMb: config.operations.parseMemoryMb,
    timeMs: config.operations.parseTimeoutSeconds * 1000,
  });
  const documentEvents = createDocumentEvents();
  // Background embedding steps aside while an upload is parsed (two cores: the parse is what users wait on).
  const parseActivity = createParseActivity();
  const processFile = ({ bytes, fileName, signal }: { bytes: Uint8Array; fileName: string; signal?: AbortSignal }) =>
    processFileInWorker({
      bytes,
      fileName,
      limits: parseLimits,
      chunking: { ...config.chunking, tokenizerDirectory: input.tokenizerDirectory },
      ...(signal ? { signal } : {}),
    });
  const meaningIndexer =
    embedder === null
      ? null
      : createMeaningIndexer({ catalog, vectorIndex, embedder, events: documentEvents, logger, parseActivity });
  const ingestionService = createIngestionService({
    catalog,
    vectorIndex,
    meaning: meaningIndexer,
    events: documentEvents,
    parseActivity,
    sparseVectors,
    bm25: config.bm25,
    logger,
    processFile,
  });
  // Uploads beyond the concurrency wait in line ("queued"); past the depth they are refused as busy.
  const ingestion = createIngestionQueue(ingestionService, {
    concurrency: DEFAULT_INGEST_CONCURRENCY,
    maxQueued: DEFAULT_INGEST_QUEUE_DEPTH,
  });
  const stopSweeping = await recoverIngestionLeftovers(config, catalog, vectorIndex, logger);
  const readDocumentBlocks: ReadDocumentBlocks = async (bytes, fileName) =>
    (await processFile({ bytes, fileName })).document.blocks;
  return { ingestion, documentEvents, meaningIndexer, sparseVectors, readDocumentBlocks, stopSweeping };
}

/**
 * Uploads a dead process left half-done are failed cleanly now (embedded: every open job, the data
 * directory is this process's alone) and, on a shared database, swept every minute.
 */
async function recoverIngestionLeftovers(
  config: FolioConfig,
  catalog: Catalog,
  vectorIndex: VectorIndex,
  logger: Logger,
): Promise<() => void> {
  const recovery = { catalog, vectorIndex, logger: logger.child({ component: "ingestion-recovery" }) };
  const staleForMs = config.storage.kind === "embedded" ? 0 : SHARED_DATABASE_STALE_AFTER_MS;
  await recoverInterruptedIngestion({ ...recovery, staleForMs }).catch((error: unknown) => {
    recovery.logger.warn({ err: error }, "could not clean up interrupted ingestion jobs; will try again");
  });
  return sweepInterruptedIngestion({
    ...recovery,
    staleForMs: SHARED_DATABASE_STALE_AFTER_MS,
    intervalMs: SHARED_DATABASE_STALE_AFTER_MS,
  });
}
