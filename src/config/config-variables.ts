/**
 * Every environment variable Folio reads, declared once: its kind and range (config-variable.ts), its
 * default and what it is for. load-config.ts reads the environment with these, the errors say what they
 * accept, and the tables in docs/configuration.md are written from them (`npx tsx
 * scripts/write-configuration-table.ts`; test/unit/configuration-docs.test.ts fails when they differ).
 * Problems are reported in the order declared here.
 */
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import { DEFAULT_APPROVED_ANSWER_THRESHOLD } from "../answer-library/approved-answer-threshold.js";
import { LLAMA_GPU_SETTINGS } from "../llm/llama-gpu-setting.js";
import type { LogLevel } from "../logger.js";
import { DEFAULT_EMBED_MODEL } from "../models/model-registry.js";
import { DEFAULT_RETRIEVAL_SETTINGS as RETRIEVAL } from "../retrieval/retrieval-settings.js";
import { RETRIEVAL_MODES } from "../retrieval/retriever.js";
import {
  DEFAULT_APPROXIMATE_INDEX_SETTINGS as APPROXIMATE,
  DENSE_QUANTIZATIONS,
} from "../stores/approximate-dense-index.js";
import { DEFAULT_DENSE_SEARCH_SETTINGS, DENSE_INDEX_MODES } from "../stores/dense-search-settings.js";
import { DEFAULT_QDRANT_COLLECTION } from "../stores/qdrant-collection.js";
import { DEFAULT_SETTLING_OPTIONS } from "../stores/qdrant-collection-readiness.js";
import {
  DEFAULT_QDRANT_COLLECTION_SETTINGS as QDRANT,
  QDRANT_QUANTIZATIONS,
} from "../stores/qdrant-collection-settings.js";
import {
  type ConfigVariable,
  decimal,
  flag,
  hostList,
  integer,
  list,
  listenAddress,
  modelFile,
  nameOrOff,
  oneOf,
  pattern,
  secret,
  spelledOneOf,
  text,
  token,
  url,
} from "./config-variable.js";

export const CONSOLE_ACCESS = ["local", "open", "off"] as const;
export type ConsoleAccess = (typeof CONSOLE_ACCESS)[number];

const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];
const HTTP = ["http:", "https:"];

const FILES_AND_MODELS = {
  FOLIO_DATA_DIR: text({
    default: "./.folio",
    accepts: "a path",
    help: "embedded database (PGlite + pgvector), console history, generated link secret",
  }),
  FOLIO_MODELS_DIR: text({
    default: "./models",
    accepts: "a path",
    help: "local model directory (tokenizer / ONNX / GGUF)",
  }),
  FOLIO_EMBED_MODEL: nameOrOff({
    default: DEFAULT_EMBED_MODEL,
    off: "none",
    help: "embedding model folder under the models dir (its tokenizer also measures chunks); `none` turns dense retrieval off (keywords only; starts with no model files). Changing it needs `folio reindex`",
  }),
  FOLIO_RERANK_MODEL: text({
    accepts: "a folder name",
    shownDefault: "— (off)",
    help: "cross-encoder folder under the models dir (transformers.js layout, `onnx/model_quantized.onnx`), e.g. `bge-reranker-base`; set, retrieval defaults to `hybrid+rerank`",
  }),
  FOLIO_INFERENCE_THREADS: integer({
    default: 0,
    min: 0,
    max: 256,
    shownDefault: "`0` (runtime's choice)",
    help: "ONNX Runtime threads of the embedder/reranker worker",
  }),
};

