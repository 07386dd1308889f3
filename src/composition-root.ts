/**
 * The one place that builds Folio from configuration: stores, ingestion, retrieval, answering and
 * links, wired into the FolioCore that adapters and the CLI use. Nothing else constructs these.
 */
import { access } from "node:fs/promises";
import path from "node:path";
import { resolveParseLimits } from "../ingestion/limits.js";
import { closeParseWorkers, processFileInWorker } from "../ingestion/run-in-worker.js";
import { type AnswerService, createAnswerService } from "./answer/answer-question.js";
import { createExtractiveGenerator } from "./answer/extractive-generator.js";
import { createLlmFollowUpRewriter } from "./answer/llm-follow-up-rewrite.js";
import { createLlmGenerator } from "./answer/llm-generator.js";
import { loadAnswerPrompts } from "./answer/prompt-templates.js";
import { createLabelMeaning } from "./answer/tables/label-meaning.js";
import type { LlmAnswering } from "./answer/write-verified-answer.js";
import { ApprovedAnswerLibrary } from "./answer-library/approved-answer-library.js";
import type { ApprovedAnswerSource } from "./answer-library/approved-answer-source.js";
import { createSqlApprovedAnswerStore } from "./answer-library/approved-answer-store.js";
import { leadWithApprovedAnswers } from "./answer-library/lead-with-approved-answer.js";
import { DEFAULT_EMBED_MODEL, describeStorage, type FolioConfig } from "./config/config.js";
import type { Embedder } from "./embedding/embedder.js";
import { createCachedEmbedder } from "./embedding/embedding-cache.js";
import { createTransformersEmbedder } from "./embedding/transformers-embedder.js";
import { FolioError } from "./errors.js";
import type { FolioCore } from "./folio-core.js";
import { createInferenceClient } from "./inference/inference-client.js";
import { createDocumentEvents, type DocumentEvents } from "./ingest/document-events.js";
import { createIngestionService, type IngestionService } from "./ingest/ingest-file.js";
import {
  createIngestionQueue,
  DEFAULT_INGEST_CONCURRENCY,
  DEFAULT_INGEST_QUEUE_DEPTH,
} from "./ingest/ingestion-queue.js";
import {
  recoverInterruptedIngestion,
  SHARED_DATABASE_STALE_AFTER_MS,
  sweepInterruptedIngestion,
} from "./ingest/interrupted-ingestion.js";
import { createMeaningIndexer, type MeaningIndexer } from "./ingest/meaning-indexer.js";
import { createParseActivity } from "./ingest/parse-activity.js";
import { createSparseVectorMaintainer, type SparseVectorMaintainer } from "./ingest/sparse-vector-maintainer.js";
import { resolveLinkSecret } from "./links/link-secret.js";
import { createLinkSigner } from "./links/signed-links.js";
import { createLanguageModel } from "./llm/create-language-model.js";
import type { LanguageModel } from "./llm/language-model.js";
import type { Logger } from "./logger.js";
import { ensureModels } from "./models/ensure-models.js";
import { buildDependencyChecks } from "./observability/dependency-checks.js";
import { type FolioMetrics, noMetrics } from "./observability/metrics.js";
import { observeCore } from "./observability/observed-core.js";
import { observeLanguageModel } from "./observability/observed-language-model.js";
import { createReadinessProbe, type ReadinessReport } from "./observability/readiness.js";
import {
  countAsInteractive,
  createInteractivePriority,
  type InteractivePriority,
} from "./questionnaire/interactive-priority.js";
import { createQuestionnaireService, type QuestionnaireService } from "./questionnaire/questionnaire-service.js";
import {
  createCrossEncoderReranker,
  crossEncoderModelFile,
  isCrossEncoderPresent,
} from "./rerank/cross-encoder-reranker.js";
import type { Reranker } from "./rerank/reranker.js";
import { createHybridRetriever } from "./retrieval/hybrid-retriever.js";
import { loadSpellingDictionary } from "./retrieval/load-spelling-dictionary.js";
import { DEFAULT_RETRIEVAL_SETTINGS } from "./retrieval/retrieval-settings.js";
import type { RetrievalMode, Retriever } from "./retrieval/retriever.js";
import type { Catalog } from "./stores/catalog.js";
import { checkEmbeddingModel } from "./stores/embedding-model-check.js";
import { DEFAULT_DENSE_DIMENSIONS, openConfiguredStores } from "./stores/open-configured-stores.js";
import type { Stores } from "./stores/open-stores.js";
import { securePrivateDataDirectory } from "./stores/private-data-directory.js";
import type { VectorIndex } from "./stores/vector-index.js";

