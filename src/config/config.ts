/**
 * Reads Folio's configuration from the environment, validates every variable at once, and resolves
 * the storage mode. Only the composition root and the CLI call this; everything else takes options.
 */

import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { DEFAULT_APPROVED_ANSWER_THRESHOLD } from "../answer-library/approved-answer-threshold.js";
import { FolioError } from "../errors.js";
import { LLAMA_GPU_SETTINGS, type LlamaGpuSetting } from "../llm/llama-gpu-setting.js";
import type { LogLevel } from "../logger.js";
import {
  type HubFileReference,
  hubFileLocalPath,
  isHubReference,
  parseHubFileReference,
} from "../models/hub-file-reference.js";
import { DEFAULT_RETRIEVAL_SETTINGS as RETRIEVAL_DEFAULTS } from "../retrieval/hybrid-retriever.js";
import { RETRIEVAL_MODES, type RetrievalMode } from "../retrieval/retriever.js";
import {
  DEFAULT_APPROXIMATE_INDEX_SETTINGS,
  DENSE_QUANTIZATIONS,
  type DenseQuantization,
} from "../stores/approximate-dense-index.js";
import {
  DEFAULT_DENSE_SEARCH_SETTINGS,
  DENSE_INDEX_MODES,
  type DenseIndexMode,
} from "../stores/in-memory-space-index.js";
import { DEFAULT_QDRANT_COLLECTION } from "../stores/qdrant-collection.js";
import { DEFAULT_SETTLING_OPTIONS, type SettlingOptions } from "../stores/qdrant-collection-readiness.js";
import {
  DEFAULT_QDRANT_COLLECTION_SETTINGS as QDRANT_DEFAULTS,
  QDRANT_QUANTIZATIONS,
  type QdrantCollectionSettings,
} from "../stores/qdrant-collection-settings.js";

export type StorageMode =
  /** PGlite + pgvector under dataDir: nothing to install or run. */
  | { kind: "embedded"; dataDir: string }
  /** PostgreSQL catalog; vectors in pgvector when the server has it, else in Qdrant. */
  | { kind: "postgres"; databaseUrl: string };

export type EmbeddedDenseSearchConfig = {
  /** FOLIO_DENSE_INDEX: auto (exact up to the threshold, approximate past it), approximate, exact. */
  mode: DenseIndexMode;
  /** FOLIO_DENSE_EXACT_MAX_CHUNKS: embedded chunks a space may hold before auto switches it to HNSW. */
  exactMaxChunks: number;
  /** FOLIO_DENSE_QUANTIZATION: precision of the vectors inside the approximate index. */
  quantization: DenseQuantization;
  /** FOLIO_DENSE_EF_SEARCH: candidates the approximate index considers per query (higher: better recall, slower). */
  expansionSearch: number;
};

export type LlmConfig =
  | { kind: "none" }
  | { kind: "local"; modelPath: string }
  | { kind: "openai-compatible"; baseUrl: string; model: string; apiKey: string | null };

/** How the language model runs, whichever kind is configured (see src/llm/). */
export type LlmRuntimeConfig = {
  /** FOLIO_LLM_GPU: node-llama-cpp's backend; "auto" uses CUDA when present and logs what it chose. */
  gpu: LlamaGpuSetting;
  /** FOLIO_LLM_THREADS: CPU threads for node-llama-cpp; 0 lets it choose. */
  threads: number;
  /** FOLIO_LLM_PARALLEL: questions decoded together; null: 4 on a GPU, 1 on the CPU. */
  parallel: number | null;
  /** FOLIO_LLM_QUEUE: questions that may wait for a free sequence; more are told the model is busy. */
  queueLimit: number;
  /** FOLIO_LLM_TIMEOUT_SECONDS: one answer's generation time. */
  timeoutSeconds: number;
};

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
  slack: SlackConfig | null;
  teams: TeamsConfig | null;
  port: number;
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
  };
  /**
   * FOLIO_APPROVED_ANSWER_THRESHOLD: the embedding similarity at which an approved answer is reused
   * (src/answer-library/approved-answer-threshold.ts; calibrated for bge-small-en-v1.5).
   */
  approvedAnswers: { threshold: number };
};