const RETRIEVAL_AND_CHUNKS = {
  FOLIO_RETRIEVAL_MODE: oneOf({
    values: RETRIEVAL_MODES,
    default: null,
    shownDefault: "`hybrid+rerank` with a reranker, else `hybrid`",
    help: "how passages are found: BM25 (`sparse`), embeddings (`dense`), both fused (`hybrid`), then rescored by the cross-encoder (`hybrid+rerank`)",
  }),
  FOLIO_RETRIEVAL_CANDIDATES: integer({
    default: RETRIEVAL.candidates,
    min: 1,
    max: 1000,
    help: "candidates each list (dense, BM25) gives to fusion",
  }),
  FOLIO_RRF_K: decimal({
    default: RETRIEVAL.fusion.k,
    min: 0,
    max: 10_000,
    help: "k of reciprocal rank fusion: Σ weight / (k + rank)",
  }),
  FOLIO_RRF_DENSE_WEIGHT: decimal({
    default: RETRIEVAL.fusion.denseWeight,
    min: 0,
    max: 100,
    help: "weight of the dense list in fusion; tuned on SciFact's train split (benchmarks.md)",
  }),
  FOLIO_RRF_SPARSE_WEIGHT: decimal({
    default: RETRIEVAL.fusion.sparseWeight,
    min: 0,
    max: 100,
    help: "weight of the BM25 list in fusion",
  }),
  FOLIO_RERANK_CANDIDATES: integer({
    default: RETRIEVAL.rerankCandidates,
    min: 1,
    max: 500,
    help: "fused results the cross-encoder rescores (raise it on a GPU)",
  }),
  FOLIO_DOCUMENT_TARGETING: flag({
    default: true,
    help: "prefer the documents whose title or file name the question names (a company, product, plan, year); `0` turns it off",
  }),
  FOLIO_STATEMENT_TARGETING: flag({
    default: true,
    help: 'prefer the passages of the financial statement a question names ("balance sheet" finds "Consolidated Statements of Financial Position"); `0` turns it off',
  }),
  FOLIO_CHUNK_TOKENS: integer({
    default: 512,
    min: 32,
    max: 8192,
    help: "chunk budget (special tokens included), in embedding-tokenizer tokens",
  }),
  FOLIO_CHUNK_OVERLAP: integer({
    default: 20,
    min: 0,
    max: 1024,
    help: "tokens a chunk repeats from the one before; smaller than `FOLIO_CHUNK_TOKENS`",
  }),
  FOLIO_BM25_K1: decimal({
    default: 0.9,
    min: 0,
    max: 10,
    help: "BM25 term-frequency saturation (Anserini's default)",
  }),
  FOLIO_BM25_B: decimal({ default: 0.4, min: 0, max: 1, help: "BM25 length normalisation (Anserini's default)" }),
};

