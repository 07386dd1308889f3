/**
 * Where the shared evaluation data and models live, for tests. CI clones the repository with
 * `shared/` beside it; FOLIO_SHARED_DATA_DIR / FOLIO_MODELS_DIR override.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export const sharedDataDir = path.resolve(
  process.env.FOLIO_SHARED_DATA_DIR ?? path.join(repositoryRoot, "..", "shared", "data"),
);
export const sharedModelsDir = path.resolve(
  process.env.FOLIO_MODELS_DIR ?? path.join(repositoryRoot, "..", "shared", "models"),
);

export function sharedData(...parts: string[]): string {
  return path.join(sharedDataDir, ...parts);
}

export function sharedModel(...parts: string[]): string {
  return path.join(sharedModelsDir, ...parts);
}

export const hasSharedData = existsSync(sharedDataDir);
