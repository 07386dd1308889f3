/**
 * The embedded store's vector index: pgvector in PGlite keeps the vectors, and queries are answered
 * from the in-memory structures (src/stores/in-memory-space-index.ts) — dense by exact scan or by an
 * approximate (HNSW) index per space, sparse by BM25 postings. Every write goes to the database first
 * and is then mirrored in memory, so a restart reloads a space on its first query: from its snapshot
 * when the database has not changed the space since it was saved (dense-index-snapshots.ts), else
 * from the database's rows (reconciling a saved approximate index rather than rebuilding it).
 */
import type { Logger } from "../logger.js";
import { DenseIndexSnapshots } from "./dense-index-snapshots.js";
import {
  DEFAULT_DENSE_SEARCH_SETTINGS,
  type DenseSearchSettings,
  InMemorySpaceIndex,
  type SpaceSource,
} from "./in-memory-space-index.js";
import { readDenseBinary, readSparseBinary } from "./pgvector-binary.js";
import { fuseHybridLists } from "./reciprocal-rank-fusion.js";
import type { SqlExecutor } from "./sql-client.js";
import { CHUNK_ID_PATTERN, candidateQuery, type VectorIndex } from "./vector-index.js";

/** Rows per page when a space is loaded: ~4 MB of binary vectors. */
const LOAD_PAGE_ROWS = 2000;

type VectorRow = {
  chunk_id: string;
  document_id: string;
  has_dense: boolean;
  dense: Uint8Array | null;
  sparse: Uint8Array | null;
};

/**
 * Reads a space's vectors from chunk_vectors in keyset pages (chunk-id order), in pgvector's binary
 * form: each page is decoded into typed arrays and dropped before the next is read.
 */
export function spaceSourceOf(database: SqlExecutor): SpaceSource {
  return {
    async *rows(spaceId, { withDense }) {
      let after = "00000000-0000-0000-0000-000000000000";
      for (;;) {
        const { rows } = await database.query<VectorRow>(
          `SELECT chunk_id, document_id, dense IS NOT NULL AS has_dense,
             ${withDense ? "vector_send(dense)" : "NULL::bytea"} AS dense, sparsevec_send(sparse) AS sparse
           FROM chunk_vectors WHERE space_id = $1 AND chunk_id > $2 ORDER BY chunk_id LIMIT ${LOAD_PAGE_ROWS}`,
          [spaceId, after],
        );
        if (rows.length === 0) return;
        yield rows.map((row) => ({
          chunkId: row.chunk_id,
          documentId: row.document_id,
          spaceId,
          hasDense: row.has_dense,
          dense: row.dense === null ? undefined : readDenseBinary(row.dense),
          sparse: row.sparse === null ? undefined : readSparseBinary(row.sparse),
        }));
        after = rows.at(-1)?.chunk_id ?? after;
        if (rows.length < LOAD_PAGE_ROWS) return;
      }
    },
    async *dense(chunkIds) {
      const ids = chunkIds.filter((chunkId) => CHUNK_ID_PATTERN.test(chunkId));
      for (let start = 0; start < ids.length; start += LOAD_PAGE_ROWS) {
        const { rows } = await database.query<{ chunk_id: string; dense: Uint8Array }>(
          `SELECT chunk_id, vector_send(dense) AS dense FROM chunk_vectors
           WHERE chunk_id = ANY($1::uuid[]) AND dense IS NOT NULL`,
          [ids.slice(start, start + LOAD_PAGE_ROWS)],
        );
        yield rows.map((row) => ({ chunkId: row.chunk_id, dense: readDenseBinary(row.dense) }));
      }
    },
    async version(spaceId) {
      // Bumped by chunk_vectors' triggers on every write to the space's rows (migration 0103).
      const { rows } = await database.query<{ version: string }>(
        "SELECT version::text AS version FROM chunk_vector_space_versions WHERE space_id = $1",
        [spaceId],
      );
      return rows[0]?.version ?? "0";
    },
  };
}

export type EmbeddedSearchOptions = {
  settings?: Partial<DenseSearchSettings>;
  /** Where the spaces' approximate indexes are saved; null keeps them in memory only (rebuilt on restart). */
  snapshotDirectory?: string | null;
  /** Told when a saved index is refused as damaged. */
  logger?: Logger;
};

export function withInMemorySearch(
  inner: VectorIndex,
  database: SqlExecutor,
  options: EmbeddedSearchOptions = {},
): VectorIndex {
  const settings = { ...DEFAULT_DENSE_SEARCH_SETTINGS, ...options.settings };
  const snapshots = options.snapshotDirectory
    ? new DenseIndexSnapshots(options.snapshotDirectory, inner.denseDimensions, settings.approximate, {
        logger: options.logger,
      })
    : null;
  const memory = new InMemorySpaceIndex(inner.denseDimensions, spaceSourceOf(database), { settings, snapshots });

  return {
    denseDimensions: inner.denseDimensions,
    upsert: (chunks) =>
      memory.writing(async () => {
        // Chunk ids are new UUIDs on ingestion; one stored again with a new vector invalidates its space's snapshot.
        await memory.replacingDense(chunks.filter((chunk) => chunk.dense).map((chunk) => chunk.chunkId));
        await inner.upsert(chunks);
        await memory.stored(chunks);
      }),
    updateSparse: (chunks) =>
      memory.writing(async () => {
        await inner.updateSparse(chunks);
        await memory.replacedSparse(chunks);
      }),
    updateDense: (chunks) =>
      memory.writing(async () => {
        await memory.replacingDense(null);
        await inner.updateDense(chunks);
        await memory.replacedDense(chunks);
      }),
    deleteByDocument: (documentId) =>
      memory.writing(async () => {
        await inner.deleteByDocument(documentId);
        await memory.removedDocument(documentId);
      }),
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
    async close() {
      await memory.close();
      await inner.close();
    },
  };
}
