/**
 * Which backend node-llama-cpp may use, as FOLIO_LLM_GPU spells it. Kept apart from the model so the
 * configuration can validate it without loading node-llama-cpp.
 */

/** "auto" picks CUDA (or Metal, Vulkan) when present and the CPU otherwise; "cpu" never touches a GPU. */
export const LLAMA_GPU_SETTINGS = ["auto", "cuda", "vulkan", "metal", "cpu"] as const;
export type LlamaGpuSetting = (typeof LLAMA_GPU_SETTINGS)[number];
