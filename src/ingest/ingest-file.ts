/**
 * Ingestion of one uploaded file: dedupe by content hash, parse and chunk off the main thread,
 * store document + pages + chunks in one catalog transaction, then index BM25 vectors. A rejected
 * file leaves nothing behind but a failed job row with its reason.
 */
import { createHash } from "node:crypto";
import type { ParsedDocument } from "../../ingestion/parsed-document.js";
import type { ChunkDraft, MediaType } from "../domain/types.js";
import { FolioError, ParseError, toFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type Bm25Parameters, documentVector } from "../retrieval/bm25.js";
import { countTerms } from "../retrieval/text-analyzer.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import type { IngestInput, IngestResult } from "./ingest-result.js";
import type { SparseVectorMaintainer } from "./sparse-vector-maintainer.js";

/** Parses and chunks one file in isolation (a worker thread in production). Throws ParseError. */
export type ProcessFile = (input: {
  bytes: Uint8Array;
  fileName: string;
  signal?: AbortSignal;
}) => Promise<{ document: ParsedDocument; chunks: ChunkDraft[] }>;

export type IngestionServiceOptions = {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  processFile: ProcessFile;
  sparseVectors: SparseVectorMaintainer;
  bm25: Bm25Parameters;
  logger: Logger;
};

export type IngestionService = {
  ingestFile(input: IngestInput): Promise<IngestResult>;
};

export function createIngestionService(options: IngestionServiceOptions): IngestionService {
  const { catalog, vectorIndex, processFile, sparseVectors, logger } = options;

  async function ingestFile(input: IngestInput): Promise<IngestResult> {
    const startedAt = Date.now();
    const fileLogger = logger.child({ space: input.spaceId, file: input.fileName });
    input.onProgress?.("received");
    const sha256 = createHash("sha256").update(input.bytes).digest("hex");
    await catalog.ensureSpace(input.spaceId);
    const existing = await catalog.findDocumentBySha256(input.spaceId, sha256);
    if (existing) {
      const chunkCount = (await catalog.listChunks(existing.id)).length;
      input.onProgress?.("done");
      fileLogger.info({ documentId: existing.id }, "file unchanged; already ingested");
      return {
        file: input.fileName,
        documentId: existing.id,
        status: "unchanged",
        pages: existing.pageCount,
        chunks: chunkCount,
      };
    }

    const job = await catalog.createJob({ spaceId: input.spaceId, fileName: input.fileName });
    await catalog.updateJob(job.id, { status: "running" });
    try {
      input.onProgress?.("parsing");
      const processed = await processFile({ bytes: input.bytes, fileName: input.fileName, signal: input.signal });
      if (processed.chunks.length === 0) {
        throw new ParseError(
          "no_text",
          "This file contains no text Folio can search — check that it is not empty or an image.",
          {
            file: input.fileName,
          },
        );
      }
      input.onProgress?.("indexing");
      const chunksToStore = processed.chunks.map((chunk) => ({ ...chunk, terms: countTerms(chunk.text) }));
      const termsByPosition = new Map(chunksToStore.map((chunk) => [chunk.position, chunk.terms]));
      const stored = await catalog.addDocument({
        document: {
          spaceId: input.spaceId,
          title: processed.document.title || input.fileName,
          fileName: input.fileName,
          mediaType: processed.document.mediaType as MediaType,
          sha256,
          byteSize: input.bytes.byteLength,
          pageCount: processed.document.pages?.length ?? null,
          uploader: input.uploader,
          bytes: input.bytes,
        },
        pages: processed.document.pages ?? [],
        chunks: chunksToStore,
      });
      try {
        const statistics = await catalog.getTermStatistics([input.spaceId], []);
        const averageLength = statistics.chunkCount > 0 ? statistics.totalLength / statistics.chunkCount : 1;
        await vectorIndex.upsert(
          stored.chunks.map((chunk) => ({
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
      } catch (error) {
        // Keep catalog and index consistent: a document without vectors would be invisible but counted.
        await catalog.deleteDocument(stored.document.id);
        throw error;
      }
      await replaceEarlierVersions(input, stored.document.id, fileLogger);
      await catalog.updateJob(job.id, { status: "succeeded", documentId: stored.document.id });
      await sparseVectors.refreshIfDrifted(input.spaceId);
      input.onProgress?.("done");
      fileLogger.info(
        { documentId: stored.document.id, chunks: stored.chunks.length, latencyMs: Date.now() - startedAt },
        "file ingested",
      );
      return {
        file: input.fileName,
        documentId: stored.document.id,
        status: "ingested",
        pages: stored.document.pageCount,
        chunks: stored.chunks.length,
      };
    } catch (error) {
      const failure = toFolioError(error, "ingestion_failed");
      await catalog.updateJob(job.id, { status: "failed", errorCode: failure.code, errorMessage: failure.message });
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
      throw new FolioError("ingestion_failed", `Could not ingest ${input.fileName}: ${failure.message}`, {
        cause: error,
      });
    }
  }

  /** A changed file (same name, new bytes) replaces the older version's chunks in that space. */
  async function replaceEarlierVersions(input: IngestInput, keptDocumentId: string, fileLogger: Logger) {
    const documents = await catalog.listDocuments(input.spaceId);
    for (const document of documents) {
      if (document.fileName !== input.fileName || document.id === keptDocumentId) continue;
      await vectorIndex.deleteByDocument(document.id);
      await catalog.deleteDocument(document.id);
      fileLogger.info({ documentId: document.id, replacedBy: keptDocumentId }, "older version replaced");
    }
  }

  return { ingestFile };
}
