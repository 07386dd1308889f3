/**
 * Builds the configured language model for the composition root: a local GGUF through node-llama-cpp,
 * an OpenAI-compatible server, or none (answers stay extractive).
 *
 * node-llama-cpp is an opt-in of the install (`npm run setup:llm`: its GPU builds alone are ~700 MB), so
 * it is imported only when FOLIO_LLM_MODEL asks for it, and its absence is a set-up error that says how
 * to add it.
 */
import { FolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { LanguageModel } from "./language-model.js";
import type { LlmConfig, LlmRuntimeConfig } from "./llm-settings.js";
import { createOpenAiCompatibleModel } from "./openai-compatible-model.js";

export async function createLanguageModel(
  llm: LlmConfig,
  runtime: LlmRuntimeConfig,
  logger: Logger,
): Promise<LanguageModel | null> {
  const timeoutMs = runtime.timeoutSeconds * 1000;
  switch (llm.kind) {
    case "none":
      return null;
    case "local": {
      const { loadLlamaCppModel } = await importLlamaCppModel();
      return loadLlamaCppModel({
        modelPath: llm.modelPath,
        gpu: runtime.gpu,
        threads: runtime.threads,
        parallel: runtime.parallel,
        queueLimit: runtime.queueLimit,
        timeoutMs,
        logger: logger.child({ component: "llm" }),
      });
    }
    case "openai-compatible":
      return createOpenAiCompatibleModel({
        baseUrl: llm.baseUrl,
        model: llm.model,
        apiKey: llm.apiKey,
        timeoutMs,
        ...(runtime.parallel === null ? {} : { parallelSequences: runtime.parallel }),
        logger: logger.child({ component: "llm" }),
      });
  }
}

/** The in-process runtime, or a set-up error naming the step that installs it. */
export async function importLlamaCppModel(
  load: () => Promise<typeof import("./llama-cpp-model.js")> = () => import("./llama-cpp-model.js"),
): Promise<typeof import("./llama-cpp-model.js")> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingLlamaPackage(error)) throw error;
    throw new FolioError(
      "llm_runtime_missing",
      "FOLIO_LLM_MODEL is set, but node-llama-cpp (the local LLM runtime, an opt-in of the install) is not installed — run `npm run setup:llm` (again after every `npm ci`), or unset FOLIO_LLM_MODEL to answer without a language model, or set LLM_BASE_URL and LLM_MODEL to use an OpenAI-compatible server.",
      { cause: error },
    );
  }
}

function isMissingLlamaPackage(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    typeof message === "string" &&
    message.includes("node-llama-cpp")
  );
}
