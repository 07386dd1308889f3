/**
 * Turns the environment into a FolioConfig: every variable read by its declaration
 * (read-config-variables.ts), the checks across variables (config-rules.ts), then the settings each part
 * of Folio takes, built from the values — which store, which language model, which chat platforms.
 */
import path from "node:path";
import type { LlmConfig } from "../llm/llm-settings.js";
import { hubFileLocalPath } from "../models/hub-file-reference.js";
import { DEFAULT_HUB_ENDPOINT } from "../models/model-download-settings.js";
import { DEFAULT_SETTLING_OPTIONS } from "../stores/qdrant-collection-readiness.js";
import type { QdrantConfig, StorageMode } from "../stores/store-settings.js";
import { ConfigError, type Environment } from "./config-error.js";
import { checkConfigRules } from "./config-rules.js";
import type { ConfigValues } from "./config-variables.js";
import type { FolioConfig, SlackConfig, TeamsConfig } from "./folio-config.js";
import { inDeclaredOrder, readConfigVariables } from "./read-config-variables.js";

/** Validates the environment; throws ConfigError listing every bad variable. */
export function loadConfig(environment: Environment, workingDirectory = process.cwd()): FolioConfig {
  const read = readConfigVariables(environment);
  const problems = [...read.problems, ...checkConfigRules(read)];
  if (problems.length > 0) throw new ConfigError(inDeclaredOrder(problems));
  return buildConfig(read.values, workingDirectory);
}

function buildConfig(values: ConfigValues, workingDirectory: string): FolioConfig {
  const dataDir = path.resolve(workingDirectory, values.FOLIO_DATA_DIR ?? ".folio");
  const modelsDir = path.resolve(workingDirectory, values.FOLIO_MODELS_DIR ?? "models");
  return {
    dataDir,
    modelsDir,
    embedModel: values.FOLIO_EMBED_MODEL,
    rerankModel: values.FOLIO_RERANK_MODEL,
    modelDownloads: {
      hubEndpoint: values.HF_ENDPOINT ?? DEFAULT_HUB_ENDPOINT,
      hubToken: values.HF_TOKEN,
      offline: values.FOLIO_OFFLINE,
      llmFile: values.FOLIO_LLM_MODEL?.hubFile ?? null,
    },
    retrieval: {
      mode: values.FOLIO_RETRIEVAL_MODE,
      candidates: values.FOLIO_RETRIEVAL_CANDIDATES,
      rrfK: values.FOLIO_RRF_K,
      denseWeight: values.FOLIO_RRF_DENSE_WEIGHT,
      sparseWeight: values.FOLIO_RRF_SPARSE_WEIGHT,
      rerankCandidates: values.FOLIO_RERANK_CANDIDATES,
      documentTargeting: values.FOLIO_DOCUMENT_TARGETING,
      statementTargeting: values.FOLIO_STATEMENT_TARGETING,
    },
    inferenceThreads: values.FOLIO_INFERENCE_THREADS,
    storage: storageMode(values, dataDir),
    denseSearch: {
      mode: values.FOLIO_DENSE_INDEX,
      exactMaxChunks: values.FOLIO_DENSE_EXACT_MAX_CHUNKS,
      quantization: values.FOLIO_DENSE_QUANTIZATION,
      expansionSearch: values.FOLIO_DENSE_EF_SEARCH,
    },
    qdrant: qdrantConfig(values),
    llm: llmConfig(values, modelsDir, workingDirectory),
    llmRuntime: {
      gpu: values.FOLIO_LLM_GPU,
      threads: values.FOLIO_LLM_THREADS,
      parallel: values.FOLIO_LLM_PARALLEL,
      queueLimit: values.FOLIO_LLM_QUEUE,
      timeoutSeconds: values.FOLIO_LLM_TIMEOUT_SECONDS,
    },
    llmRewriteTimeoutSeconds: values.FOLIO_LLM_REWRITE_TIMEOUT_SECONDS,
    llmSourceTokens: values.FOLIO_LLM_SOURCE_TOKENS,
    slack: slackConfig(values),
    teams: teamsConfig(values),
    port: values.PORT,
    host: values.HOST,
    publicUrl: values.FOLIO_PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    linkSecret: values.FOLIO_LINK_SECRET,
    linkTtlSeconds: values.FOLIO_LINK_TTL_SECONDS,
    librarySpaceId: values.FOLIO_LIBRARY_SPACE,
    consoleAccess: values.FOLIO_CONSOLE,
    consoleAllowedHosts: values.FOLIO_CONSOLE_ALLOWED_HOSTS,
    logLevel: values.FOLIO_LOG_LEVEL,
    operations: {
      maxConcurrentQuestions: values.FOLIO_MAX_CONCURRENT_QUESTIONS,
      shutdownGraceSeconds: values.FOLIO_SHUTDOWN_GRACE_SECONDS,
      parseMemoryMb: values.FOLIO_PARSE_MEMORY_MB,
      parseTimeoutSeconds: values.FOLIO_PARSE_TIMEOUT_SECONDS,
    },
    chunking: { maxTokens: values.FOLIO_CHUNK_TOKENS, overlapTokens: values.FOLIO_CHUNK_OVERLAP },
    bm25: { k1: values.FOLIO_BM25_K1, b: values.FOLIO_BM25_B },
    questionnaire: {
      maxRows: values.FOLIO_QUESTIONNAIRE_MAX_ROWS,
      maxBytes: values.FOLIO_QUESTIONNAIRE_MAX_MB * 1024 * 1024,
      concurrency: values.FOLIO_QUESTIONNAIRE_CONCURRENCY,
      retentionDays: values.FOLIO_QUESTIONNAIRE_RETENTION_DAYS,
      maxRunningJobs: values.FOLIO_QUESTIONNAIRE_MAX_RUNNING,
      maxRunningJobsPerSpace: values.FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE,
      maxReceiving: values.FOLIO_QUESTIONNAIRE_MAX_RECEIVING,
      maxWritingCopies: values.FOLIO_QUESTIONNAIRE_MAX_COPIES,
    },
    approvedAnswers: { threshold: values.FOLIO_APPROVED_ANSWER_THRESHOLD },
  };
}

