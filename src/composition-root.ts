/**
 * The one place that builds Folio from configuration: stores, ingestion, retrieval, answering and
 * links, wired into the FolioCore that adapters and the CLI use. Nothing else constructs these.
 */
import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../ingestion/limits.js";
import { closeParseWorkers, processFileInWorker } from "../ingestion/run-in-worker.js";
import { createAnswerService } from "./answer/answer-question.js";
import { createExtractiveGenerator } from "./answer/extractive-generator.js";
import { describeStorage, type FolioConfig } from "./config/config.js";
import { FolioError } from "./errors.js";
import type { FolioCore } from "./folio-core.js";
import { createIngestionService, type IngestionService } from "./ingest/ingest-file.js";
import { createSparseVectorMaintainer, type SparseVectorMaintainer } from "./ingest/sparse-vector-maintainer.js";
import { resolveLinkSecret } from "./links/link-secret.js";
import { createLinkSigner } from "./links/signed-links.js";
import type { Logger } from "./logger.js";
import type { Retriever } from "./retrieval/retriever.js";
import { createSparseRetriever } from "./retrieval/sparse-retriever.js";
import type { Catalog } from "./stores/catalog.js";
import { openStores } from "./stores/open-stores.js";
import type { VectorIndex } from "./stores/vector-index.js";

export type Folio = {
  core: FolioCore;
  catalog: Catalog;
  vectorIndex: VectorIndex;
  retriever: Retriever;
  ingestion: IngestionService;
  sparseVectors: SparseVectorMaintainer;
  linkSigner: ReturnType<typeof createLinkSigner>;
  config: FolioConfig;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
};

/** Dimensions of the default dense embedder (bge-small-en-v1.5); dense retrieval arrives later. */
const DENSE_DIMENSIONS = 384;

export async function createFolio(config: FolioConfig, logger: Logger): Promise<Folio> {
  const stores = await openStores(
    config.storage.kind === "embedded"
      ? { mode: "embedded", dataDir: path.join(config.dataDir, "db") }
      : { mode: "postgres", databaseUrl: config.storage.databaseUrl },
    { denseDimensions: DENSE_DIMENSIONS, logger },
  );
  const { catalog } = stores;
  const vectorIndex = stores.vectorIndex;
  if (!vectorIndex) {
    await stores.client.close();
    throw new FolioError(
      "vector_store_missing",
      config.qdrant
        ? "The Qdrant vector index is not built yet — use a PostgreSQL server with the pgvector extension, or unset DATABASE_URL for the embedded default."
        : "This PostgreSQL server has no pgvector extension — install pgvector on it, or set QDRANT_URL to keep vectors in Qdrant.",
    );
  }
  logger.info({ storage: describeStorage(config) }, "storage ready");

  const tokenizerDirectory = path.join(config.modelsDir, config.embedModel);
  const sparseVectors = createSparseVectorMaintainer({ catalog, vectorIndex, bm25: config.bm25, logger });
  const ingestion = createIngestionService({
    catalog,
    vectorIndex,
    sparseVectors,
    bm25: config.bm25,
    logger,
    processFile: ({ bytes, fileName, signal }) =>
      processFileInWorker({
        bytes,
        fileName,
        limits: DEFAULT_PARSE_LIMITS,
        chunking: { ...config.chunking, tokenizerDirectory },
        signal,
      }),
  });
  const retriever = createSparseRetriever({ catalog, vectorIndex });
  const linkSecret = await resolveLinkSecret({ configured: config.linkSecret ?? undefined, dataDir: config.dataDir });
  const linkSigner = createLinkSigner({
    secret: linkSecret,
    publicUrl: config.publicUrl,
    ttlSeconds: config.linkTtlSeconds,
  });
  const answers = createAnswerService({
    retriever,
    generator: createExtractiveGenerator(),
    linkForCitation: ({ documentId, page }) => linkSigner.signDocumentUrl({ documentId, page }),
    pageTexts: (documentId) => catalog.getPages(documentId),
    logger,
  });

  const core: FolioCore = {
    answerQuestion: (question, context) => answers.answerQuestion(question, context),
    ingestFile: (input) => ingestion.ingestFile(input),
    listDocuments: (spaceId) => catalog.listDocuments(spaceId),
    getDocument: (documentId) => catalog.getDocument(documentId),
    async deleteDocument(documentId) {
      await vectorIndex.deleteByDocument(documentId);
      return catalog.deleteDocument(documentId);
    },
    markEventProcessed: (eventId) => catalog.markEventProcessed(eventId),
    releaseEvent: (eventId) => catalog.releaseEvent(eventId),
    async recordFeedback(input) {
      await catalog.addFeedback(input);
    },
    signedDocumentUrl: ({ documentId, page }) => linkSigner.signDocumentUrl({ documentId, page: page ?? undefined }),
  };

  return {
    core,
    catalog,
    vectorIndex,
    retriever,
    ingestion,
    sparseVectors,
    linkSigner,
    config,
    async isReady() {
      try {
        await catalog.getSpace("readiness-probe");
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await closeParseWorkers();
      await vectorIndex.close();
      await catalog.close();
      await stores.client.close();
    },
  };
}
