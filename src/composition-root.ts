/**
 * The one place that builds Folio from configuration: stores, ingestion, retrieval, answering and
 * links, wired into the FolioCore that adapters and the CLI use. Nothing else constructs these. Each
 * part is assembled in src/composition/ (models, checked stores, ingestion, retrieval, answering,
 * approved answers and questionnaires, the core); this module puts them together in order and owns
 * their closing.
 */
import { closeParseWorkers } from "../ingestion/run-in-worker.js";
import { assembleAnswering } from "./composition/assemble-answering.js";
import { assembleIngestion } from "./composition/assemble-ingestion.js";
import { assembleQuestionnaires } from "./composition/assemble-questionnaires.js";
import { assembleRetrieval } from "./composition/assemble-retrieval.js";
import { createCore } from "./composition/create-core.js";
import type { Folio, FolioOptions } from "./composition/folio.js";
import { chooseTokenizerDirectory, loadEmbedder, loadReranker } from "./composition/load-models.js";
import { openCheckedStores } from "./composition/open-checked-stores.js";
import type { FolioConfig } from "./config/config.js";
import { createInferenceClient, type InferenceClient } from "./inference/inference-client.js";
import { resolveLinkSecret } from "./links/link-secret.js";
import { createLinkSigner } from "./links/signed-links.js";
import type { Logger } from "./logger.js";
import { buildDependencyChecks } from "./observability/dependency-checks.js";
import { noMetrics } from "./observability/metrics.js";
import { observeCore } from "./observability/observed-core.js";
import { createReadinessProbe } from "./observability/readiness.js";
import { securePrivateDataDirectory } from "./stores/private-data-directory.js";

export type { Folio, FolioOptions } from "./composition/folio.js";

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

async function assembleFolio(
  config: FolioConfig,
  logger: Logger,
  options: FolioOptions,
  inference: InferenceClient,
): Promise<Folio> {
  const embedders = await loadEmbedder(config, options, inference, logger);
  const embedder = embedders?.indexingEmbedder ?? null;
  const questionEmbedder = embedders?.embedder ?? null;
  const reranker = await loadReranker(config, inference, logger);
  const stores = await openCheckedStores(config, options, embedder, logger);
  const { catalog, vectorIndex, client } = stores;
  const tokenizerDirectory = await chooseTokenizerDirectory(config);
  const indexing = await assembleIngestion({ config, catalog, vectorIndex, embedder, tokenizerDirectory, logger });
  const { retriever, retrievalMode } = await assembleRetrieval({
    config,
    catalog,
    vectorIndex,
    embedder,
    reranker,
    tokenizerDirectory,
    logger,
  });
  const linkSecret = await resolveLinkSecret({ configured: config.linkSecret ?? undefined, dataDir: config.dataDir });
  const linkSigner = createLinkSigner({
    secret: linkSecret,
    publicUrl: config.publicUrl,
    ttlSeconds: config.linkTtlSeconds,
  });
  const metrics = options.metrics ?? noMetrics;
  const { languageModel, answers } = await assembleAnswering({
    config,
    client,
    catalog,
    retriever,
    embedder: questionEmbedder,
    linkSigner,
    metrics,
    logger,
  });
  const library = assembleQuestionnaires({ config, options, client, answers, embedder: questionEmbedder, logger });
  const { questionnaires } = library;
  const core = createCore({ catalog, vectorIndex, ...indexing, linkSigner, ...library });
  const checkReadiness = createReadinessProbe(
    buildDependencyChecks({ catalog, vectorIndex, embedder: questionEmbedder, languageModel, llm: config.llm }),
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
    answerLibrary: library.answerLibrary,
    documentAnswers: answers,
    ingestion: indexing.ingestion,
    documentEvents: indexing.documentEvents,
    meaningIndexer: indexing.meaningIndexer,
    sparseVectors: indexing.sparseVectors,
    readDocumentBlocks: indexing.readDocumentBlocks,
    linkSigner,
    questionnaires,
    interactivePriority: library.interactivePriority,
    config,
    metrics,
    coreFor: (adapter) => observeCore(core, metrics, adapter),
    checkReadiness,
    async isReady() {
      return (await checkReadiness()).ready;
    },
    async close() {
      await questionnaires.close();
      indexing.stopSweeping();
      // Before the stores close: an embedding cut off here resumes at the next start.
      await indexing.meaningIndexer?.close();
      await closeParseWorkers();
      await vectorIndex.close();
      await catalog.close();
      await client.close();
      await languageModel?.close();
      await inference.close();
    },
  };
}
