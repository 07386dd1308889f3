/**
 * The embedded store's vector index: pgvector for storage and dense search, with keyword (BM25) search
 * answered from in-memory postings (src/stores/sparse-postings.ts). Every write goes to the database
 * first and is then mirrored in memory, so a restart simply reloads from the database.
 */
import type { SparseVector } from "../domain/types.js";
import { fuseHybridLists } from "../retrieval/reciprocal-rank-fusion.js";
import { SparsePostings } from "./sparse-postings.js";
import type { SqlExecutor } from "./sql-client.js";
import type { VectorIndex } from "./vector-index.js";

/** pgvector's `{index:value,...}/dimensions` (indices 1-based) back into term ids and weights. */
export function parseSparsevecLiteral(literal: string): SparseVector {
  const body = literal.slice(literal.indexOf("{") + 1, literal.indexOf("}"));
  const indices: number[] = [];
  const values: number[] = [];
  if (body.length === 0) return { indices, values };
  for (const entry of body.split(",")) {
    const separator = entry.indexOf(":");
    indices.push(Number(entry.slice(0, separator)) - 1);
    values.push(Number(entry.slice(separator + 1)));
  }
  return { indices, values };
}

export function withSparsePostings(inner: VectorIndex, database: SqlExecutor): VectorIndex {
  const postings = new SparsePostings(async (spaceId) => {
    const { rows } = await database.query<{ chunk_id: string; document_id: string; sparse: string }>(
      "SELECT chunk_id, document_id, sparse::text AS sparse FROM chunk_vectors WHERE space_id = $1 AND sparse IS NOT NULL",
      [spaceId],
    );
    return rows.map((row) => ({
      chunkId: row.chunk_id,
      documentId: row.document_id,
      spaceId,
      sparse: parseSparsevecLiteral(row.sparse),
    }));
  });

  const index: VectorIndex = {
    denseDimensions: inner.denseDimensions,
    async upsert(chunks) {
      await inner.upsert(chunks);
      await postings.removedChunks(chunks.map((chunk) => chunk.chunkId));
      await postings.stored(
        chunks.flatMap((chunk) =>
          chunk.sparse
            ? [{ chunkId: chunk.chunkId, documentId: chunk.documentId, spaceId: chunk.spaceId, sparse: chunk.sparse }]
            : [],
        ),
      );
    },
    async updateSparse(chunks) {
      await inner.updateSparse(chunks);
      await postings.replaced(chunks);
    },
    updateDense: (chunks) => inner.updateDense(chunks),
    async deleteByDocument(documentId) {
      await inner.deleteByDocument(documentId);
      await postings.removedDocument(documentId);
    },
    queryDense: (vector, query) => inner.queryDense(vector, query),
    querySparse: (vector, query) => postings.query(vector, query),
    async queryHybrid(query) {
      const perList = { spaceIds: query.spaceIds, limit: query.candidates };
      const [dense, sparse] = await Promise.all([
        inner.queryDense(query.dense, perList),
        postings.query(query.sparse, perList),
      ]);
      return fuseHybridLists(dense, sparse, query);
    },
    countByDenseModel: (spaceId) => inner.countByDenseModel(spaceId),
    close: () => inner.close(),
  };
  return index;
}
