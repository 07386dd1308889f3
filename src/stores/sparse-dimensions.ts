/**
 * Dimension count of stored sparse (BM25) vectors. Term ids are 29-bit hashes (src/retrieval/text-analyzer.ts),
 * so every id fits; pgvector's sparsevec accepts up to 1e9 dimensions and writes indices 1-based.
 */
export const SPARSE_DIMENSIONS = 2 ** 29;