function storageMode(values: ConfigValues, dataDir: string): StorageMode {
  const databaseUrl = values.DATABASE_URL;
  return databaseUrl ? { kind: "postgres", databaseUrl } : { kind: "embedded", dataDir };
}

function qdrantConfig(values: ConfigValues): QdrantConfig | null {
  if (values.QDRANT_URL === null) return null;
  return {
    url: values.QDRANT_URL,
    apiKey: values.QDRANT_API_KEY,
    collection: values.QDRANT_COLLECTION,
    settings: {
      shardNumber: values.QDRANT_SHARD_NUMBER,
      replicationFactor: values.QDRANT_REPLICATION_FACTOR,
      writeConsistencyFactor: values.QDRANT_WRITE_CONSISTENCY_FACTOR,
      onDiskVectors: values.QDRANT_ON_DISK_VECTORS,
      onDiskPayload: values.QDRANT_ON_DISK_PAYLOAD,
      quantization: values.QDRANT_QUANTIZATION,
      oversampling: values.QDRANT_OVERSAMPLING,
    },
    settling: { ...DEFAULT_SETTLING_OPTIONS, timeoutMs: values.QDRANT_START_TIMEOUT_SECONDS * 1000 },
  };
}

/** An OpenAI-compatible server wins over a local GGUF; a hub reference loads from where `models pull` puts it. */
function llmConfig(values: ConfigValues, modelsDir: string, workingDirectory: string): LlmConfig {
  if (values.LLM_BASE_URL && values.LLM_MODEL) {
    return {
      kind: "openai-compatible",
      baseUrl: values.LLM_BASE_URL,
      model: values.LLM_MODEL,
      apiKey: values.LLM_API_KEY,
    };
  }
  const local = values.FOLIO_LLM_MODEL;
  if (local === null) return { kind: "none" };
  const modelPath = local.hubFile
    ? hubFileLocalPath(modelsDir, local.hubFile)
    : path.resolve(workingDirectory, local.text);
  return { kind: "local", modelPath };
}

function slackConfig(values: ConfigValues): SlackConfig | null {
  if (values.SLACK_BOT_TOKEN === null) return null;
  return {
    botToken: values.SLACK_BOT_TOKEN,
    signingSecret: values.SLACK_SIGNING_SECRET,
    appToken: values.SLACK_APP_TOKEN,
    apiUrl: values.SLACK_API_URL,
    adminUserIds: values.FOLIO_SLACK_ADMINS,
  };
}

function teamsConfig(values: ConfigValues): TeamsConfig | null {
  if (values.MICROSOFT_APP_ID === null || values.MICROSOFT_APP_PASSWORD === null) return null;
  return {
    appId: values.MICROSOFT_APP_ID,
    appPassword: values.MICROSOFT_APP_PASSWORD,
    tenantId: values.MICROSOFT_APP_TENANT_ID,
    appType: values.MICROSOFT_APP_TYPE,
    adminUserIds: values.FOLIO_TEAMS_ADMINS,
  };
}
