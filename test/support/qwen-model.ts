/**
 * Where tests find the real instruction-tuned model (Qwen2.5-Coder-Instruct GGUF, assembled by
 * ../shared/models/fetch-qwen2.5-coder.sh): FOLIO_MODELS_DIR, then the script's default folder
 * ~/.cache/folio-models. Too large for the shared folder, so it is often absent: tests that need it
 * skip with the reason this gives.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sharedModelsDir } from "./shared-paths.js";

export const QWEN_FILES = {
  "1.5b": "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
  "0.5b": "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
} as const;

const FOLDERS = [sharedModelsDir, path.join(os.homedir(), ".cache", "folio-models")];

/** The model file, or null and why not. */
export function findQwenModel(size: keyof typeof QWEN_FILES): { path: string | null; missing: string | null } {
  const file = QWEN_FILES[size];
  const found = FOLDERS.map((folder) => path.join(folder, file)).find((candidate) => existsSync(candidate));
  return found
    ? { path: found, missing: null }
    : {
        path: null,
        missing: `no ${file} in ${FOLDERS.join(" or ")} (bash ../shared/models/fetch-qwen2.5-coder.sh ${size})`,
      };
}
