/**
 * The vector-index port: dense and sparse vectors of chunks, queried with the asker's spaces as a
 * filter inside the query. Embedded implementation on PGlite/PostgreSQL + pgvector; Qdrant later.
 * One contract suite (test/integration/vector-index-contract.ts) runs against every implementation.
 */
import type { SpaceId, SparseVector } from "../domain/types.js";

export type IndexedChunk = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  /** Unit-length embedding; omitted when no embedding model is configured. */
  dense?: number[];
  /** BM25-saturated term weights (see src/retrieval/bm25.ts). */
  sparse?: SparseVector;
};

export type VectorQuery = {
  spaceIds: SpaceId[];
  limit: number;
};

export type ScoredChunkId = {
  chunkId: string;
  documentId: string;
  spaceId: SpaceId;
  /** Higher is better: cosine similarity for dense, inner product for sparse. */
  score: number;
};

export interface VectorIndex {
  readonly denseDimensions: number;
  /** Inserts or replaces the given chunks' vectors. */
  upsert(chunks: IndexedChunk[]): Promise<void>;
  /** Replaces only the sparse vectors (after BM25 statistics drift); chunks not in the index are ignored. */
  updateSparse(chunks: Array<{ chunkId: string; sparse: SparseVector }>): Promise<void>;
  deleteByDocument(documentId: string): Promise<void>;
  queryDense(vector: number[], query: VectorQuery): Promise<ScoredChunkId[]>;
  querySparse(vector: SparseVector, query: VectorQuery): Promise<ScoredChunkId[]>;
  close(): Promise<void>;
}
