/**
 * The stores Folio runs on — opened by the caller already (the CLI starts PGlite early) or opened now,
 * sized for the embedder — refused when they cannot hold what Folio needs: a PostgreSQL server without
 * pgvector (and no Qdrant), or an index embedded by another model than the configured one.
 */
import { describeStorage, type FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { checkEmbeddingModel } from "../stores/embedding-model-check.js";
import { DEFAULT_DENSE_DIMENSIONS, openConfiguredStores } from "../stores/open-configured-stores.js";
import type { Stores } from "../stores/open-stores.js";
import type { VectorIndex } from "../stores/vector-index.js";
import type { FolioOptions } from "./folio.js";

export type CheckedStores = Stores & { vectorIndex: VectorIndex };

export async function openCheckedStores(
  config: FolioConfig,
  options: FolioOptions,
  embedder: Embedder | null,
  logger: Logger,
): Promise<CheckedStores> {
  const stores =
    (await options.stores) ??
    (await openConfiguredStores(config, embedder?.dimensions ?? DEFAULT_DENSE_DIMENSIONS, logger));
  const vectorIndex = stores.vectorIndex;
  if (!vectorIndex) {
    await stores.client.close();
    // With QDRANT_URL set the index is always Qdrant, so only a PostgreSQL server without pgvector gets here.
    throw new FolioError(
      "vector_store_missing",
      "This PostgreSQL server has no pgvector extension — install pgvector on it, or set QDRANT_URL to keep vectors in Qdrant.",
    );
  }
  if (!options.allowEmbeddingModelChange) {
    await checkEmbeddingModel({ vectorIndex, modelId: embedder?.modelId ?? null, logger }).catch(async (error) => {
      await stores.client.close();
      throw error;
    });
  }
  logger.info({ storage: describeStorage(config) }, "storage ready");
  return { ...stores, vectorIndex };
}
