/**
 * Start-up check that the vectors in the index were made by the configured embedding model: vectors of
 * two models cannot be compared, so a changed FOLIO_EMBED_MODEL without re-indexing would silently
 * return nonsense. Refuses with the fix; chunks without any dense vector only warrant a warning (they
 * are still found by keywords, and `folio reindex` embeds them).
 */
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { VectorIndex } from "./vector-index.js";

export async function checkEmbeddingModel(options: {
  vectorIndex: VectorIndex;
  /** Null when dense retrieval is off (FOLIO_EMBED_MODEL=none). */
  modelId: string | null;
  logger: Logger;
}): Promise<void> {
  const counts = await options.vectorIndex.countByDenseModel();
  const others = counts.filter((entry) => entry.model !== null && entry.model !== options.modelId);
  if (others.length > 0 && options.modelId !== null) {
    const described = others.map((entry) => `${entry.chunks} by ${entry.model}`).join(", ");
    throw new FolioError(
      "embedding_model_changed",
      `The index holds passages embedded by another model (${described}) but FOLIO_EMBED_MODEL is ${options.modelId} — run \`npx folio reindex\` to embed them again with ${options.modelId}, or set FOLIO_EMBED_MODEL back.`,
      { details: { counts } },
    );
  }
  const missing = counts.find((entry) => entry.model === null)?.chunks ?? 0;
  if (missing > 0 && options.modelId !== null) {
    options.logger.warn(
      { chunks: missing, model: options.modelId },
      "some passages have no embedding yet and are found by keywords only — run `npx folio reindex` to embed them",
    );
  }
}
