/**
 * The embedder on ONNX models through transformers.js, run in the shared inference worker.
 * Passages go to the worker a few at a time, where each runs through the model on its own (its vector
 * depends on its text alone: src/inference/inference-worker.ts), so a question, which goes to the front
 * of the queue, waits for at most those few.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../errors.js";
import type { InferenceClient } from "../inference/inference-client.js";
import type { Embedder, EmbedOptions } from "./embedder.js";
import { embeddingModelProfile } from "./embedding-models.js";

/** Passages per worker request: ~0.3 s for 400-token passages on two idle cores, what a question may wait. */
export const DEFAULT_EMBED_BATCH = 4;

export async function createTransformersEmbedder(options: {
  inference: InferenceClient;
  modelsDir: string;
  modelId: string;
  batchSize?: number;
}): Promise<Embedder> {
  const modelDirectory = path.resolve(options.modelsDir, options.modelId);
  const dimensions = await readEmbeddingDimensions(options.modelsDir, options.modelId);
  const profile = embeddingModelProfile(options.modelId);
  const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH;

  async function run(texts: string[], priority: "interactive" | "background", signal?: AbortSignal) {
    const reply = await options.inference.run(
      { task: "embed", modelDirectory, texts, pooling: profile.pooling },
      { priority, signal },
    );
    if (reply.task !== "embed" || reply.dimensions !== dimensions) {
      throw new FolioError(
        "embedding_dimension_mismatch",
        `The model in ${modelDirectory} made ${reply.task === "embed" ? reply.dimensions : "no"}-dimensional vectors, but its config.json says ${dimensions}.`,
      );
    }
    return Array.from({ length: texts.length }, (_, row) =>
      Array.from(reply.vectors.subarray(row * dimensions, (row + 1) * dimensions)),
    );
  }

  return {
    modelId: options.modelId,
    dimensions,
    async embedQuery(text: string, embedOptions?: EmbedOptions) {
      const [vector] = await run([`${profile.queryInstruction}${text}`], "interactive", embedOptions?.signal);
      if (!vector) throw new FolioError("embedding_failed", "The embedder returned no vector for the question.");
      return vector;
    },
    async embedPassages(texts: string[], embedOptions?: EmbedOptions) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        vectors.push(
          ...(await run(
            batch.map((text) => `${profile.passagePrefix}${text}`),
            embedOptions?.priority ?? "background",
            embedOptions?.signal,
          )),
        );
        embedOptions?.onProgress?.(vectors.length, texts.length);
      }
      return vectors;
    },
    async warmUp() {
      await options.inference.run({ task: "load", modelDirectory, kind: "encoder" }, { priority: "interactive" });
    },
    async close() {
      // The inference client is shared (the reranker uses it too); its owner closes it.
    },
  };
}

/** The size of the model's vectors, from its config.json (the dense column is made this wide). */
export async function readEmbeddingDimensions(modelsDir: string, modelId: string): Promise<number> {
  const modelDirectory = path.resolve(modelsDir, modelId);
  const configPath = path.join(modelDirectory, "config.json");
  let text: string;
  try {
    text = await readFile(configPath, "utf8");
  } catch (error) {
    throw new FolioError(
      "model_missing",
      `The embedding model is missing: ${configPath} does not exist — run \`npx folio models pull embedder\`, or set FOLIO_MODELS_DIR to the folder that holds it.`,
      { cause: error },
    );
  }
  const config = JSON.parse(text) as { hidden_size?: number; dim?: number };
  const size = config.hidden_size ?? config.dim;
  if (!Number.isInteger(size) || (size ?? 0) <= 0) {
    throw new FolioError("model_invalid", `${configPath} names no hidden_size; is this an embedding model?`);
  }
  return size as number;
}
