/**
 * Which language model answers and how it runs: the settings src/llm/ reads, declared here (the layer
 * that uses them) and filled from the environment by src/config/.
 */
import type { LlamaGpuSetting } from "./llama-gpu-setting.js";

export type LlmConfig =
  | { kind: "none" }
  | { kind: "local"; modelPath: string }
  | { kind: "openai-compatible"; baseUrl: string; model: string; apiKey: string | null };

/** How the language model runs, whichever kind is configured. */
export type LlmRuntimeConfig = {
  /** FOLIO_LLM_GPU: node-llama-cpp's backend; "auto" uses CUDA when present and logs what it chose. */
  gpu: LlamaGpuSetting;
  /** FOLIO_LLM_THREADS: CPU threads for node-llama-cpp; 0 lets it choose. */
  threads: number;
  /** FOLIO_LLM_PARALLEL: questions decoded together; null: 4 on a GPU, 1 on the CPU. */
  parallel: number | null;
  /** FOLIO_LLM_QUEUE: questions that may wait for a free sequence; more are told the model is busy. */
  queueLimit: number;
  /** FOLIO_LLM_TIMEOUT_SECONDS: one answer's generation time. */
  timeoutSeconds: number;
};
