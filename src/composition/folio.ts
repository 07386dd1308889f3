/**
 * What the composition root builds (Folio: the core adapters use, and the parts the CLI, evaluations and
 * the HTTP server reach) and the options it is built with. Types only, so the assembly's parts and their
 * callers can name them without importing the assembly.
 */
import type { AnswerService } from "../answer/answer-question.js";
import type { ApprovedAnswerSource } from "../answer/approved-answer-source.js";
import type { ApprovedAnswerLibrary } from "../answer-library/approved-answer-library.js";
import type { FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import type { FolioCore } from "../folio-core.js";
import type { DocumentEvents } from "../ingest/document-events.js";
import type { IngestionService } from "../ingest/ingest-file.js";
import type { MeaningIndexer } from "../ingest/meaning-indexer.js";
import type { ReadDocumentBlocks } from "../ingest/process-file.js";
import type { SparseVectorMaintainer } from "../ingest/sparse-vector-maintainer.js";
import type { LinkSigner } from "../links/signed-links.js";
import type { LanguageModel } from "../llm/language-model.js";
import type { FolioMetrics } from "../observability/metrics.js";
import type { ReadinessReport } from "../observability/readiness.js";
import type { InteractivePriority } from "../questionnaire/jobs/interactive-priority.js";
import type { QuestionnaireService } from "../questionnaire/questionnaire-service.js";
import type { Reranker } from "../rerank/reranker.js";
import type { RetrievalMode, Retriever } from "../retrieval/retriever.js";
import type { Catalog } from "../stores/catalog.js";
import type { Stores } from "../stores/open-stores.js";
import type { VectorIndex } from "../stores/vector-index.js";

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
  /** A stored file read again in a worker, for the source viewer's sections page (Markdown, HTML, Word, text). */
  readDocumentBlocks?: ReadDocumentBlocks;
  linkSigner: LinkSigner;
  /** Questionnaire jobs: read, answered in the background behind interactive questions, filled copies. */
  questionnaires: QuestionnaireService;
  /** Counts interactive questions, so questionnaires wait their turn (src/questionnaire/jobs/interactive-priority.ts). */
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