const STORAGE = {
  FOLIO_DENSE_INDEX: oneOf({
    values: DENSE_INDEX_MODES,
    default: DEFAULT_DENSE_SEARCH_SETTINGS.mode,
    help: "embedded store only: how dense vectors are searched — `auto` (exact scan up to `FOLIO_DENSE_EXACT_MAX_CHUNKS` embedded chunks a space, an approximate HNSW index past it), `approximate` (always the index: tests, evaluation), `exact` (never)",
  }),
  FOLIO_DENSE_EXACT_MAX_CHUNKS: integer({
    default: DEFAULT_DENSE_SEARCH_SETTINGS.exactMaxChunks,
    min: 0,
    max: 100_000_000,
    help: "embedded store: a space with more embedded chunks than this switches (once, for good) to the approximate index, saved under `$FOLIO_DATA_DIR/db.dense-index/` so a restart loads it; the exact scan costs ~0.65 ms per 1,000 chunks a query",
  }),
  FOLIO_DENSE_QUANTIZATION: oneOf({
    values: DENSE_QUANTIZATIONS,
    default: APPROXIMATE.quantization,
    help: "precision of the vectors inside the approximate index: `f16` (half of float32's memory, same recall here), `f32`, or `i8` (a quarter; lower recall)",
  }),
  FOLIO_DENSE_EF_SEARCH: integer({
    default: APPROXIMATE.expansionSearch,
    min: 10,
    max: 10_000,
    help: "candidates the approximate index considers per query (HNSW ef) in a space of up to 370K chunks; larger spaces search more, ef × (chunks / 370K)^0.75 (321 at 500K, 540 at 1M), as HNSW recall at a fixed ef falls with size (benchmarks.md, Scale); 256 keeps SciFact with the index forced on at the exact scan's nDCG@10 (96 lost 0.003). Higher raises recall and latency",
  }),
  DATABASE_URL: url({
    protocols: ["postgres:", "postgresql:"],
    help: "PostgreSQL catalog instead of PGlite; vectors go to its pgvector extension",
  }),
  QDRANT_URL: url({
    protocols: HTTP,
    help: "keep vectors in Qdrant (with the embedded catalog or PostgreSQL); see [Qdrant](#qdrant)",
  }),
  QDRANT_API_KEY: text({ onlyWith: "QDRANT_URL", help: "the key the Qdrant server asks for, if it asks for one" }),
  QDRANT_COLLECTION: pattern({
    default: DEFAULT_QDRANT_COLLECTION,
    pattern: /^[A-Za-z0-9_-]{1,255}$/,
    accepts: '1 to 255 letters, digits, "_" or "-" (a Qdrant collection name)',
    help: "the Qdrant collection; created at first start, refused at start if its layout or dense size differs",
  }),
  QDRANT_SHARD_NUMBER: integer({
    default: QDRANT.shardNumber,
    min: 1,
    max: 1024,
    onlyWith: "QDRANT_URL",
    help: "a new collection's shards; on a cluster of n nodes a multiple of n ([operations](operations.md#qdrant-on-a-cluster))",
  }),
  QDRANT_REPLICATION_FACTOR: integer({
    default: QDRANT.replicationFactor,
    min: 1,
    max: 64,
    onlyWith: "QDRANT_URL",
    help: "copies of each shard of a new collection; 2 on a cluster",
  }),
  QDRANT_WRITE_CONSISTENCY_FACTOR: integer({
    default: QDRANT.writeConsistencyFactor,
    min: 1,
    max: 64,
    onlyWith: "QDRANT_URL",
    help: "copies that must apply a write before it is acknowledged; at most the replication factor",
  }),
  QDRANT_ON_DISK_VECTORS: flag({
    default: QDRANT.onDiskVectors,
    onlyWith: "QDRANT_URL",
    help: "dense originals and the sparse index memory-mapped from disk",
  }),
  QDRANT_ON_DISK_PAYLOAD: flag({
    default: QDRANT.onDiskPayload,
    onlyWith: "QDRANT_URL",
    help: "payload on disk (its indexes stay in RAM)",
  }),
  QDRANT_QUANTIZATION: oneOf({
    values: QDRANT_QUANTIZATIONS,
    default: QDRANT.quantization,
    onlyWith: "QDRANT_URL",
    help: "`int8`: scalar quantization kept in RAM, the best oversampling × limit candidates rescored with the originals",
  }),
  QDRANT_OVERSAMPLING: decimal({
    default: QDRANT.oversampling,
    min: 1,
    max: 16,
    onlyWith: "QDRANT_URL",
    help: "with `int8`: how many times the limit the quantized search returns to be rescored",
  }),
  QDRANT_START_TIMEOUT_SECONDS: integer({
    default: DEFAULT_SETTLING_OPTIONS.timeoutMs / 1000,
    min: 1,
    max: 3600,
    onlyWith: "QDRANT_URL",
    help: "how long start-up waits for a new collection's shards to become active on a cluster (`vector_store_not_ready` past it)",
  }),
};

