/**
 * Opens the database for the configured mode, applies migrations, and builds the catalog and the
 * vector index on it. Embedded: PGlite + pgvector under the data dir. PostgreSQL: the catalog always;
 * the vector index only when the server has pgvector (otherwise `vectorIndex` is null and the caller
 * must keep vectors elsewhere, e.g. Qdrant). With `qdrant` set, vectors live in that Qdrant collection
 * whichever database holds the catalog. The returned client is the one owner of the connection:
 * `catalog.close()` and `vectorIndex.close()` leave it open, `client.close()` ends it. The PostgreSQL
 * and Qdrant clients are imported only when configured: the embedded default (and `folio ask` without
 * a server, which waits on this) never loads them.
 */
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Catalog } from "./catalog.js";
import { withInMemorySearch } from "./embedded-vector-index.js";
import type { DenseSearchSettings } from "./in-memory-space-index.js";
import { migrateDatabase } from "./migrations.js";
import { openPgliteClient } from "./pglite-client.js";
import { createPgvectorIndex } from "./pgvector-index.js";
import type { SettlingOptions } from "./qdrant-collection-readiness.js";
import type { QdrantCollectionSettings } from "./qdrant-collection-settings.js";
import { createSqlCatalog } from "./sql-catalog.js";
import type { SqlClient } from "./sql-client.js";
import type { VectorIndex } from "./vector-index.js";

/** Embedded keeps the database under `dataDir` ("memory://" for an in-memory one); postgres uses a server. */
export type StoresLocation = { mode: "embedded"; dataDir: string } | { mode: "postgres"; databaseUrl: string };

export type Stores = {
  client: SqlClient;
  catalog: Catalog;
  vectorIndex: VectorIndex | null;
  vectorBackend: "pgvector" | "qdrant" | "none";
};

/** A Qdrant server and collection for the vectors (config.qdrant), with the collection's cluster settings. */
export type QdrantLocation = {
  url: string;
  apiKey: string | null;
  collection: string;
  settings?: QdrantCollectionSettings;
  settling?: SettlingOptions;
};

export async function openStores(
  location: StoresLocation,
  options: {
    denseDimensions: number;
    logger: Logger;
    qdrant?: QdrantLocation | null;
    /** The embedded store's dense search (exact / approximate); defaults otherwise. */
    denseSearch?: Partial<DenseSearchSettings>;
  },
): Promise<Stores> {
  const client =
    location.mode === "embedded"
      ? await openPgliteClient(location.dataDir)
      : await (await import("./postgres-client.js")).openPostgresClient(location.databaseUrl, {
          logger: options.logger,
        });
  try {
    const { hasVectorExtension } = await migrateDatabase(client, options);
    if (options.qdrant) {
      // Queries go to the server: no in-memory copy, and pgvector's table (if any) stays unused.
      const { openQdrantIndex } = await import("./qdrant-index.js");
      const vectorIndex = await openQdrantIndex({
        ...options.qdrant,
        denseDimensions: options.denseDimensions,
        logger: options.logger,
      });
      options.logger.debug({ engine: client.kind, vectorBackend: "qdrant" }, "stores opened");
      return { client, catalog: createSqlCatalog(client), vectorIndex, vectorBackend: "qdrant" };
    }
    if (hasVectorExtension) await checkDenseDimensions(client, options.denseDimensions);
    options.logger.debug(
      { engine: client.kind, vectorBackend: hasVectorExtension ? "pgvector" : "none" },
      "stores opened",
    );
    return {
      client,
      catalog: createSqlCatalog(client),
      vectorIndex: hasVectorExtension ? vectorIndexFor(location, client, options) : null,
      vectorBackend: hasVectorExtension ? "pgvector" : "none",
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * Embedded PGlite is one process, so search may keep an in-memory copy of the vectors; a server may not.
 * The approximate indexes are saved beside the database directory (`<dataDir>.dense-index`).
 */
function vectorIndexFor(
  location: StoresLocation,
  client: SqlClient,
  options: { denseDimensions: number; denseSearch?: Partial<DenseSearchSettings>; logger?: Logger },
): VectorIndex {
  const index = createPgvectorIndex(client, { denseDimensions: options.denseDimensions });
  if (location.mode !== "embedded") return index;
  return withInMemorySearch(index, client, {
    settings: options.denseSearch,
    logger: options.logger,
    snapshotDirectory: location.dataDir === "memory://" ? null : denseIndexDirectory(location.dataDir),
  });
}

/** Where the embedded store saves its approximate indexes, beside the database directory. */
export function denseIndexDirectory(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, "")}.dense-index`;
}

/**
 * The dense column's size is fixed when the table is created; an embedder with another size would fail
 * on the first upsert, so say so at start-up with the way out.
 */
async function checkDenseDimensions(client: SqlClient, denseDimensions: number): Promise<void> {
  // For pgvector's `vector(n)` the type modifier is n itself.
  const { rows } = await client.query<{ dimensions: number }>(
    `SELECT atttypmod AS dimensions FROM pg_attribute
     WHERE attrelid = 'chunk_vectors'::regclass AND attname = 'dense'`,
  );
  const stored = rows[0]?.dimensions;
  if (stored !== undefined && stored !== denseDimensions) {
    throw new FolioError(
      "dense_dimension_mismatch",
      `The vector index holds ${stored}-dimensional embeddings but the configured embedding model makes ${denseDimensions}; use the model the index was built with, or start from an empty data directory / database and ingest again.`,
      { details: { stored, configured: denseDimensions } },
    );
  }
}
