/**
 * Where the catalog and the vectors live and how the embedded store searches: the settings src/stores/
 * reads, declared here (the layer that uses them) and filled from the environment by src/config/.
 */
import type { DenseQuantization } from "./approximate-dense-index.js";
import type { DenseIndexMode } from "./dense-search-settings.js";
import type { SettlingOptions } from "./qdrant-collection-readiness.js";
import type { QdrantCollectionSettings } from "./qdrant-collection-settings.js";

export type StorageMode =
  /** PGlite + pgvector under dataDir: nothing to install or run. */
  | { kind: "embedded"; dataDir: string }
  /** PostgreSQL catalog; vectors in pgvector when the server has it, else in Qdrant. */
  | { kind: "postgres"; databaseUrl: string };

export type EmbeddedDenseSearchConfig = {
  /** FOLIO_DENSE_INDEX: auto (exact up to the threshold, approximate past it), approximate, exact. */
  mode: DenseIndexMode;
  /** FOLIO_DENSE_EXACT_MAX_CHUNKS: embedded chunks a space may hold before auto switches it to HNSW. */
  exactMaxChunks: number;
  /** FOLIO_DENSE_QUANTIZATION: precision of the vectors inside the approximate index. */
  quantization: DenseQuantization;
  /** FOLIO_DENSE_EF_SEARCH: candidates the approximate index considers per query (higher: better recall, slower). */
  expansionSearch: number;
};

export type QdrantConfig = {
  url: string;
  apiKey: string | null;
  collection: string;
  /** A new collection's sharding, replication, on-disk storage and quantization (QDRANT_SHARD_NUMBER, …). */
  settings: QdrantCollectionSettings;
  /** QDRANT_START_TIMEOUT_SECONDS: how long start-up waits for the collection's shards on a cluster. */
  settling: SettlingOptions;
};

/** What opening the configured stores needs to know (a FolioConfig has all of it). */
export type StoreSetupConfig = {
  dataDir: string;
  modelsDir: string;
  /** Null: keyword-only, so the dense column takes the default model's size. */
  embedModel: string | null;
  storage: StorageMode;
  /** How the embedded store searches dense vectors; unused with Qdrant or PostgreSQL. */
  denseSearch: EmbeddedDenseSearchConfig;
  qdrant: QdrantConfig | null;
};