const LANGUAGE_MODEL = {
  FOLIO_LLM_MODEL: modelFile({
    help: "GGUF path, or `hf:<owner>/<repo>/<file>.gguf[#revision]` fetched by `folio models pull llm`; set, answers are written by it and verified. Needs `npm run setup:llm` once (see install.md)",
  }),
  LLM_BASE_URL: url({
    protocols: HTTP,
    help: "an OpenAI-compatible server (vLLM, llama.cpp server), set with `LLM_MODEL`; the base URL may end in `/v1` or not. Chosen over `FOLIO_LLM_MODEL` when both are set",
  }),
  LLM_MODEL: text({ help: "the model the OpenAI-compatible server serves" }),
  LLM_API_KEY: text({ help: "the OpenAI-compatible server's key, if it asks for one" }),
  FOLIO_LLM_GPU: oneOf({
    values: LLAMA_GPU_SETTINGS,
    default: "auto",
    help: "node-llama-cpp backend (logged at start)",
  }),
  FOLIO_LLM_THREADS: integer({
    default: 0,
    min: 0,
    max: 256,
    help: "CPU threads of node-llama-cpp (0: the library's choice; 1 on small CPU boxes)",
  }),
  FOLIO_LLM_PARALLEL: integer({
    default: null,
    min: 1,
    max: 64,
    shownDefault: "4 on a GPU, 1 on the CPU",
    help: "questions decoded together",
  }),
  FOLIO_LLM_QUEUE: integer({
    default: 16,
    min: 0,
    max: 10_000,
    help: "questions that may wait for the model; past that askers are told the model is busy",
  }),
  FOLIO_LLM_TIMEOUT_SECONDS: integer({ default: 120, min: 1, max: 3600, help: "generation time per answer" }),
  FOLIO_LLM_SOURCE_TOKENS: integer({
    default: null,
    min: 64,
    max: 1_000_000,
    shownDefault: "`640` when the model reads its prompt on a CPU, `3000` otherwise",
    help: "tokens the numbered sources may take in the model's prompt (the first source up to 40%, each later one up to 20%, each cut to its best passages); on a CPU the prompt's length is most of the wait",
  }),
  FOLIO_LLM_REWRITE_TIMEOUT_SECONDS: integer({
    default: 8,
    min: 0,
    max: 600,
    help: "time the model gets to rewrite a thread follow-up as a standalone question for the search; past it, on a busy model, or with `0`, the rule-based rewrite is used",
  }),
};

const MODEL_DOWNLOADS = {
  HF_ENDPOINT: url({
    protocols: HTTP,
    shownDefault: "`https://huggingface.co`",
    help: "where models are downloaded from (the hub, or a mirror)",
  }),
  HF_TOKEN: text({
    help: "a token for private or gated repositories (sent to the hub only, never to its CDN)",
  }),
  FOLIO_OFFLINE: flag({
    default: false,
    help: "`1`: never download models; a missing one stops start-up (exit 3) with one line naming the model, its folder and the ways to get it",
  }),
};

