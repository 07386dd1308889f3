/**
 * The vector index on pgvector (PGlite embedded, or a PostgreSQL server with the extension): dense
 * vectors as `vector(N)` compared by cosine, BM25 vectors as `sparsevec` scored by inner product.
 * Dense queries use an HNSW index (cosine) with the space filter inside pgvector's iterative index scan.
 * Sparse queries here scan the space exactly. The embedded store answers both from memory instead
 * (embedded-vector-index.ts); a PostgreSQL deployment past ~50K chunks a space wants Qdrant.
 */
import type { SparseVector } from "../domain/types.js";
import { FolioError } from "../errors.js";
import { fuseHybridLists } from "./reciprocal-rank-fusion.js";
import { mergeSparseVector, SPARSE_DIMENSIONS } from "./sparse-dimensions.js";
import type { SqlClient } from "./sql-client.js";
import {
  CHUNK_ID_PATTERN,
  candidateQuery,
  type DenseModelCount,
  type IndexedChunk,
  requireDenseModel,
  type ScoredChunkId,
  type VectorIndex,
  type VectorQuery,
} from "./vector-index.js";

/**
 * Rows per INSERT/UPDATE statement. Each statement's vector literals are written on the calling (main)
 * thread — a 384-d vector as text costs about 0.3 ms, more on a busy machine — and the thread turns
 * between statements, so 100 rows bound that stall while a large document is stored.
 */
const WRITE_BATCH_SIZE = 100;

/**
 * pgvector's text form of a sparse vector: `{index:value,...}/dimensions`, indices 1-based (term id + 1),
 * zeros left out, a repeated term id summed (mergeSparseVector).
 */
export function toSparsevecLiteral(vector: SparseVector): string {
  const merged = mergeSparseVector(vector);
  const entries = merged.indices.map((termId, position) => `${termId + 1}:${merged.values[position]}`);
  return `{${entries.join(",")}}/${SPARSE_DIMENSIONS}`;
}

/** pgvector refuses a sparsevec with more than 16,000 non-zero entries (SPARSEVEC_MAX_NNZ). */
const SPARSEVEC_MAX_ENTRIES = 16_000;

/**
 * A query vector as one or more sparsevec literals of at most 16,000 entries each. The inner product is
 * linear, so summing the parts' products gives exactly the product with the whole vector.
 */
export function toSparsevecQueryLiterals(vector: SparseVector): string[] {
  const [, entries = "", dimensions] = /^\{(.*)\}\/(\d+)$/.exec(toSparsevecLiteral(vector)) ?? [];
  const pairs = entries === "" ? [] : entries.split(",");
  const literals: string[] = [];
  for (let start = 0; start < pairs.length; start += SPARSEVEC_MAX_ENTRIES) {
    literals.push(`{${pairs.slice(start, start + SPARSEVEC_MAX_ENTRIES).join(",")}}/${dimensions}`);
  }
  return literals;
}

function toVectorLiteral(values: number[]): string {
  return `[${values.join(",")}]`;
}

type ScoredRow = { chunk_id: string; document_id: string; space_id: string; score: number };

function toScored(row: ScoredRow): ScoredChunkId {
  return { chunkId: row.chunk_id, documentId: row.document_id, spaceId: row.space_id, score: row.score };
}

