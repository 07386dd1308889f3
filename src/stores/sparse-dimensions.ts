import type { SparseVector } from "../domain/types.js";
import { FolioError } from "../errors.js";

/**
 * Dimension count of stored sparse (BM25) vectors. Term ids are 29-bit hashes (src/retrieval/text-analyzer.ts),
 * so every id fits; pgvector's sparsevec accepts up to 1e9 dimensions and writes indices 1-based.
 */
export const SPARSE_DIMENSIONS = 2 ** 29;

/**
 * The stored form of a sparse vector: each term id once (a repeated id's weights summed — pgvector and
 * Qdrant both refuse repeats), zero weights left out, ids ascending. An id outside the dimensions means
 * the vector did not come from the text analyzer.
 */
export function mergeSparseVector(vector: SparseVector): SparseVector {
  const weights = new Map<number, number>();
  for (let position = 0; position < vector.indices.length; position += 1) {
    const termId = vector.indices[position] ?? -1;
    if (!Number.isInteger(termId) || termId < 0 || termId >= SPARSE_DIMENSIONS) {
      throw new FolioError(
        "sparse_index_out_of_range",
        `Sparse vector index ${termId} is outside 0..${SPARSE_DIMENSIONS - 1}; term ids must come from the text analyzer.`,
      );
    }
    weights.set(termId, (weights.get(termId) ?? 0) + (vector.values[position] ?? 0));
  }
  const indices = [...weights.keys()].filter((termId) => weights.get(termId) !== 0).sort((left, right) => left - right);
  return { indices, values: indices.map((termId) => weights.get(termId) ?? 0) };
}
