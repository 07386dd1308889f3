/**
 * The vector-index port: dense and sparse vectors of chunks, queried with the asker's spaces as a
 * filter inside the query. Implementations: pgvector (PGlite embedded, or a PostgreSQL server) and
 * Qdrant. One contract suite (test/integration/vector-index-contract.ts) runs against every implementation.
 */
import type { SpaceId, SparseVector } from "../domain/types.js";
import { FolioError } from "../errors.js";

export type IndexedChunk = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  /** Unit-length embedding; omitted when the chunk has not been embedded (yet). */
  dense?: number[];
  /** The embedding model that made `dense` (e.g. "bge-small-en-v1.5"); required with `dense`. */
  denseModel?: string;
  /** BM25-saturated term weights (see src/retrieval/bm25.ts). */
  sparse?: SparseVector;
};

export type VectorQuery = {
  spaceIds: SpaceId[];
  limit: number;
  /** Only chunks of these documents (within the spaces); absent: every document of the spaces. */
  documentIds?: string[];
};

/** The per-list query of a hybrid query: its filters, with `candidates` as the limit. */
export function candidateQuery(query: HybridQuery): VectorQuery {
  return { spaceIds: query.spaceIds, limit: query.candidates, documentIds: query.documentIds };
}

/** Reciprocal rank fusion: score = Σ weight / (k + rank), rank 1-based, per list. */
export type FusionParameters = { k: number; denseWeight: number; sparseWeight: number };

export type HybridQuery = VectorQuery & {
  dense: number[];
  sparse: SparseVector;
  /** How many candidates each list contributes before fusion. */
  candidates: number;
  fusion: FusionParameters;
};

export type ScoredChunkId = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  /** Higher is better: cosine similarity for dense, inner product for sparse, fused RRF score for hybrid. */
  score: number;
};

/** How many chunks carry a dense vector from each model; `model: null` counts chunks without one. */
export type DenseModelCount = { model: string | null; chunks: number };

export interface VectorIndex {
  readonly denseDimensions: number;
  /** Inserts or replaces the given chunks' vectors. */
  upsert(chunks: IndexedChunk[]): Promise<void>;
  /** Replaces only the sparse vectors (after BM25 statistics drift); chunks not in the index are ignored. */
  updateSparse(chunks: Array<{ chunkId: string; sparse: SparseVector }>): Promise<void>;
  /** Replaces only the dense vectors (re-indexing with another model); chunks not in the index are ignored. */
  updateDense(chunks: Array<{ chunkId: string; dense: number[]; denseModel: string }>): Promise<void>;
  deleteByDocument(documentId: string): Promise<void>;
  queryDense(vector: number[], query: VectorQuery): Promise<ScoredChunkId[]>;
  querySparse(vector: SparseVector, query: VectorQuery): Promise<ScoredChunkId[]>;
  /** Dense and sparse candidates fused by reciprocal rank fusion (src/retrieval/reciprocal-rank-fusion.ts). */
  queryHybrid(query: HybridQuery): Promise<ScoredChunkId[]>;
  /** Chunk counts by the model that made their dense vector, optionally for one space only. */
  countByDenseModel(spaceId?: SpaceId): Promise<DenseModelCount[]>;
  close(): Promise<void>;
}

/** Chunk and document ids are UUIDs; an id of any other shape cannot be in an index. */
export const CHUNK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every dense vector records the model that made it (a changed model is refused until reindex). */
export function requireDenseModel(model: string | undefined): string {
  if (!model) {
    throw new FolioError(
      "dense_model_missing",
      "A dense vector was written without the name of the model that made it.",
    );
  }
  return model;
}