const SERVER = {
  PORT: integer({ default: 3000, min: 0, max: 65_535, help: "HTTP port of the console, viewer and chat endpoints" }),
  HOST: listenAddress({
    shownDefault: "`127.0.0.1`; `0.0.0.0` with Slack, Teams or `FOLIO_CONSOLE=open`",
    help: "address `folio serve` listens on: loopback alone while only the local console is served, every interface once Slack or Teams (their events, the citation links people open) or an open console needs the network; set it to choose (the Docker image and compose set `0.0.0.0`)",
  }),
  FOLIO_PUBLIC_URL: url({
    protocols: HTTP,
    shownDefault: "`http://localhost:$PORT`",
    help: "external base URL used in citation links",
  }),
  FOLIO_LINK_SECRET: secret({
    minLength: 32,
    hint: "(generate one with `openssl rand -hex 32`), or unset it to let Folio generate one",
    shownDefault: "generated",
    help: "HMAC key for citation links; generated once into `$FOLIO_DATA_DIR/link-secret` (mode 0600) when unset",
  }),
  FOLIO_LINK_TTL_SECONDS: integer({
    default: 7 * 24 * 3600,
    min: 60,
    max: 366 * 24 * 3600,
    help: "how long a citation link stays valid",
  }),
  FOLIO_CONSOLE: oneOf({
    values: CONSOLE_ACCESS,
    default: "local",
    help: "web console for `local` requests only (loopback address and host), `open` to anyone reaching `PORT` (it has no login), or `off`",
  }),
  FOLIO_CONSOLE_ALLOWED_HOSTS: hostList({
    example: "folio.corp.example,folio",
    help: "in `open` mode the console answers only to localhost names, IP addresses and `FOLIO_PUBLIC_URL`'s host (DNS rebinding is refused), and to these",
  }),
  FOLIO_LIBRARY_SPACE: text({
    accepts: "a space id",
    help: "a shared space every channel also searches (e.g. `library`)",
  }),
  FOLIO_LOG_LEVEL: oneOf({ values: LOG_LEVELS, default: "info", help: "logs are JSON lines (pino)" }),
  FOLIO_MAX_CONCURRENT_QUESTIONS: integer({
    default: 16,
    min: 1,
    max: 10_000,
    help: "console questions (`POST /api/ask`) answered at once; more are refused with 429 `busy` and `Retry-After: 2` (back-pressure, see [Operations](operations.md))",
  }),
  FOLIO_SHUTDOWN_GRACE_SECONDS: integer({
    default: 25,
    min: 0,
    max: 3600,
    help: "on SIGTERM, how long answers and uploads in progress may take to finish before the process exits (0 as well)",
  }),
  FOLIO_PARSE_TIMEOUT_SECONDS: integer({
    default: DEFAULT_PARSE_LIMITS.timeMs / 1000,
    min: 1,
    max: 86_400,
    help: "how long one file's parse may take before it is stopped (`parse_timeout`); a long report on a busy machine may need more",
  }),
  FOLIO_PARSE_MEMORY_MB: integer({
    default: DEFAULT_PARSE_LIMITS.maxMemoryMb,
    min: 256,
    max: 1_048_576,
    help: "how much one file's parse may add to the process's memory before it is stopped as a likely decompression bomb (`parse_memory_exceeded`; docs/security.md)",
  }),
};

const QUESTIONNAIRES = {
  FOLIO_QUESTIONNAIRE_MAX_ROWS: integer({
    default: 5_000,
    min: 1,
    max: 1_000_000,
    help: "most rows a questionnaire sheet may have (empty rows counted); more is refused with `questionnaire_too_long`",
  }),
  FOLIO_QUESTIONNAIRE_MAX_MB: integer({
    default: 20,
    min: 1,
    max: 1024,
    help: "largest questionnaire file accepted, in MB (`questionnaire_too_large`)",
  }),
  FOLIO_QUESTIONNAIRE_CONCURRENCY: integer({
    default: 2,
    min: 1,
    max: 64,
    help: "rows of one questionnaire answered at once; rows also wait while people's questions are answered",
  }),
  FOLIO_QUESTIONNAIRE_RETENTION_DAYS: integer({
    default: 7,
    min: 0,
    max: 3650,
    help: "days a finished questionnaire job's uploaded file — and so its filled copy — is kept; deleted at start and hourly after that (answers and counts stay; a download then says `questionnaire_file_deleted`); `0` keeps files",
  }),
  FOLIO_QUESTIONNAIRE_MAX_RUNNING: integer({
    default: 2,
    min: 1,
    max: 1_000,
    help: 'questionnaire jobs one process answers at once; more wait in line, their progress saying "queued, 3 ahead" in the console and the chat thread (the cap is per process: each replica has its own)',
  }),
  FOLIO_QUESTIONNAIRE_MAX_RUNNING_PER_SPACE: integer({
    default: 1,
    min: 1,
    max: 1_000,
    help: "questionnaire jobs of one space (channel, chat, console) answered at once, so one team's pile cannot hold every slot",
  }),
  FOLIO_QUESTIONNAIRE_MAX_RECEIVING: integer({
    default: 4,
    min: 1,
    max: 1_000,
    help: "questionnaire and approved-answer files received and read at once over HTTP (`POST /api/questionnaires`, `POST /api/answers`), from the first byte until the file is read; more are refused with 429 `questionnaire_busy` and `Retry-After: 5`",
  }),
  FOLIO_QUESTIONNAIRE_MAX_COPIES: integer({
    default: 2,
    min: 1,
    max: 64,
    help: "filled questionnaire copies written at once (each re-opens the file in the questionnaire worker; a copy is kept per job and answer version, so downloading it again costs nothing); more downloads are refused with 429 `questionnaire_copy_busy` and `Retry-After: 5`, chat adapters wait their turn",
  }),
  FOLIO_APPROVED_ANSWER_THRESHOLD: decimal({
    default: DEFAULT_APPROVED_ANSWER_THRESHOLD,
    min: 0.5,
    max: 1,
    help: "embedding similarity at which an approved answer is reused, its guards passing; calibrated for bge-small-en-v1.5 (see Approved answers below)",
  }),
};

