/**
 * Builds the configured language model for the composition root: a local GGUF through node-llama-cpp,
 * an OpenAI-compatible server, or none (answers stay extractive).
 */
import type { LlmConfig, LlmRuntimeConfig } from "../config/config.js";
import type { Logger } from "../logger.js";
import type { LanguageModel } from "./language-model.js";
import { loadLlamaCppModel } from "./llama-cpp-model.js";
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
    case "local":
      return loadLlamaCppModel({
        modelPath: llm.modelPath,
        gpu: runtime.gpu,
        threads: runtime.threads,
        parallel: runtime.parallel,
        queueLimit: runtime.queueLimit,
        timeoutMs,
        logger: logger.child({ component: "llm" }),
      });
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
