/**
 * The shape of Folio's configuration, as loadConfig (load-config.ts) returns it: what each part of Folio
 * is built with. The settings a lower layer reads are declared there (the LLM's in src/llm/, the stores' in
 * src/stores/, model downloads' in src/models/) and gathered here.
 */
import type { LlmConfig, LlmRuntimeConfig } from "../llm/llm-settings.js";
import type { LogLevel } from "../logger.js";
import type { ModelDownloadConfig } from "../models/model-download-settings.js";
import type { RetrievalMode } from "../retrieval/retriever.js";
import type { EmbeddedDenseSearchConfig, QdrantConfig, StorageMode } from "../stores/store-settings.js";
import type { ConsoleAccess } from "./config-variables.js";

export type SlackConfig = {
  botToken: string;
  signingSecret: string | null;
  appToken: string | null;
  apiUrl: string | null;
  adminUserIds: string[];
};

export type TeamsConfig = {
  appId: string;
  appPassword: string;
  tenantId: string | null;
  /** MICROSOFT_APP_TYPE: single-tenant (the default; needs the tenant id) or multi-tenant. */
  appType: "single-tenant" | "multi-tenant";
  /** FOLIO_TEAMS_ADMINS: Entra object ids allowed to `forget` any document. */
  adminUserIds: string[];
};

export type FolioConfig = {
  dataDir: string;
  modelsDir: string;
  /** The embedding model folder in modelsDir; null (FOLIO_EMBED_MODEL=none) turns dense retrieval off. */
  embedModel: string | null;
  /** A cross-encoder folder in modelsDir; null leaves reranking off. */
  rerankModel: string | null;
  modelDownloads: ModelDownloadConfig;
  retrieval: RetrievalConfig;
  /** ONNX Runtime threads for the embedder and reranker; 0 lets the runtime choose. */
  inferenceThreads: number;
  storage: StorageMode;
  /** How the embedded store searches dense vectors (FOLIO_DENSE_*); unused with Qdrant or PostgreSQL. */
  denseSearch: EmbeddedDenseSearchConfig;
  /** Vectors in Qdrant instead of pgvector; `collection` from QDRANT_COLLECTION (default folio_chunks). */
  qdrant: QdrantConfig | null;
  llm: LlmConfig;
  llmRuntime: LlmRuntimeConfig;
  /** FOLIO_LLM_REWRITE_TIMEOUT_SECONDS: the model's time to make a follow-up standalone; 0: rules only. */
  llmRewriteTimeoutSeconds: number;
  /** FOLIO_LLM_SOURCE_TOKENS: tokens of sources in the model's prompt; null: by where the prompt is read (llm-generator.ts). */
  llmSourceTokens: number | null;
  slack: SlackConfig | null;
  teams: TeamsConfig | null;
  port: number;
  /** HOST: the address `folio serve` listens on; null lets it choose (cli/commands/listen-host.ts). */
  host: string | null;
  publicUrl: string;
  linkSecret: string | null;
  linkTtlSeconds: number;
  librarySpaceId: string | null;
  /** Who may use the web console: this machine only (default), anyone who reaches PORT, or nobody. */
  consoleAccess: ConsoleAccess;
  /**
   * FOLIO_CONSOLE_ALLOWED_HOSTS: host names (lower case, no port) the console answers to in `open` mode,
   * besides loopback names, IP addresses and FOLIO_PUBLIC_URL's host; anything else is DNS rebinding.
   */
  consoleAllowedHosts: string[];
  logLevel: LogLevel;
  /** How `folio serve` behaves under load and at shutdown. */
  operations: OperationsConfig;
  chunking: { maxTokens: number; overlapTokens: number };
  bm25: { k1: number; b: number };
  /** Questionnaire limits and pace (src/questionnaire/questionnaire-service.ts). */
  questionnaire: {
    maxRows: number;
    maxBytes: number;
    concurrency: number;
    retentionDays: number;
    /** FOLIO_QUESTIONNAIRE_MAX_RUNNING: jobs one process answers at once (more wait in line). */
    maxRunningJobs: number;
    /** FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE: jobs of one space answered at once. */
    maxRunningJobsPerSpace: number;
    /** FOLIO_QUESTIONNAIRE_MAX_RECEIVING: questionnaire files received and read at once over HTTP (more get 429). */
    maxReceiving: number;
    /** FOLIO_QUESTIONNAIRE_MAX_COPIES: filled copies written at once (more downloads get 429). */
    maxWritingCopies: number;
  };
  /**
   * FOLIO_APPROVED_ANSWER_THRESHOLD: the embedding similarity at which an approved answer is reused
   * (src/answer-library/approved-answer-threshold.ts; calibrated for bge-small-en-v1.5).
   */
  approvedAnswers: { threshold: number };
};

export type OperationsConfig = {
  /** FOLIO_MAX_CONCURRENT_QUESTIONS: console questions answered at once; more get 429 busy with Retry-After. */
  maxConcurrentQuestions: number;
  /** FOLIO_SHUTDOWN_GRACE_SECONDS: how long SIGTERM waits for answers and uploads in progress. */
  shutdownGraceSeconds: number;
  /**
   * FOLIO_PARSE_MEMORY_MB: how much one file's parse may grow the process's memory before the watchdog
   * stops it (`parse_memory_exceeded`); the bound on what an upload costs (docs/security.md).
   */
  parseMemoryMb: number;
  /** FOLIO_PARSE_TIMEOUT_SECONDS: one file's parse time. */
  parseTimeoutSeconds: number;
};

/** Retrieval tuning; see src/retrieval/hybrid-retriever.ts for what each number does. */
export type RetrievalConfig = {
  /** Null: hybrid, or hybrid+rerank when a reranker is configured. */
  mode: RetrievalMode | null;
  candidates: number;
  rrfK: number;
  denseWeight: number;
  sparseWeight: number;
  rerankCandidates: number;
  /** FOLIO_DOCUMENT_TARGETING: prefer documents whose titles the question names (default on). */
  documentTargeting: boolean;
  /** FOLIO_STATEMENT_TARGETING: prefer the financial statement a question names (default on). */
  statementTargeting: boolean;
};
