/**
 * A cross-encoder reranker on ONNX through transformers.js (AutoModelForSequenceClassification), in the
 * shared inference worker at interactive priority. Pairs are truncated to `maxTokens` (512 for
 * MiniLM/BGE rerankers) and scored in batches; the raw logit is the score.
 */
import { access } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../errors.js";
import type { InferenceClient } from "../inference/inference-client.js";
import type { Reranker } from "./reranker.js";

/** Pairs per worker request; keeps a batch's padding and memory small. */
const PAIRS_PER_BATCH = 16;

/** The file a cross-encoder needs; missing means reranking is off (or a start-up error when asked for). */
export function crossEncoderModelFile(modelsDir: string, modelId: string): string {
  return path.join(path.resolve(modelsDir, modelId), "onnx", "model_quantized.onnx");
}

export async function isCrossEncoderPresent(modelsDir: string, modelId: string): Promise<boolean> {
  return access(crossEncoderModelFile(modelsDir, modelId)).then(
    () => true,
    () => false,
  );
}

export function createCrossEncoderReranker(options: {
  inference: InferenceClient;
  modelsDir: string;
  modelId: string;
  maxTokens?: number;
}): Reranker {
  const modelDirectory = path.resolve(options.modelsDir, options.modelId);
  const maxTokens = options.maxTokens ?? 512;
  return {
    modelId: options.modelId,
    async score(query, passages, scoreOptions) {
      const scores: number[] = [];
      for (let start = 0; start < passages.length; start += PAIRS_PER_BATCH) {
        const reply = await options.inference.run(
          {
            task: "score-pairs",
            modelDirectory,
            query,
            passages: passages.slice(start, start + PAIRS_PER_BATCH),
            maxTokens,
          },
          { priority: "interactive", signal: scoreOptions?.signal },
        );
        if (reply.task !== "score-pairs") throw new FolioError("rerank_failed", "The reranker returned no scores.");
        scores.push(...reply.scores);
      }
      return scores;
    },
  };
}
