/**
 * The models the configuration names, made ready for the assembly: the embedder (missing default files
 * fetched on first use, loaded in the inference worker, behind the evaluation cache for passages being
 * indexed), the cross-encoder when FOLIO_RERANK_MODEL is set, and the folder whose tokenizer sizes chunks.
 */
import { access } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_EMBED_MODEL, type FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import { createCachedEmbedder } from "../embedding/embedding-cache.js";
import { createTransformersEmbedder } from "../embedding/transformers-embedder.js";
import { FolioError } from "../errors.js";
import type { InferenceClient } from "../inference/inference-client.js";
import type { Logger } from "../logger.js";
import { ensureModels } from "../models/ensure-models.js";
import {
  createCrossEncoderReranker,
  crossEncoderModelFile,
  isCrossEncoderPresent,
} from "../rerank/cross-encoder-reranker.js";
import type { Reranker } from "../rerank/reranker.js";
import type { FolioOptions } from "./folio.js";

/** `embedder` answers questions; `indexingEmbedder` embeds passages (through the evaluation cache when one is set). */
export type LoadedEmbedders = { embedder: Embedder; indexingEmbedder: Embedder };

export async function loadEmbedder(
  config: FolioConfig,
  options: FolioOptions,
  inference: InferenceClient,
  logger: Logger,
): Promise<LoadedEmbedders | null> {
  // First use: a missing default model (or, keyword-only, its tokenizer for the chunker) is fetched now.
  await ensureModels(config, ["embedder"], { logger: logger.child({ component: "models" }) });
  if (config.embedModel === null) return null;
  const embedder = await createTransformersEmbedder({
    inference,
    modelsDir: config.modelsDir,
    modelId: config.embedModel,
  });
  // A failed load is not reported here: the first question asks again and reports it.
  if (options.warmEmbedder) void embedder.warmUp?.().catch(() => undefined);
  // Only passages being indexed go through the evaluation cache: answers' sentence vectors would fill it
  // and make a second evaluation's answers look faster than they are.
  const indexingEmbedder = options.embeddingCacheDir
    ? await createCachedEmbedder(embedder, options.embeddingCacheDir)
    : embedder;
  return { embedder, indexingEmbedder };
}

/**
 * Chunks are sized by the embedder's tokenizer. Keyword-only set-ups use the default model's tokenizer
 * when its folder is there (`folio models pull embedder`), and otherwise start with no model files at
 * all: chunks are then sized by an estimate (ingestion/estimated-token-counter.ts).
 */
export async function chooseTokenizerDirectory(config: FolioConfig): Promise<string | null> {
  if (config.embedModel !== null) return path.join(config.modelsDir, config.embedModel);
  const directory = path.join(config.modelsDir, DEFAULT_EMBED_MODEL);
  const present = await access(path.join(directory, "tokenizer.json")).then(
    () => true,
    () => false,
  );
  return present ? directory : null;
}

export async function loadReranker(
  config: FolioConfig,
  inference: InferenceClient,
  logger: Logger,
): Promise<Reranker | null> {
  if (config.rerankModel === null) return null;
  await ensureModels(config, ["reranker"], { logger: logger.child({ component: "models" }) });
  if (!(await isCrossEncoderPresent(config.modelsDir, config.rerankModel))) {
    throw new FolioError(
      "model_missing",
      `FOLIO_RERANK_MODEL is ${config.rerankModel} but ${crossEncoderModelFile(config.modelsDir, config.rerankModel)} does not exist — put the cross-encoder there (transformers.js layout) or unset FOLIO_RERANK_MODEL.`,
    );
  }
  return createCrossEncoderReranker({ inference, modelsDir: config.modelsDir, modelId: config.rerankModel });
}
