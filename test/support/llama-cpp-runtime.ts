/**
 * The local LLM runtime for the tests that run a GGUF model in-process. node-llama-cpp is an opt-in of
 * the install (`npm run setup:llm`; .ci/run installs it), so those tests import it only when it is there
 * and otherwise skip with the one-line reason below.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

type LlamaCppModelModule = typeof import("../../src/llm/llama-cpp-model.js");

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export const llamaCppMissing: string | null = existsSync(
  path.join(repositoryRoot, "node_modules", "node-llama-cpp", "package.json"),
)
  ? null
  : "node-llama-cpp is not installed (npm run setup:llm)";

/** src/llm/llama-cpp-model.ts, or, without node-llama-cpp, functions that say why if a skipped test calls them. */
export async function importLlamaCppModel(): Promise<LlamaCppModelModule> {
  if (llamaCppMissing === null) return import("../../src/llm/llama-cpp-model.js");
  const missing = () => {
    throw new Error(llamaCppMissing ?? "");
  };
  return { createLlamaCppModel: missing, loadLlamaModelFile: missing } as unknown as LlamaCppModelModule;
}