export function createPgvectorIndex(client: SqlClient, options: { denseDimensions: number }): VectorIndex {
  const { denseDimensions } = options;

  function checkDense(vector: number[]): void {
    if (vector.length !== denseDimensions) {
      throw new FolioError(
        "dense_dimension_mismatch",
        `A dense vector has ${vector.length} dimensions but the index holds ${denseDimensions}; re-index with the configured embedding model.`,
      );
    }
  }

  return {
    denseDimensions,

    async upsert(chunks: IndexedChunk[]) {
      for (let start = 0; start < chunks.length; start += WRITE_BATCH_SIZE) {
        const batch = chunks.slice(start, start + WRITE_BATCH_SIZE);
        for (const chunk of batch) if (chunk.dense) checkDense(chunk.dense);
        await client.query(
          `INSERT INTO chunk_vectors (chunk_id, document_id, space_id, dense, dense_model, sparse)
           SELECT chunk_id, document_id, space_id, dense::vector, dense_model, sparse::sparsevec
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[])
             AS v(chunk_id, document_id, space_id, dense, dense_model, sparse)
           ON CONFLICT (chunk_id) DO UPDATE SET document_id = excluded.document_id, space_id = excluded.space_id,
             dense = excluded.dense, dense_model = excluded.dense_model, sparse = excluded.sparse`,
          [
            batch.map((chunk) => chunk.chunkId),
            batch.map((chunk) => chunk.documentId),
            batch.map((chunk) => chunk.spaceId),
            batch.map((chunk) => (chunk.dense ? toVectorLiteral(chunk.dense) : null)),
            batch.map((chunk) => (chunk.dense ? requireDenseModel(chunk.denseModel) : null)),
            batch.map((chunk) => (chunk.sparse ? toSparsevecLiteral(chunk.sparse) : null)),
          ],
        );
      }
    },

    async updateSparse(chunks) {
      for (let start = 0; start < chunks.length; start += WRITE_BATCH_SIZE) {
        const batch = chunks.slice(start, start + WRITE_BATCH_SIZE);
        await client.query(
          `UPDATE chunk_vectors AS v SET sparse = u.sparse::sparsevec
           FROM unnest($1::uuid[], $2::text[]) AS u(chunk_id, sparse) WHERE v.chunk_id = u.chunk_id`,
          [
            batch.map((chunk) => (CHUNK_ID_PATTERN.test(chunk.chunkId) ? chunk.chunkId : null)),
            batch.map((chunk) => toSparsevecLiteral(chunk.sparse)),
          ],
        );
      }
    },

    async updateDense(chunks) {
      for (let start = 0; start < chunks.length; start += WRITE_BATCH_SIZE) {
        const batch = chunks.slice(start, start + WRITE_BATCH_SIZE);
        for (const chunk of batch) checkDense(chunk.dense);
        await client.query(
          `UPDATE chunk_vectors AS v SET dense = u.dense::vector, dense_model = u.dense_model
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(chunk_id, dense, dense_model)
           WHERE v.chunk_id = u.chunk_id`,
          [
            batch.map((chunk) => (CHUNK_ID_PATTERN.test(chunk.chunkId) ? chunk.chunkId : null)),
            batch.map((chunk) => toVectorLiteral(chunk.dense)),
            batch.map((chunk) => requireDenseModel(chunk.denseModel)),
          ],
        );
      }
    },

    async deleteByDocument(documentId) {
      if (!CHUNK_ID_PATTERN.test(documentId)) return;
      await client.query("DELETE FROM chunk_vectors WHERE document_id = $1", [documentId]);
    },

    async queryDense(vector: number[], query: VectorQuery) {
      checkDense(vector);
      if (query.spaceIds.length === 0 || query.limit <= 0) return [];
      // HNSW with an iterative scan: when the space filter rejects the first candidates the index
      // keeps walking, so a small space among large ones still gets `limit` results. Relaxed order
      // may return them slightly out of order; the outer query sorts them exactly.
      const rows = await client.transaction(async (transaction) => {
        await transaction.query("SET LOCAL hnsw.iterative_scan = relaxed_order");
        await transaction.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(100, query.limit * 2))}`);
        const result = await transaction.query<ScoredRow>(
          `WITH nearest AS MATERIALIZED (
             SELECT chunk_id, document_id, space_id, dense <=> $1::vector AS distance
             FROM chunk_vectors WHERE space_id = ANY($2::text[]) AND dense IS NOT NULL
               AND ($4::uuid[] IS NULL OR document_id = ANY($4::uuid[]))
             ORDER BY dense <=> $1::vector LIMIT $3)
           SELECT chunk_id, document_id, space_id, (1 - distance)::float8 AS score
           FROM nearest ORDER BY distance, chunk_id`,
          [toVectorLiteral(vector), query.spaceIds, query.limit, documentFilter(query)],
        );
        return result.rows;
      });
      return rows.map(toScored);
    },

    async querySparse(vector: SparseVector, query: VectorQuery) {
      if (query.spaceIds.length === 0 || query.limit <= 0) return [];
      const parts = toSparsevecQueryLiterals(vector);
      if (parts.length === 0) return [];
      // <#> is the negative inner product; parameters $4.. hold the query's parts.
      const negativeProduct = parts.map((_, index) => `(sparse <#> $${index + 4}::sparsevec)`).join(" + ");
      const { rows } = await client.query<ScoredRow>(
        `SELECT chunk_id, document_id, space_id, (-(${negativeProduct}))::float8 AS score
         FROM chunk_vectors WHERE space_id = ANY($1::text[]) AND sparse IS NOT NULL
           AND ($3::uuid[] IS NULL OR document_id = ANY($3::uuid[]))
         ORDER BY ${negativeProduct}, chunk_id LIMIT $2`,
        [query.spaceIds, query.limit, documentFilter(query), ...parts],
      );
      // Chunks sharing no term with the query score 0; they are not matches.
      return rows.filter((row) => row.score > 0).map(toScored);
    },

    async queryHybrid(query) {
      const perList = candidateQuery(query);
      const [dense, sparse] = await Promise.all([
        this.queryDense(query.dense, perList),
        this.querySparse(query.sparse, perList),
      ]);
      return fuseHybridLists(dense, sparse, query);
    },

    async countByDenseModel(spaceId) {
      const { rows } = await client.query<{ model: string | null; chunks: number }>(
        `SELECT dense_model AS model, count(*)::int AS chunks FROM chunk_vectors
         WHERE $1::text IS NULL OR space_id = $1 GROUP BY dense_model ORDER BY dense_model NULLS LAST`,
        [spaceId ?? null],
      );
      return rows satisfies DenseModelCount[];
    },

    async close() {
      // The shared SQL client belongs to open-stores.ts, which closes it.
    },
  };
}

/** The query's document filter as a uuid[] parameter; null lets every document of the spaces through. */
function documentFilter(query: VectorQuery): string[] | null {
  if (!query.documentIds) return null;
  return query.documentIds.filter((id) => CHUNK_ID_PATTERN.test(id));
}
