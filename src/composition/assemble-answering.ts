/**
 * The answer pipeline over the retriever: the extractive generator always, and — when a language model is
 * configured — its drafts, verified against the sources with the embedder, and follow-ups rewritten by it.
 * Citations link to the signed viewer. Stores (and the model) are closed when this fails, as the caller
 * cannot: the assembly stops here.
 */
import { type AnswerService, createAnswerService } from "../answer/answer-question.js";
import { createLabelMeaning } from "../answer/evidence/tables/label-meaning.js";
import { createPassageMeaning } from "../answer/evidence/window-meaning.js";
import type { TermFrequencies } from "../answer/evidence/window-scoring.js";
import { createExtractiveGenerator } from "../answer/generate/extractive-generator.js";
import { createLlmGenerator } from "../answer/generate/llm-generator.js";
import { loadAnswerPrompts } from "../answer/generate/prompt-templates.js";
import type { LlmAnswering } from "../answer/generate/write-verified-answer.js";
import { createLlmFollowUpRewriter } from "../answer/question/llm-follow-up-rewrite.js";
import type { FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import type { LinkSigner } from "../links/signed-links.js";
import { createLanguageModel } from "../llm/create-language-model.js";
import type { LanguageModel } from "../llm/language-model.js";
import type { Logger } from "../logger.js";
import type { FolioMetrics } from "../observability/metrics.js";
import { observeLanguageModel } from "../observability/observed-language-model.js";
import type { Retriever } from "../retrieval/retriever.js";
import { termId } from "../retrieval/text-analyzer.js";
import type { Catalog } from "../stores/catalog.js";
import type { SqlClient } from "../stores/sql-client.js";

export async function assembleAnswering(input: {
  config: FolioConfig;
  client: SqlClient;
  catalog: Catalog;
  retriever: Retriever;
  /** The embedder answers use (sentence vectors, draft verification); null: keyword-only. */
  embedder: Embedder | null;
  linkSigner: LinkSigner;
  metrics: FolioMetrics;
  logger: Logger;
}): Promise<{ languageModel: LanguageModel | null; answers: AnswerService }> {
  const { config, client, catalog, embedder, linkSigner, logger } = input;
  const createdModel = await createLanguageModel(config.llm, config.llmRuntime, logger).catch(async (error) => {
    await client.close();
    throw error;
  });
  const languageModel = createdModel && observeLanguageModel(createdModel, input.metrics);
  const llm = await answerWithLanguageModel(languageModel, embedder, config.llmSourceTokens, logger).catch(
    async (error) => {
      await languageModel?.close();
      await client.close();
      throw error;
    },
  );
  // Follow-ups are rewritten by the model whenever one is configured (no embedder needed for that).
  const followUpRewriter =
    languageModel && config.llmRewriteTimeoutSeconds > 0
      ? createLlmFollowUpRewriter({
          model: languageModel,
          prompt: (await loadAnswerPrompts()).rewriteFollowUp,
          logger: logger.child({ component: "follow-up-rewrite" }),
          timeoutMs: config.llmRewriteTimeoutSeconds * 1000,
        })
      : null;
  const answers = createAnswerService({
    retriever: input.retriever,
    llm,
    followUpRewriter,
    generator: createExtractiveGenerator({ embedder, logger: logger.child({ component: "extractive-generator" }) }),
    linkForCitation: ({ documentId, page, section }) => linkSigner.signDocumentUrl({ documentId, page, section }),
    pageTexts: (documentId) => catalog.getPages(documentId),
    documentPassages: (documentId) => catalog.listChunks(documentId),
    termFrequencies: (spaceIds, terms) => termFrequenciesIn(catalog, spaceIds, terms),
    ...(embedder ? { labelMeaning: createLabelMeaning(embedder), passageMeaning: createPassageMeaning(embedder) } : {}),
    logger,
  });
  return { languageModel, answers };
}

/**
 * The LLM side of answering, when a model is configured: its prompts are read now (a missing file
 * fails at start, not at the first question), and its drafts are verified with the embedder. Without
 * an embedder (keyword-only set-ups) a draft cannot be checked, so answers stay extractive.
 */
async function answerWithLanguageModel(
  model: LanguageModel | null,
  embedder: Embedder | null,
  sourceTokens: number | null,
  logger: Logger,
): Promise<LlmAnswering | null> {
  if (model === null) return null;
  if (embedder === null) {
    logger.warn(
      { model: model.name },
      "an LLM is configured but FOLIO_EMBED_MODEL is none: its answers cannot be checked against the sources, so answers stay extractive",
    );
    return null;
  }
  const prompts = await loadAnswerPrompts();
  logger.info({ model: model.name, contextTokens: model.contextTokens }, "answers written by the language model");
  return {
    writer: createLlmGenerator({
      model,
      prompts,
      ...(sourceTokens === null ? {} : { sourceTokens }),
      logger: logger.child({ component: "llm-generator" }),
    }),
    embedder,
  };
}

/** How many passages of the spaces hold each term, from the BM25 statistics the catalog keeps. */
async function termFrequenciesIn(catalog: Catalog, spaceIds: string[], terms: string[]): Promise<TermFrequencies> {
  const statistics = await catalog.getTermStatistics(spaceIds, terms.map(termId));
  return {
    passages: statistics.chunkCount,
    frequencies: new Map(terms.map((term) => [term, statistics.documentFrequencies.get(termId(term)) ?? 0])),
  };
}