export type QdrantConfig = {
  url: string;
  apiKey: string | null;
  collection: string;
  /** A new collection's sharding, replication, on-disk storage and quantization (QDRANT_SHARD_NUMBER, …). */
  settings: QdrantCollectionSettings;
  /** QDRANT_START_TIMEOUT_SECONDS: how long start-up waits for the collection's shards on a cluster. */
  settling: SettlingOptions;
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

/** Where missing models come from, and whether Folio may fetch them at all. */
export type ModelDownloadConfig = {
  /** HF_ENDPOINT: the hub or a mirror speaking its protocol. */
  hubEndpoint: string;
  /** HF_TOKEN, for private or gated repositories; sent to the hub only. */
  hubToken: string | null;
  /** FOLIO_OFFLINE: never download; a missing model is a start-up error. */
  offline: boolean;
  /** FOLIO_LLM_MODEL when it names a hub file (hf:owner/repo/file.gguf); null otherwise. */
  llmFile: HubFileReference | null;
};

export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co";

export const CONSOLE_ACCESS = ["local", "open", "off"] as const;
export type ConsoleAccess = (typeof CONSOLE_ACCESS)[number];

export type Environment = Record<string, string | undefined>;

/** One problem with one variable, phrased so the reader knows how to fix it. */
export type ConfigProblem = { variable: string; problem: string };

export class ConfigError extends FolioError {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    const summary = problems.map((entry) => `${entry.variable}: ${entry.problem}`).join("; ");
    super("invalid_configuration", `Invalid configuration — ${summary}`, { details: { problems } });
    this.name = "ConfigError";
    this.problems = problems;
  }
}

const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Collects problems instead of throwing at the first, so one run reports every bad variable. */
class EnvironmentReader {
  readonly problems: ConfigProblem[] = [];

  constructor(private readonly environment: Environment) {}

  text(name: string): string | null {
    const value = this.environment[name]?.trim();
    return value ? value : null;
  }

  /** A comma-separated list of host names (no scheme, port or path), lower-cased; a bad entry is a problem. */
  hostList(name: string): string[] {
    const value = this.text(name);
    if (value === null) return [];
    const hosts = value
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry.length > 0);
    const bad = hosts.filter((host) => !HOST_NAME.test(host));
    if (bad.length > 0) {
      this.problems.push({
        variable: name,
        problem: `${bad.map((host) => `"${host}"`).join(", ")} must be host names only, comma-separated (example: folio.corp.example,folio)`,
      });
    }
    return hosts.filter((host) => HOST_NAME.test(host));
  }

  url(name: string, protocols: string[]): string | null {
    const value = this.text(name);
    if (value === null) return null;
    try {
      const parsed = new URL(value);
      if (!protocols.includes(parsed.protocol)) {
        this.problems.push({
          variable: name,
          problem: `"${value}" must start with ${protocols.map((protocol) => `${protocol}//`).join(" or ")}`,
        });
        return null;
      }
      return value.replace(/\/+$/, "");
    } catch {
      this.problems.push({
        variable: name,
        problem: `"${value}" is not a valid URL (example: ${protocols[0]}//host:port)`,
      });
      return null;
    }
  }

  integer(name: string, fallback: number, range: { min: number; max: number }): number {
    const value = this.text(name);
    if (value === null) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < range.min || parsed > range.max) {
      this.problems.push({
        variable: name,
        problem: `"${value}" must be a whole number from ${range.min} to ${range.max}`,
      });
      return fallback;
    }
    return parsed;
  }

  decimal(name: string, fallback: number, range: { min: number; max: number }): number {
    const value = this.text(name);
    if (value === null) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < range.min || parsed > range.max) {
      this.problems.push({ variable: name, problem: `"${value}" must be a number from ${range.min} to ${range.max}` });
      return fallback;
    }
    return parsed;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.text(name);
    if (value === null) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push({ variable: name, problem: `"${value}" must be one of ${allowed.join(", ")}` });
      return fallback;
    }
    return value as T;
  }

  flag(name: string, fallback: boolean): boolean {
    const value = this.text(name);
    if (value === null) return fallback;
    if (["1", "true", "yes", "on"].includes(value.toLowerCase())) return true;
    if (["0", "false", "no", "off"].includes(value.toLowerCase())) return false;
    this.problems.push({ variable: name, problem: `"${value}" must be 1 or 0 (true/false, yes/no)` });
    return fallback;
  }

  requireTogether(names: string[], purpose: string): void {
    const present = names.filter((name) => this.text(name) !== null);
    if (present.length > 0 && present.length < names.length) {
      const missing = names.filter((name) => !present.includes(name));
      this.problems.push({
        variable: missing.join(", "),
        problem: `must be set together with ${present.join(", ")} for ${purpose}`,
      });
    }
  }
}

