/**
 * Keeps BM25 document vectors in step with the corpus. A chunk's BM25 weight depends on the space's
 * average chunk length at the time it was indexed; as a space grows that average drifts. Rebuilding
 * every vector on every upload would be wasteful, so vectors are rebuilt when the average has moved by
 * more than `driftTolerance` since the last rebuild seen by this process, and unconditionally at the
 * end of a batch (CLI ingest, evaluation). Rebuilding is idempotent, so several processes doing it
 * concurrently is harmless.
 */
import type { Logger } from "../logger.js";
import { type Bm25Parameters, documentVector } from "../retrieval/bm25.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

export type SparseVectorMaintainer = {
  refreshIfDrifted(spaceId: string): Promise<void>;
  rebuild(spaceId: string): Promise<number>;
};

export function createSparseVectorMaintainer(options: {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  bm25: Bm25Parameters;
  logger: Logger;
  driftTolerance?: number;
}): SparseVectorMaintainer {
  const driftTolerance = options.driftTolerance ?? 0.15;
  const averageLengthAtLastBuild = new Map<string, number>();

  async function averageLength(spaceId: string): Promise<number> {
    const statistics = await options.catalog.getTermStatistics([spaceId], []);
    return statistics.chunkCount > 0 ? statistics.totalLength / statistics.chunkCount : 1;
  }

  async function rebuild(spaceId: string): Promise<number> {
    const average = await averageLength(spaceId);
    const chunkTerms = await options.catalog.listChunkTerms(spaceId);
    const batchSize = 500;
    for (let start = 0; start < chunkTerms.length; start += batchSize) {
      const batch = chunkTerms.slice(start, start + batchSize);
      await options.vectorIndex.updateSparse(
        batch.map((entry) => ({ chunkId: entry.chunkId, sparse: documentVector(entry.terms, average, options.bm25) })),
      );
    }
    averageLengthAtLastBuild.set(spaceId, average);
    options.logger.debug({ space: spaceId, chunks: chunkTerms.length, averageLength: average }, "BM25 vectors rebuilt");
    return chunkTerms.length;
  }

  async function refreshIfDrifted(spaceId: string): Promise<void> {
    const current = await averageLength(spaceId);
    const previous = averageLengthAtLastBuild.get(spaceId);
    if (previous === undefined) {
      averageLengthAtLastBuild.set(spaceId, current);
      return;
    }
    if (Math.abs(current - previous) / previous > driftTolerance) await rebuild(spaceId);
  }

  return { refreshIfDrifted, rebuild };
}
