/**
 * The stores the configuration names (embedded PGlite under the data directory, or PostgreSQL, with
 * Qdrant when set), opened with the embedded store's dense search settings. The composition root opens
 * them through this; `folio ask|search` without a server starts it before importing the rest of Folio,
 * so PGlite starts in its worker thread while the main thread is still loading modules.
 */
import path from "node:path";
import { readEmbeddingDimensions } from "../embedding/transformers-embedder.js";
import type { Logger } from "../logger.js";
import { DEFAULT_APPROXIMATE_INDEX_SETTINGS } from "./approximate-dense-index.js";
import { openStores, type Stores } from "./open-stores.js";
import { securePrivateDataDirectory } from "./private-data-directory.js";
import type { StoreSetupConfig } from "./store-settings.js";

/** The dense column's size when no embedder is loaded (that of the default, bge-small-en-v1.5). */
export const DEFAULT_DENSE_DIMENSIONS = 384;

/**
 * The configured stores, sized for the configured embedding model (read from its config.json), in a data
 * directory made private first (as createFolio does: PGlite writes there as it opens); null when that
 * model is not there yet (a first run fetches it before Folio is built, which then opens them).
 */
export async function openStoresForConfig(config: StoreSetupConfig, logger: Logger): Promise<Stores | null> {
  await securePrivateDataDirectory(config.dataDir, logger);
  const dimensions =
    config.embedModel === null
      ? DEFAULT_DENSE_DIMENSIONS
      : await readEmbeddingDimensions(config.modelsDir, config.embedModel).catch(() => null);
  return dimensions === null ? null : openConfiguredStores(config, dimensions, logger);
}

export function openConfiguredStores(
  config: StoreSetupConfig,
  denseDimensions: number,
  logger: Logger,
): Promise<Stores> {
  return openStores(
    config.storage.kind === "embedded"
      ? { mode: "embedded", dataDir: path.join(config.dataDir, "db") }
      : { mode: "postgres", databaseUrl: config.storage.databaseUrl },
    {
      denseDimensions,
      logger,
      qdrant: config.qdrant,
      denseSearch: {
        mode: config.denseSearch.mode,
        exactMaxChunks: config.denseSearch.exactMaxChunks,
        approximate: {
          ...DEFAULT_APPROXIMATE_INDEX_SETTINGS,
          quantization: config.denseSearch.quantization,
          expansionSearch: config.denseSearch.expansionSearch,
        },
      },
    },
  );
}