/** Validates the environment; throws ConfigError listing every bad variable. */
export function loadConfig(environment: Environment, workingDirectory = process.cwd()): FolioConfig {
  const reader = new EnvironmentReader(environment);
  const resolvePath = (value: string) => path.resolve(workingDirectory, value);

  const dataDir = resolvePath(reader.text("FOLIO_DATA_DIR") ?? ".folio");
  const modelsDir = resolvePath(reader.text("FOLIO_MODELS_DIR") ?? "models");
  const databaseUrl = reader.url("DATABASE_URL", ["postgres:", "postgresql:"]);
  const qdrantUrl = reader.url("QDRANT_URL", ["http:", "https:"]);
  const qdrantCollection = reader.text("QDRANT_COLLECTION") ?? DEFAULT_QDRANT_COLLECTION;
  if (!/^[A-Za-z0-9_-]{1,255}$/.test(qdrantCollection)) {
    reader.problems.push({
      variable: "QDRANT_COLLECTION",
      problem: `"${qdrantCollection}" must be 1 to 255 letters, digits, "_" or "-" (a Qdrant collection name)`,
    });
  }
  const port = reader.integer("PORT", 3000, { min: 0, max: 65_535 });
  const publicUrl = reader.url("FOLIO_PUBLIC_URL", ["http:", "https:"]) ?? `http://localhost:${port}`;

  const linkSecret = reader.text("FOLIO_LINK_SECRET");
  if (linkSecret !== null && linkSecret.length < 32) {
    reader.problems.push({
      variable: "FOLIO_LINK_SECRET",
      problem:
        "must be at least 32 characters (generate one with `openssl rand -hex 32`), or unset it to let Folio generate one",
    });
  }

  reader.requireTogether(["LLM_BASE_URL", "LLM_MODEL"], "an OpenAI-compatible LLM server");
  const llmBaseUrl = reader.url("LLM_BASE_URL", ["http:", "https:"]);
  const llmModel = reader.text("LLM_MODEL");
  const localModel = reader.text("FOLIO_LLM_MODEL");
  const llmFile = localModel === null ? null : readHubReference(reader, "FOLIO_LLM_MODEL", localModel);
  let llm: LlmConfig = { kind: "none" };
  if (llmBaseUrl && llmModel) {
    llm = { kind: "openai-compatible", baseUrl: llmBaseUrl, model: llmModel, apiKey: reader.text("LLM_API_KEY") };
  } else if (localModel) {
    // A hub reference is loaded from where `folio models pull llm` puts it.
    llm = { kind: "local", modelPath: llmFile ? hubFileLocalPath(modelsDir, llmFile) : resolvePath(localModel) };
  }

  const slackBotToken = reader.text("SLACK_BOT_TOKEN");
  const slackSigningSecret = reader.text("SLACK_SIGNING_SECRET");
  const slackAppToken = reader.text("SLACK_APP_TOKEN");
  const slackApiUrl = reader.url("SLACK_API_URL", ["http:", "https:"]);
  let slack: SlackConfig | null = null;
  if (slackBotToken) {
    if (!slackSigningSecret && !slackAppToken) {
      reader.problems.push({
        variable: "SLACK_SIGNING_SECRET",
        problem: "set it (HTTP mode) or SLACK_APP_TOKEN (Socket Mode) together with SLACK_BOT_TOKEN",
      });
    }
    if (!slackBotToken.startsWith("xoxb-")) {
      reader.problems.push({ variable: "SLACK_BOT_TOKEN", problem: "must be a bot token starting with xoxb-" });
    }
    if (slackAppToken && !slackAppToken.startsWith("xapp-")) {
      reader.problems.push({ variable: "SLACK_APP_TOKEN", problem: "must be an app-level token starting with xapp-" });
    }
    slack = {
      botToken: slackBotToken,
      signingSecret: slackSigningSecret,
      appToken: slackAppToken,
      apiUrl: slackApiUrl,
      adminUserIds: (reader.text("FOLIO_SLACK_ADMINS") ?? "")
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    };
  } else if (slackSigningSecret || slackAppToken) {
    reader.problems.push({
      variable: "SLACK_BOT_TOKEN",
      problem: "is required when SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is set",
    });
  }

  reader.requireTogether(["MICROSOFT_APP_ID", "MICROSOFT_APP_PASSWORD"], "Microsoft Teams");
  const teamsAppId = reader.text("MICROSOFT_APP_ID");
  const teamsPassword = reader.text("MICROSOFT_APP_PASSWORD");
  const teamsTenantId = reader.text("MICROSOFT_APP_TENANT_ID");
  // Azure spells it SingleTenant / MultiTenant; single-tenant and multi_tenant are read the same.
  const teamsAppType = (reader.text("MICROSOFT_APP_TYPE") ?? "SingleTenant").toLowerCase().replace(/[^a-z]/g, "");
  if (teamsAppType !== "singletenant" && teamsAppType !== "multitenant") {
    reader.problems.push({
      variable: "MICROSOFT_APP_TYPE",
      problem: "must be SingleTenant or MultiTenant (as in the Azure Bot registration)",
    });
  } else if (teamsAppId && teamsAppType === "singletenant" && !teamsTenantId) {
    reader.problems.push({
      variable: "MICROSOFT_APP_TENANT_ID",
      problem:
        "is required for a single-tenant bot (the default): set your Entra tenant id, or MICROSOFT_APP_TYPE=MultiTenant",
    });
  }
  const teams: TeamsConfig | null =
    teamsAppId && teamsPassword
      ? {
          appId: teamsAppId,
          appPassword: teamsPassword,
          tenantId: teamsTenantId,
          appType: teamsAppType === "multitenant" ? "multi-tenant" : "single-tenant",
          adminUserIds: (reader.text("FOLIO_TEAMS_ADMINS") ?? "")
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        }
      : null;

  const config: FolioConfig = {
    dataDir,
    modelsDir,
    embedModel: embedModelSetting(reader.text("FOLIO_EMBED_MODEL")),
    rerankModel: reader.text("FOLIO_RERANK_MODEL"),
    modelDownloads: {
      hubEndpoint: reader.url("HF_ENDPOINT", ["http:", "https:"]) ?? DEFAULT_HUB_ENDPOINT,
      hubToken: reader.text("HF_TOKEN"),
      offline: reader.flag("FOLIO_OFFLINE", false),
      llmFile,
    },
    retrieval: {
      mode:
        reader.text("FOLIO_RETRIEVAL_MODE") === null
          ? null
          : reader.oneOf("FOLIO_RETRIEVAL_MODE", RETRIEVAL_MODES, "hybrid"),
      candidates: reader.integer("FOLIO_RETRIEVAL_CANDIDATES", RETRIEVAL_DEFAULTS.candidates, { min: 1, max: 1000 }),
      rrfK: reader.decimal("FOLIO_RRF_K", RETRIEVAL_DEFAULTS.fusion.k, { min: 0, max: 10_000 }),
      denseWeight: reader.decimal("FOLIO_RRF_DENSE_WEIGHT", RETRIEVAL_DEFAULTS.fusion.denseWeight, {
        min: 0,
        max: 100,
      }),
      sparseWeight: reader.decimal("FOLIO_RRF_SPARSE_WEIGHT", RETRIEVAL_DEFAULTS.fusion.sparseWeight, {
        min: 0,
        max: 100,
      }),
      rerankCandidates: reader.integer("FOLIO_RERANK_CANDIDATES", RETRIEVAL_DEFAULTS.rerankCandidates, {
        min: 1,
        max: 500,
      }),
      documentTargeting: reader.flag("FOLIO_DOCUMENT_TARGETING", true),
      statementTargeting: reader.flag("FOLIO_STATEMENT_TARGETING", true),
    },
    inferenceThreads: reader.integer("FOLIO_INFERENCE_THREADS", 0, { min: 0, max: 256 }),
    storage: databaseUrl ? { kind: "postgres", databaseUrl } : { kind: "embedded", dataDir },
    denseSearch: {
      mode: reader.oneOf("FOLIO_DENSE_INDEX", DENSE_INDEX_MODES, DEFAULT_DENSE_SEARCH_SETTINGS.mode),
      exactMaxChunks: reader.integer("FOLIO_DENSE_EXACT_MAX_CHUNKS", DEFAULT_DENSE_SEARCH_SETTINGS.exactMaxChunks, {
        min: 0,
        max: 100_000_000,
      }),
      quantization: reader.oneOf(
        "FOLIO_DENSE_QUANTIZATION",
        DENSE_QUANTIZATIONS,
        DEFAULT_APPROXIMATE_INDEX_SETTINGS.quantization,
      ),
      expansionSearch: reader.integer("FOLIO_DENSE_EF_SEARCH", DEFAULT_APPROXIMATE_INDEX_SETTINGS.expansionSearch, {
        min: 10,
        max: 10_000,
      }),
    },
    qdrant: qdrantUrl
      ? {
          url: qdrantUrl,
          apiKey: reader.text("QDRANT_API_KEY"),
          collection: qdrantCollection,
          settings: readQdrantCollectionSettings(reader),
          settling: {
            ...DEFAULT_SETTLING_OPTIONS,
            timeoutMs:
              reader.integer("QDRANT_START_TIMEOUT_SECONDS", DEFAULT_SETTLING_OPTIONS.timeoutMs / 1000, {
                min: 1,
                max: 3600,
              }) * 1000,
          },
        }
      : null,
    llm,
    llmRuntime: {
      gpu: reader.oneOf("FOLIO_LLM_GPU", LLAMA_GPU_SETTINGS, "auto"),
      threads: reader.integer("FOLIO_LLM_THREADS", 0, { min: 0, max: 256 }),
      parallel:
        reader.text("FOLIO_LLM_PARALLEL") === null
          ? null
          : reader.integer("FOLIO_LLM_PARALLEL", 1, { min: 1, max: 64 }),
      queueLimit: reader.integer("FOLIO_LLM_QUEUE", 16, { min: 0, max: 10_000 }),
      timeoutSeconds: reader.integer("FOLIO_LLM_TIMEOUT_SECONDS", 120, { min: 1, max: 3600 }),
    },
    llmRewriteTimeoutSeconds: reader.integer("FOLIO_LLM_REWRITE_TIMEOUT_SECONDS", 8, { min: 0, max: 600 }),
    slack,
    teams,
    port,
    publicUrl,
    linkSecret,
    linkTtlSeconds: reader.integer("FOLIO_LINK_TTL_SECONDS", 7 * 24 * 3600, { min: 60, max: 366 * 24 * 3600 }),
    librarySpaceId: reader.text("FOLIO_LIBRARY_SPACE"),
    consoleAccess: reader.oneOf("FOLIO_CONSOLE", CONSOLE_ACCESS, "local"),
    consoleAllowedHosts: reader.hostList("FOLIO_CONSOLE_ALLOWED_HOSTS"),
    logLevel: reader.oneOf("FOLIO_LOG_LEVEL", LOG_LEVELS, "info"),
    operations: {
      maxConcurrentQuestions: reader.integer("FOLIO_MAX_CONCURRENT_QUESTIONS", 16, { min: 1, max: 10_000 }),
      shutdownGraceSeconds: reader.integer("FOLIO_SHUTDOWN_GRACE_SECONDS", 25, { min: 0, max: 3600 }),
      parseMemoryMb: reader.integer("FOLIO_PARSE_MEMORY_MB", DEFAULT_PARSE_LIMITS.maxMemoryMb, {
        min: 256,
        max: 1_048_576,
      }),
    },
    chunking: {
      maxTokens: reader.integer("FOLIO_CHUNK_TOKENS", 512, { min: 32, max: 8192 }),
      overlapTokens: reader.integer("FOLIO_CHUNK_OVERLAP", 20, { min: 0, max: 1024 }),
    },
    bm25: {
      k1: reader.decimal("FOLIO_BM25_K1", 0.9, { min: 0, max: 10 }),
      b: reader.decimal("FOLIO_BM25_B", 0.4, { min: 0, max: 1 }),
    },
    questionnaire: {
      maxRows: reader.integer("FOLIO_QUESTIONNAIRE_MAX_ROWS", 5_000, { min: 1, max: 1_000_000 }),
      maxBytes: reader.integer("FOLIO_QUESTIONNAIRE_MAX_MB", 20, { min: 1, max: 1024 }) * 1024 * 1024,
      concurrency: reader.integer("FOLIO_QUESTIONNAIRE_CONCURRENCY", 2, { min: 1, max: 64 }),
      retentionDays: reader.integer("FOLIO_QUESTIONNAIRE_RETENTION_DAYS", 7, { min: 0, max: 3650 }),
      maxRunningJobs: reader.integer("FOLIO_QUESTIONNAIRE_MAX_RUNNING", 2, { min: 1, max: 1_000 }),
      maxRunningJobsPerSpace: reader.integer("FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE", 1, { min: 1, max: 1_000 }),
      maxReceiving: reader.integer("FOLIO_QUESTIONNAIRE_MAX_RECEIVING", 4, { min: 1, max: 1_000 }),
    },
    approvedAnswers: {
      threshold: reader.decimal("FOLIO_APPROVED_ANSWER_THRESHOLD", DEFAULT_APPROVED_ANSWER_THRESHOLD, {
        min: 0.5,
        max: 1,
      }),
    },
  };
  if (config.chunking.overlapTokens >= config.chunking.maxTokens) {
    reader.problems.push({ variable: "FOLIO_CHUNK_OVERLAP", problem: "must be smaller than FOLIO_CHUNK_TOKENS" });
  }

  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return config;
}

