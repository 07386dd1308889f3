/**
 * The embedded store's vector index: pgvector in PGlite keeps the vectors, and queries are answered
 * from the in-memory copy (src/stores/in-memory-space-index.ts) — exact dense scans and BM25 postings.
 * Every write goes to the database first and is then mirrored in memory, so a restart simply reloads
 * a space from the database on its first query.
 */
import type { SparseVector } from "../domain/types.js";
import { fuseHybridLists } from "../retrieval/reciprocal-rank-fusion.js";
import { InMemorySpaceIndex } from "./in-memory-space-index.js";
import type { SqlExecutor } from "./sql-client.js";
import { candidateQuery, type VectorIndex } from "./vector-index.js";

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

/** pgvector's `[x,y,...]` text form of a dense vector. */
export function parseVectorLiteral(literal: string): Float32Array {
  const body = literal.slice(literal.indexOf("[") + 1, literal.lastIndexOf("]"));
  return Float32Array.from(body.split(","), Number);
}

/** Rows per page when a space is loaded: ~10 MB of vector text. */
const LOAD_PAGE_ROWS = 2000;

type VectorRow = { chunk_id: string; document_id: string; dense: string | null; sparse: string | null };

export function withInMemorySearch(inner: VectorIndex, database: SqlExecutor): VectorIndex {
  const memory = new InMemorySpaceIndex(inner.denseDimensions, async function* (spaceId) {
    // Keyset pages in chunk-id order: each page's text is parsed and dropped before the next is read.
    let after = "00000000-0000-0000-0000-000000000000";
    for (;;) {
      const { rows } = await database.query<VectorRow>(
        `SELECT chunk_id, document_id, dense::text AS dense, sparse::text AS sparse FROM chunk_vectors
         WHERE space_id = $1 AND chunk_id > $2 ORDER BY chunk_id LIMIT ${LOAD_PAGE_ROWS}`,
        [spaceId, after],
      );
      if (rows.length === 0) return;
      yield rows.map((row) => ({
        chunkId: row.chunk_id,
        documentId: row.document_id,
        spaceId,
        dense: row.dense === null ? undefined : parseVectorLiteral(row.dense),
        sparse: row.sparse === null ? undefined : parseSparsevecLiteral(row.sparse),
      }));
      after = rows.at(-1)?.chunk_id ?? after;
      if (rows.length < LOAD_PAGE_ROWS) return;
    }
  });

  return {
    denseDimensions: inner.denseDimensions,
    async upsert(chunks) {
      await inner.upsert(chunks);
      await memory.stored(chunks);
    },
    async updateSparse(chunks) {
      await inner.updateSparse(chunks);
      await memory.replacedSparse(chunks);
    },
    async updateDense(chunks) {
      await inner.updateDense(chunks);
      await memory.replacedDense(chunks);
    },
    async deleteByDocument(documentId) {
      await inner.deleteByDocument(documentId);
      await memory.removedDocument(documentId);
    },
    async queryDense(vector, query) {
      if (vector.length !== inner.denseDimensions) return inner.queryDense(vector, query); // its error names the fix
      return memory.queryDense(vector, query);
    },
    querySparse: (vector, query) => memory.querySparse(vector, query),
    async queryHybrid(query) {
      const perList = candidateQuery(query);
      const [dense, sparse] = await Promise.all([
        this.queryDense(query.dense, perList),
        memory.querySparse(query.sparse, perList),
      ]);
      return fuseHybridLists(dense, sparse, query);
    },
    countByDenseModel: (spaceId) => inner.countByDenseModel(spaceId),
    close: () => inner.close(),
  };
}
