/**
 * One file a model target needs, as planned by src/models/ensure-models.ts: what to download and where
 * it goes. Its own module so the planner and the messages about missing models share it without a cycle.
 */
import type { HubFileRequest } from "./download-hub-file.js";

export const MODEL_TARGETS = ["embedder", "reranker", "llm"] as const;
export type ModelTarget = (typeof MODEL_TARGETS)[number];

export type PlannedModelFile = HubFileRequest & {
  target: ModelTarget;
  /** The model's own folder (`<models dir>/<model id>`); null for a single-file model (a GGUF). */
  modelFolder: string | null;
};
