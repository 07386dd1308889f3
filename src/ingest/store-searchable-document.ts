/**
 * A parsed file made searchable by keywords: document, original bytes, pages and chunks stored in one
 * catalog transaction (as "indexing", invisible to search), each chunk's BM25 vector written to the
 * index, then the document flipped to "ready". If anything after the catalog write fails, the document
 * and the vectors written so far are removed again, so catalog and index stay consistent.
 */
import type { DocumentRecord, MediaType } from "../domain/types.js";
import type { Logger } from "../logger.js";
import { type Bm25Parameters, documentVector } from "../retrieval/bm25.js";
import { countTerms } from "../retrieval/text-analyzer.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import { mapInSlices } from "../workers/map-in-slices.js";
import type { IngestInput } from "./ingest-result.js";
import type { ProcessedFile } from "./process-file.js";

export type StoredDocument = { document: DocumentRecord; chunkCount: number };

export async function storeSearchableDocument(
  stores: { catalog: Catalog; vectorIndex: VectorIndex; bm25: Bm25Parameters },
  upload: {
    input: IngestInput;
    processed: ProcessedFile;
    title: string;
    sha256: string;
    jobId: string;
    /** Whether passages will be embedded after this (false: keyword-only). */
    awaitingMeaning: boolean;
  },
  logger: Logger,
): Promise<StoredDocument> {
  const { catalog, vectorIndex } = stores;
  const { input, processed } = upload;
  const termsByPosition = new Map(processed.chunks.map((chunk) => [chunk.position, chunk.terms]));
  const stored = await catalog.addDocument({
    document: {
      spaceId: input.spaceId,
      title: upload.title,
      fileName: input.fileName,
      mediaType: processed.document.mediaType as MediaType,
      sha256: upload.sha256,
      byteSize: input.bytes.byteLength,
      pageCount: processed.document.pages?.length ?? null,
      uploader: input.uploader,
      bytes: input.bytes,
      awaitingMeaning: upload.awaitingMeaning,
    },
    pages: processed.document.pages ?? [],
    chunks: processed.chunks,
    jobId: upload.jobId,
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
          stores.bm25,
        ),
      })),
    );
    // Every sparse vector is written: from here on keyword search may return the document's chunks.
    await catalog.markDocumentReady(stored.document.id);
  } catch (error) {
    // Keep catalog and index consistent: vectors written by earlier batches go with the document.
    await vectorIndex.deleteByDocument(stored.document.id).catch((cleanupError: unknown) => {
      logger.error({ err: cleanupError, documentId: stored.document.id }, "could not remove partial vectors");
    });
    await catalog.deleteDocument(stored.document.id);
    throw error;
  }
  return { document: { ...stored.document, status: "ready" }, chunkCount: stored.chunks.length };
}
