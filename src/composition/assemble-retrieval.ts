/**
 * The retriever the configuration describes: its default mode (sparse without an embedder, hybrid+rerank
 * with a cross-encoder, hybrid otherwise, unless FOLIO_RETRIEVAL_MODE says), fusion and rerank settings,
 * document and statement targeting, and the spelling dictionary read from the tokenizer's vocabulary.
 */
import type { FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import type { Logger } from "../logger.js";
import type { Reranker } from "../rerank/reranker.js";
import { createHybridRetriever } from "../retrieval/hybrid-retriever.js";
import { loadSpellingDictionary } from "../retrieval/load-spelling-dictionary.js";
import { DEFAULT_RETRIEVAL_SETTINGS } from "../retrieval/retrieval-settings.js";
import type { RetrievalMode, Retriever } from "../retrieval/retriever.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

export async function assembleRetrieval(input: {
  config: FolioConfig;
  catalog: Catalog;
  vectorIndex: VectorIndex;
  embedder: Embedder | null;
  reranker: Reranker | null;
  tokenizerDirectory: string | null;
  logger: Logger;
}): Promise<{ retriever: Retriever; retrievalMode: RetrievalMode }> {
  const { config, embedder, reranker, logger } = input;
  const retrievalMode: RetrievalMode =
    config.retrieval.mode ?? (embedder === null ? "sparse" : reranker ? "hybrid+rerank" : "hybrid");
  const spellingDictionary =
    input.tokenizerDirectory === null
      ? null
      : await loadSpellingDictionary(input.tokenizerDirectory).catch((error: unknown) => {
          logger.warn({ err: error }, "no spelling dictionary: questions are searched as typed");
          return null;
        });
  const retriever = createHybridRetriever({
    catalog: input.catalog,
    vectorIndex: input.vectorIndex,
    embedder,
    reranker,
    spellingDictionary,
    logger,
    settings: {
      ...DEFAULT_RETRIEVAL_SETTINGS,
      defaultMode: retrievalMode,
      candidates: config.retrieval.candidates,
      fusion: {
        k: config.retrieval.rrfK,
        denseWeight: config.retrieval.denseWeight,
        sparseWeight: config.retrieval.sparseWeight,
      },
      rerankCandidates: config.retrieval.rerankCandidates,
      targeting: config.retrieval.documentTargeting ? DEFAULT_RETRIEVAL_SETTINGS.targeting : null,
      statementTargeting: config.retrieval.statementTargeting,
    },
  });
  logger.info(
    { retrievalMode, embedder: embedder?.modelId ?? "none", reranker: reranker?.modelId ?? "none" },
    "retrieval ready",
  );
  return { retriever, retrievalMode };
}