export type Folio = {
  core: FolioCore;
  catalog: Catalog;
  vectorIndex: VectorIndex;
  retriever: Retriever;
  /** The mode the retriever uses when a request names none. */
  retrievalMode: RetrievalMode;
  /** Null when dense retrieval is off (FOLIO_EMBED_MODEL=none). */
  embedder: Embedder | null;
  /** Null unless FOLIO_RERANK_MODEL names a cross-encoder. */
  reranker: Reranker | null;
  /** Null unless an LLM is configured (FOLIO_LLM_MODEL or LLM_BASE_URL); answers are then extractive. */
  languageModel: LanguageModel | null;
  /** Approved answers per space (src/answer-library/); chat answers lead with a matching one. */
  answerLibrary: ApprovedAnswerLibrary;
  /** The answer pipeline from the documents alone, without an approved answer leading (questionnaires). */
  documentAnswers: AnswerService;
  ingestion: IngestionService;
  /** Documents added, removed and made searchable by meaning in this process (the console's live list). */
  documentEvents: DocumentEvents;
  /** Embeds stored documents in the background; null when keyword-only (FOLIO_EMBED_MODEL=none). */
  meaningIndexer: MeaningIndexer | null;
  sparseVectors: SparseVectorMaintainer;
  linkSigner: ReturnType<typeof createLinkSigner>;
  /** Questionnaire jobs: read, answered in the background behind interactive questions, filled copies. */
  questionnaires: QuestionnaireService;
  /** Counts interactive questions, so questionnaires wait their turn (src/questionnaire/interactive-priority.ts). */
  interactivePriority: InteractivePriority;
  config: FolioConfig;
  /** Where questions, uploads and the LLM report (GET /metrics when `folio serve` passes Prometheus). */
  metrics: FolioMetrics;
  /** The core an adapter uses, observed under its name ("console", "slack", "teams"…) in the metrics. */
  coreFor(adapter: string): FolioCore;
  /** Each dependency (catalog, vector store, embedder, LLM) and whether it answers now: GET /readyz. */
  checkReadiness(): Promise<ReadinessReport>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
};

/** The longest a questionnaire row waits behind people's questions before it goes anyway. */
const QUESTIONNAIRE_MAX_WAIT_MS = 5_000;

export type FolioOptions = {
  /** Evaluations: passage vectors cached on disk by (model, text hash), so re-runs skip embedding. */
  embeddingCacheDir?: string;
  /** `folio reindex`: open even when the index holds vectors of another embedding model. */
  allowEmbeddingModelChange?: boolean;
  /** Where to report questions, uploads and the LLM; nowhere unless given. */
  metrics?: FolioMetrics;
  /** Approved answers a questionnaire row reuses before the pipeline (the answer library), when given. */
  approvedAnswers?: ApprovedAnswerSource;
  /**
   * The stores, already being opened by the caller (openStoresForConfig, sized for the configured
   * model, in the data directory it made private), so their opening overlaps the caller's imports;
   * Folio owns them from here on. Null: not opened (the model was not there yet), so Folio opens them.
   */
  stores?: Promise<Stores | null>;
  /** Load the embedding model at once, in the inference worker, while the stores open: a question follows. */
  warmEmbedder?: boolean;
};

export async function createFolio(config: FolioConfig, logger: Logger, options: FolioOptions = {}): Promise<Folio> {
  // Before anything is written there: the data directory holds every space's documents. Stores opened by
  // the caller (openStoresForConfig) were opened in a directory it made private first.
  if (!options.stores) await securePrivateDataDirectory(config.dataDir, logger);
  const inference = createInferenceClient({ threads: config.inferenceThreads, logger });
  try {
    return await assembleFolio(config, logger, options, inference);
  } catch (error) {
    await inference.close();
    throw error;
  }
}

