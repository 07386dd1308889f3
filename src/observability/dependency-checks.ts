/**
 * The readiness checks of Folio's dependencies, each as cheap as a real use can be: the catalog reads
 * a space row, the vector store runs a filtered query on an empty probe space, the embedder embeds one
 * word, and an OpenAI-compatible LLM server lists its models (a local GGUF model is loaded in this
 * process, so it is up while Folio is).
 */

import type { Embedder } from "../embedding/embedder.js";
import { FolioError } from "../errors.js";
import type { LanguageModel } from "../llm/language-model.js";
import type { LlmConfig } from "../llm/llm-settings.js";
import { openAiApiRoot } from "../llm/openai-compatible-model.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";
import type { DependencyName, ReadinessCheck } from "./readiness.js";

/** A space no document lives in: queries on it touch the store and the filter but return nothing. */
const PROBE_SPACE = "readiness-probe";

export type DependencyCheckInputs = {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  embedder: Embedder | null;
  languageModel: LanguageModel | null;
  llm: LlmConfig;
  /** The HTTP client for an OpenAI-compatible server; global fetch unless a test passes one. */
  fetch?: typeof fetch;
};

export function buildDependencyChecks(inputs: DependencyCheckInputs): {
  checks: ReadinessCheck[];
  off: Partial<Record<DependencyName, string>>;
} {
  const checks: ReadinessCheck[] = [
    {
      name: "catalog",
      async check() {
        await inputs.catalog.getSpace(PROBE_SPACE);
        return undefined;
      },
    },
    {
      name: "vectorStore",
      async check() {
        await inputs.vectorIndex.querySparse({ indices: [0], values: [1] }, { spaceIds: [PROBE_SPACE], limit: 1 });
        return undefined;
      },
    },
  ];
  const off: Partial<Record<DependencyName, string>> = {};
  const { embedder, languageModel } = inputs;
  if (embedder) {
    checks.push({
      name: "embedder",
      async check(signal) {
        await embedder.embedQuery("ready", { signal });
        return embedder.modelId;
      },
    });
  } else {
    off.embedder = "FOLIO_EMBED_MODEL is none: keyword search only";
  }
  const { llm } = inputs;
  if (languageModel === null) {
    off.languageModel = "no LLM configured: answers are extractive";
  } else if (llm.kind === "openai-compatible") {
    const fetchModels = inputs.fetch ?? fetch;
    checks.push({
      name: "languageModel",
      async check(signal) {
        const response = await fetchModels(`${openAiApiRoot(llm.baseUrl)}/models`, {
          signal,
          headers: llm.apiKey ? { Authorization: `Bearer ${llm.apiKey}` } : {},
        }).catch((error: unknown) => {
          throw new FolioError("llm_unavailable", `The LLM server at LLM_BASE_URL does not answer (${String(error)}).`);
        });
        await response.body?.cancel();
        if (!response.ok) {
          throw new FolioError(
            "llm_unavailable",
            `The LLM server answered GET /v1/models with HTTP ${response.status}.`,
          );
        }
        return languageModel.name;
      },
    });
  } else {
    checks.push({ name: "languageModel", check: async () => languageModel.name });
  }
  return { checks, off };
}