/** QDRANT_SHARD_NUMBER and the rest; a write consistency above the replication factor could never be met. */
function readQdrantCollectionSettings(reader: EnvironmentReader): QdrantCollectionSettings {
  const replicationFactor = reader.integer("QDRANT_REPLICATION_FACTOR", QDRANT_DEFAULTS.replicationFactor, {
    min: 1,
    max: 64,
  });
  const writeConsistencyFactor = reader.integer(
    "QDRANT_WRITE_CONSISTENCY_FACTOR",
    QDRANT_DEFAULTS.writeConsistencyFactor,
    { min: 1, max: 64 },
  );
  if (writeConsistencyFactor > replicationFactor) {
    reader.problems.push({
      variable: "QDRANT_WRITE_CONSISTENCY_FACTOR",
      problem: `${writeConsistencyFactor} copies can never acknowledge a write when QDRANT_REPLICATION_FACTOR is ${replicationFactor}; set it to ${replicationFactor} or less`,
    });
  }
  return {
    shardNumber: reader.integer("QDRANT_SHARD_NUMBER", QDRANT_DEFAULTS.shardNumber, { min: 1, max: 1024 }),
    replicationFactor,
    writeConsistencyFactor,
    onDiskVectors: reader.flag("QDRANT_ON_DISK_VECTORS", QDRANT_DEFAULTS.onDiskVectors),
    onDiskPayload: reader.flag("QDRANT_ON_DISK_PAYLOAD", QDRANT_DEFAULTS.onDiskPayload),
    quantization: reader.oneOf("QDRANT_QUANTIZATION", QDRANT_QUANTIZATIONS, QDRANT_DEFAULTS.quantization),
    oversampling: reader.decimal("QDRANT_OVERSAMPLING", QDRANT_DEFAULTS.oversampling, { min: 1, max: 16 }),
  };
}