async function loadEmbedder(
  config: FolioConfig,
  options: FolioOptions,
  inference: ReturnType<typeof createInferenceClient>,
  logger: Logger,
): Promise<{ embedder: Embedder; indexingEmbedder: Embedder } | null> {
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
async function chooseTokenizerDirectory(config: FolioConfig): Promise<string | null> {
  if (config.embedModel !== null) return path.join(config.modelsDir, config.embedModel);
  const directory = path.join(config.modelsDir, DEFAULT_EMBED_MODEL);
  const present = await access(path.join(directory, "tokenizer.json")).then(
    () => true,
    () => false,
  );
  return present ? directory : null;
}

async function loadReranker(
  config: FolioConfig,
  inference: ReturnType<typeof createInferenceClient>,
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

/**
 * Uploads a dead process left half-done are failed cleanly now (embedded: every open job, the data
 * directory is this process's alone) and, on a shared database, swept every minute.
 */
async function recoverIngestionLeftovers(
  config: FolioConfig,
  catalog: Catalog,
  vectorIndex: VectorIndex,
  logger: Logger,
): Promise<() => void> {
  const recovery = { catalog, vectorIndex, logger: logger.child({ component: "ingestion-recovery" }) };
  const staleForMs = config.storage.kind === "embedded" ? 0 : SHARED_DATABASE_STALE_AFTER_MS;
  await recoverInterruptedIngestion({ ...recovery, staleForMs }).catch((error: unknown) => {
    recovery.logger.warn({ err: error }, "could not clean up interrupted ingestion jobs; will try again");
  });
  return sweepInterruptedIngestion({
    ...recovery,
    staleForMs: SHARED_DATABASE_STALE_AFTER_MS,
    intervalMs: SHARED_DATABASE_STALE_AFTER_MS,
  });
}

async function assembleFolio(
  config: FolioConfig,
  logger: Logger,
  options: FolioOptions,
  inference: ReturnType<typeof createInferenceClient>,
): Promise<Folio> {
  const embedders = await loadEmbedder(config, options, inference, logger);
  const embedder = embedders?.indexingEmbedder ?? null;
  const reranker = await loadReranker(config, inference, logger);
  const stores =
    (await options.stores) ??
    (await openConfiguredStores(config, embedder?.dimensions ?? DEFAULT_DENSE_DIMENSIONS, logger));
  const { catalog } = stores;
  const vectorIndex = stores.vectorIndex;
  if (!vectorIndex) {
    await stores.client.close();
    // With QDRANT_URL set the index is always Qdrant, so only a PostgreSQL server without pgvector gets here.
    throw new FolioError(
      "vector_store_missing",
      "This PostgreSQL server has no pgvector extension — install pgvector on it, or set QDRANT_URL to keep vectors in Qdrant.",
    );
  }
  if (!options.allowEmbeddingModelChange) {
    await checkEmbeddingModel({ vectorIndex, modelId: embedder?.modelId ?? null, logger }).catch(async (error) => {
      await stores.client.close();
      throw error;
    });
  }
  logger.info({ storage: describeStorage(config) }, "storage ready");

  const tokenizerDirectory = await chooseTokenizerDirectory(config);
  const sparseVectors = createSparseVectorMaintainer({ catalog, vectorIndex, bm25: config.bm25, logger });
  const parseLimits = resolveParseLimits({ maxMemoryMb: config.operations.parseMemoryMb });
  const documentEvents = createDocumentEvents();
  // Background embedding steps aside while an upload is parsed (two cores: the parse is what users wait on).
  const parseActivity = createParseActivity();
  const meaningIndexer =
    embedder === null
      ? null
      : createMeaningIndexer({ catalog, vectorIndex, embedder, events: documentEvents, logger, parseActivity });
  const ingestionService = createIngestionService({
    catalog,
    vectorIndex,
    meaning: meaningIndexer,
    events: documentEvents,
    parseActivity,
    sparseVectors,
    bm25: config.bm25,
    logger,
    processFile: ({ bytes, fileName, signal }) =>
      processFileInWorker({
        bytes,
        fileName,
        limits: parseLimits,
        chunking: { ...config.chunking, tokenizerDirectory },
        signal,
      }),
  });
  // Uploads beyond the concurrency wait in line ("queued"); past the depth they are refused as busy.
  const ingestion = createIngestionQueue(ingestionService, {
    concurrency: DEFAULT_INGEST_CONCURRENCY,
    maxQueued: DEFAULT_INGEST_QUEUE_DEPTH,
  });
  const stopSweepingInterruptedIngestion = await recoverIngestionLeftovers(config, catalog, vectorIndex, logger);
  const retrievalMode: RetrievalMode =
    config.retrieval.mode ?? (embedder === null ? "sparse" : reranker ? "hybrid+rerank" : "hybrid");
  const spellingDictionary =
    tokenizerDirectory === null
      ? null
      : await loadSpellingDictionary(tokenizerDirectory).catch((error: unknown) => {
          logger.warn({ err: error }, "no spelling dictionary: questions are searched as typed");
          return null;
        });
  const retriever = createHybridRetriever({
    catalog,
    vectorIndex,
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
  const linkSecret = await resolveLinkSecret({ configured: config.linkSecret ?? undefined, dataDir: config.dataDir });
  const linkSigner = createLinkSigner({
    secret: linkSecret,
    publicUrl: config.publicUrl,
    ttlSeconds: config.linkTtlSeconds,
  });
  const metrics = options.metrics ?? noMetrics;
  const createdModel = await createLanguageModel(config.llm, config.llmRuntime, logger).catch(async (error) => {
    await stores.client.close();
    throw error;
  });
  const languageModel = createdModel && observeLanguageModel(createdModel, metrics);
  const llm = await answerWithLanguageModel(languageModel, embedders?.embedder ?? null, logger).catch(async (error) => {
    await languageModel?.close();
    await stores.client.close();
    throw error;
  });
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
    retriever,
    llm,
    followUpRewriter,
    generator: createExtractiveGenerator({
      embedder: embedders?.embedder ?? null,
      logger: logger.child({ component: "extractive-generator" }),
    }),
    linkForCitation: ({ documentId, page }) => linkSigner.signDocumentUrl({ documentId, page }),
    pageTexts: (documentId) => catalog.getPages(documentId),
    documentPassages: (documentId) => catalog.listChunks(documentId),
    ...(embedders?.embedder ? { labelMeaning: createLabelMeaning(embedders.embedder) } : {}),
    logger,
  });

  const answerLibrary = new ApprovedAnswerLibrary({
    store: createSqlApprovedAnswerStore(stores.client),
    embedder: embedders?.embedder ?? null,
    threshold: config.approvedAnswers.threshold,
    logger: logger.child({ component: "answer-library" }),
  });
  const chatAnswers = leadWithApprovedAnswers(answers, answerLibrary, logger.child({ component: "answer-library" }));
  // People's questions are counted as interactive; questionnaire rows use the same pipeline uncounted and wait their turn.
  // Rows ask the approved answers themselves (and say so in their status), so they take the pipeline without the lead.
  const interactivePriority = createInteractivePriority({ maxWaitMs: QUESTIONNAIRE_MAX_WAIT_MS });
  const questionnaires = createQuestionnaireService({
    client: stores.client,
    answerQuestion: (question, context) => answers.answerQuestion(question, context),
    priority: interactivePriority,
    settings: config.questionnaire,
    extraSpaceIds: config.librarySpaceId ? [config.librarySpaceId] : [],
    approvedAnswers: options.approvedAnswers ?? answerLibrary,
    logger,
  });
  const core: FolioCore = {
    answerQuestion: (question, context) =>
      countAsInteractive(interactivePriority, chatAnswers.answerQuestion(question, context)),
    approvedAnswers: answerLibrary,
    ingestFile: (input) => ingestion.ingestFile(input),
    // A document still being indexed (or left by an interrupted upload) is nobody's to see yet.
    listDocuments: async (spaceId) =>
      (await catalog.listDocuments(spaceId)).filter((document) => document.status === "ready"),
    getDocument: (documentId) => catalog.getDocument(documentId),
    async deleteDocument(documentId) {
      const document = await catalog.getDocument(documentId);
      await vectorIndex.deleteByDocument(documentId);
      const deleted = await catalog.deleteDocument(documentId);
      if (deleted && document) documentEvents.publish({ type: "removed", spaceId: document.spaceId, documentId });
      return deleted;
    },
    markEventProcessed: (eventId) => catalog.markEventProcessed(eventId),
    releaseEvent: (eventId) => catalog.releaseEvent(eventId),
    async recordFeedback(input) {
      await catalog.addFeedback(input);
    },
    signedDocumentUrl: ({ documentId, page }) => linkSigner.signDocumentUrl({ documentId, page: page ?? undefined }),
    questionnaires,
  };
  const checkReadiness = createReadinessProbe(
    buildDependencyChecks({
      catalog,
      vectorIndex,
      embedder: embedders?.embedder ?? null,
      languageModel,
      llm: config.llm,
    }),
  );

  return {
    core,
    catalog,
    vectorIndex,
    retriever,
    retrievalMode,
    embedder,
    reranker,
    languageModel,
    answerLibrary,
    documentAnswers: answers,
    ingestion,
    documentEvents,
    meaningIndexer,
    sparseVectors,
    linkSigner,
    questionnaires,
    interactivePriority,
    config,
    metrics,
    coreFor: (adapter) => observeCore(core, metrics, adapter),
    checkReadiness,
    async isReady() {
      return (await checkReadiness()).ready;
    },
    async close() {
      await questionnaires.close();
      stopSweepingInterruptedIngestion();
      // Before the stores close: an embedding cut off here resumes at the next start.
      await meaningIndexer?.close();
      await closeParseWorkers();
      await vectorIndex.close();
      await catalog.close();
      await stores.client.close();
      await languageModel?.close();
      await inference.close();
    },
  };
}

/**
 * The LLM side of answering, when a model is configured: its prompts are read now (a missing file
 * fails at start, not at the first question), and its drafts are verified with the embedder. Without
 * an embedder (keyword-only set-ups) a draft cannot be checked, so answers stay extractive.
 */
async function answerWithLanguageModel(
  model: LanguageModel | null,
  embedder: Embedder | null,
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
    generator: createLlmGenerator({ model, prompts, logger: logger.child({ component: "llm-generator" }) }),
    embedder,
  };
}
