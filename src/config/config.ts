/**
 * Folio's configuration, the one module the composition root, the CLI and the adapters import it from:
 * loadConfig reads the environment (load-config.ts) with the variables declared in config-variables.ts
 * and returns a FolioConfig (folio-config.ts). Only the composition root and the CLI call it; everything
 * else takes options.
 */
import type { FolioConfig } from "./folio-config.js";

export type { LlmConfig, LlmRuntimeConfig } from "../llm/llm-settings.js";
export { DEFAULT_HUB_ENDPOINT, type ModelDownloadConfig } from "../models/model-download-settings.js";
export { DEFAULT_EMBED_MODEL } from "../models/model-registry.js";
export type { EmbeddedDenseSearchConfig, QdrantConfig, StorageMode } from "../stores/store-settings.js";
export { ConfigError, type ConfigProblem, type Environment } from "./config-error.js";
export { CONSOLE_ACCESS, type ConsoleAccess } from "./config-variables.js";
export type {
  FolioConfig,
  OperationsConfig,
  RetrievalConfig,
  SlackConfig,
  TeamsConfig,
} from "./folio-config.js";
export { loadConfig } from "./load-config.js";

/** Where the index lives, in words, for the start-up log and `/readyz`. */
export function describeStorage(config: FolioConfig): string {
  const qdrant = config.qdrant ? `Qdrant at ${config.qdrant.url} (collection ${config.qdrant.collection})` : null;
  if (config.storage.kind === "embedded") {
    const at = config.storage.dataDir;
    return qdrant ? `embedded PGlite catalog at ${at}, vectors in ${qdrant}` : `embedded PGlite + pgvector at ${at}`;
  }
  return `PostgreSQL catalog, vectors in ${qdrant ?? "pgvector in the same PostgreSQL"}`;
}