export const DEFAULT_EMBED_MODEL = "bge-small-en-v1.5";

/** The default embedder unless set; "none" turns dense retrieval off (keyword search only). */
function embedModelSetting(value: string | null): string | null {
  if (value === null) return DEFAULT_EMBED_MODEL;
  return value.toLowerCase() === "none" ? null : value;
}

/** FOLIO_LLM_MODEL as a hub reference when it starts with hf:, else null (a plain path). */
function readHubReference(reader: EnvironmentReader, name: string, value: string): HubFileReference | null {
  if (!isHubReference(value)) return null;
  try {
    return parseHubFileReference(value);
  } catch (error) {
    reader.problems.push({ variable: name, problem: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** Where the index lives, in words, for the start-up log and `/readyz`. */
export function describeStorage(config: FolioConfig): string {
  const qdrant = config.qdrant ? `Qdrant at ${config.qdrant.url} (collection ${config.qdrant.collection})` : null;
  if (config.storage.kind === "embedded") {
    const at = config.storage.dataDir;
    return qdrant ? `embedded PGlite catalog at ${at}, vectors in ${qdrant}` : `embedded PGlite + pgvector at ${at}`;
  }
  return `PostgreSQL catalog, vectors in ${qdrant ?? "pgvector in the same PostgreSQL"}`;
}