const SLACK = {
  SLACK_BOT_TOKEN: token({ prefix: "xoxb-", kind: "a bot token", help: "enables the Slack adapter" }),
  SLACK_SIGNING_SECRET: text({ help: "HTTP mode (Events API at `POST /slack/events`)" }),
  SLACK_APP_TOKEN: token({
    prefix: "xapp-",
    kind: "an app-level token",
    onlyWith: "SLACK_BOT_TOKEN",
    help: "Socket Mode instead of HTTP",
  }),
  SLACK_API_URL: url({
    protocols: HTTP,
    shownDefault: "Slack's",
    help: "base URL of the Slack Web API (tests, GovSlack)",
  }),
  FOLIO_SLACK_ADMINS: list({ help: "Slack user ids allowed to `/folio forget` any document" }),
};

const TEAMS = {
  MICROSOFT_APP_ID: text({
    help: "Teams bot (Azure Bot registration), set with `MICROSOFT_APP_PASSWORD`; enables `POST /api/messages`",
  }),
  MICROSOFT_APP_PASSWORD: text({ help: "the bot's client secret" }),
  MICROSOFT_APP_TENANT_ID: text({ help: "the Entra tenant id; required for a single-tenant bot" }),
  MICROSOFT_APP_TYPE: spelledOneOf({
    spellings: { singletenant: "single-tenant", multitenant: "multi-tenant" },
    default: "single-tenant",
    accepts: "SingleTenant or MultiTenant (as in the Azure Bot registration)",
    shownDefault: "`SingleTenant`",
    help: "as registered in Azure",
  }),
  FOLIO_TEAMS_ADMINS: list({ help: "Entra object ids allowed to `forget` any document in Teams" }),
};

/** The variables in the order docs/configuration.md shows them, under its headings. */
export const CONFIG_SECTIONS = [
  { title: "Files and models", variables: FILES_AND_MODELS },
  { title: "Retrieval and chunks", variables: RETRIEVAL_AND_CHUNKS },
  { title: "Storage", variables: STORAGE },
  { title: "Language model", variables: LANGUAGE_MODEL },
  { title: "Model downloads", variables: MODEL_DOWNLOADS },
  { title: "Server, console and links", variables: SERVER },
  { title: "Questionnaires and approved answers", variables: QUESTIONNAIRES },
  { title: "Slack", variables: SLACK },
  { title: "Microsoft Teams", variables: TEAMS },
] as const;

export const CONFIG_VARIABLES = {
  ...FILES_AND_MODELS,
  ...RETRIEVAL_AND_CHUNKS,
  ...STORAGE,
  ...LANGUAGE_MODEL,
  ...MODEL_DOWNLOADS,
  ...SERVER,
  ...QUESTIONNAIRES,
  ...SLACK,
  ...TEAMS,
};

export type ConfigVariableName = keyof typeof CONFIG_VARIABLES;

/** The value each variable was read as (its default when unset or bad). */
export type ConfigValues = {
  [Name in ConfigVariableName]: (typeof CONFIG_VARIABLES)[Name] extends ConfigVariable<infer Value> ? Value : never;
};
