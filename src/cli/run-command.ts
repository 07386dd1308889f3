/**
 * Builds Folio for one CLI command, runs it, and always closes what it opened.
 */

import path from "node:path";
import type { FolioOptions } from "../composition-root.js";
import type { FolioConfig } from "../config/config.js";
import type { Logger } from "../logger.js";
import { RETRIEVAL_MODES, type RetrievalMode } from "../retrieval/retriever.js";
import { EXIT_CODES, UsageError } from "./cli-error.js";
import type { CliOptions } from "./cli-options.js";
import { type CommandBackend, createLocalCommandBackend } from "./command-backend.js";
import { runAskCommand } from "./commands/ask-command.js";
import { runIngestCommand } from "./commands/ingest-command.js";
import { runSearchCommand } from "./commands/search-command.js";
import { createRemoteCommandBackend, serverAnswers } from "./remote-command-backend.js";
import { readServerAddress } from "./server-address-file.js";

// What builds Folio itself (stores, models, parsers, the HTTP server) is imported only by the commands
// that build it: `folio ask|search|ingest` through a running server load none of it, and start in well
// under a second instead of ten.

const COMMANDS = ["ingest", "ask", "search", "answers", "eval", "reindex", "serve", "models", "questionnaire"] as const;
/** Commands that can work through a running `folio serve` when it holds the embedded store. */
const SERVER_COMMANDS = new Set(["ingest", "ask", "search", "answers", "questionnaire"]);

/**
 * The configuration a command runs with: `--mode` (a product mode) becomes the retriever's default, so
 * answers use it too; `--store embedded` sets Qdrant aside, `--store qdrant` needs QDRANT_URL;
 * `--generator extractive` sets a configured LLM aside, `--generator llm` needs one.
 */
function configForCommand(config: FolioConfig, options: CliOptions): FolioConfig {
  let adjusted = config;
  if ((RETRIEVAL_MODES as readonly string[]).includes(options.mode)) {
    adjusted = { ...adjusted, retrieval: { ...adjusted.retrieval, mode: options.mode as RetrievalMode } };
  }
  if (options.store === "embedded") adjusted = { ...adjusted, qdrant: null };
  else if (options.store === "qdrant" && !adjusted.qdrant) {
    throw new UsageError("--store qdrant needs QDRANT_URL (and QDRANT_API_KEY if the server asks for one)");
  } else if (options.store !== undefined && options.store !== "qdrant") {
    throw new UsageError(`--store must be embedded or qdrant, got "${options.store}"`);
  }
  if (options.generator === "extractive") adjusted = { ...adjusted, llm: { kind: "none" } };
  else if (options.generator === "llm" && adjusted.llm.kind === "none") {
    throw new UsageError(
      "--generator llm needs a language model: FOLIO_LLM_MODEL=<file.gguf>, or LLM_BASE_URL and LLM_MODEL for an OpenAI-compatible server",
    );
  } else if (options.generator !== undefined && options.generator !== "llm") {
    throw new UsageError(`--generator must be extractive or llm, got "${options.generator}"`);
  }
  return adjusted;
}

export async function runCommand(
  command: string,
  rest: string[],
  options: CliOptions,
  config: FolioConfig,
): Promise<number> {
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`unknown command "${command}"; commands are ${COMMANDS.join(", ")}`);
  }
  if (command === "models") {
    const { runModelsCommand } = await import("./commands/models-command.js");
    return runModelsCommand(config, rest, options);
  }
  const server = await findRunningServer(command, config);
  if (server) {
    // The server holds the embedded store; its own configuration (models, LLM) answers.
    process.stderr.write(`(working through the running folio serve, pid ${server.pid}, at ${server.url})\n`);
    checkServerOptions(command, options);
    if (command === "questionnaire") {
      const [{ runQuestionnaireCommand }, { createRemoteQuestionnaireBackend }] = await Promise.all([
        import("./commands/questionnaire-command.js"),
        import("./questionnaire-backend.js"),
      ]);
      return runQuestionnaireCommand(createRemoteQuestionnaireBackend(server), rest, options);
    }
    return runBackendCommand(command, createRemoteCommandBackend(server), rest, options);
  }
  // Batch commands log warnings only, so their stdout stays readable; the server logs at the configured level.
  const { createLogger } = await import("../logger.js");
  const logger = createLogger({ level: command === "serve" ? config.logLevel : "warn" });
  if (command === "serve") {
    const { runServeCommand } = await import("./commands/serve-command.js");
    return runServeCommand(config, logger);
  }
  return runWithOwnFolio(command, rest, options, config, logger);
}

/** Opens the store and loads the models in this process: no server holds them. */
async function runWithOwnFolio(
  command: string,
  rest: string[],
  options: CliOptions,
  config: FolioConfig,
  logger: Logger,
): Promise<number> {
  const adjusted = configForCommand(config, options);
  // A question (ask, search) starts opening the stores first — PGlite starts in its worker thread while
  // this thread loads the rest of Folio — and has the embedder loaded in the inference worker meanwhile.
  const asksAtOnce = command === "ask" || command === "search";
  const storesOpening = asksAtOnce
    ? import("../stores/open-configured-stores.js").then(({ openStoresForConfig }) =>
        openStoresForConfig(adjusted, logger),
      )
    : undefined;
  // Held until createFolio takes it; a failure before then is reported by createFolio's own opening.
  storesOpening?.catch(() => undefined);
  const [{ createFolio }, { ensureModels }, { createProgressPrinter }] = await Promise.all([
    import("../composition-root.js"),
    import("../models/ensure-models.js"),
    import("./model-progress-printer.js"),
  ]);
  // A missing default model is fetched here, with progress on stderr, before createFolio looks for it.
  const progress = createProgressPrinter();
  await ensureModels(config, ["embedder", "reranker"], { onProgress: progress.show }).finally(() => progress.clear());
  const folioOptions: FolioOptions = {
    embeddingCacheDir: command === "eval" ? path.join(config.dataDir, "embedding-cache") : undefined,
    allowEmbeddingModelChange: command === "reindex",
    stores: storesOpening,
    warmEmbedder: command === "ask" || (command === "search" && options.mode !== "sparse"),
  };
  // Only answering uses the language model: ingest, search and reindex do not load it.
  const needsLanguageModel =
    command === "ask" ||
    command === "questionnaire" ||
    (command === "eval" && (rest[0] === "answers" || rest[0] === "conversations" || rest[0] === "tatqa"));
  const folio = await createFolio(
    needsLanguageModel ? adjusted : { ...adjusted, llm: { kind: "none" } },
    logger,
    folioOptions,
  ).catch(async (error: unknown) => {
    // Stores opened early and not yet handed over must not keep the process (and the data directory lock).
    await storesOpening?.then((stores) => stores?.client.close()).catch(() => undefined);
    throw error;
  });
  try {
    switch (command) {
      case "ingest":
      case "search":
      case "ask":
      case "answers":
        return await runBackendCommand(command, createLocalCommandBackend(folio), rest, options);
      case "eval": {
        const { runEvalCommand } = await import("./commands/eval-command.js");
        return await runEvalCommand(folio, rest, options, config.dataDir);
      }
      case "questionnaire": {
        const [{ runQuestionnaireCommand }, { createLocalQuestionnaireBackend }] = await Promise.all([
          import("./commands/questionnaire-command.js"),
          import("./questionnaire-backend.js"),
        ]);
        return await runQuestionnaireCommand(createLocalQuestionnaireBackend(folio), rest, options);
      }
      case "reindex": {
        const { runReindexCommand } = await import("./commands/reindex-command.js");
        return await runReindexCommand(folio, rest, options);
      }
      default:
        return EXIT_CODES.usage;
    }
  } finally {
    await folio.close();
  }
}

async function runBackendCommand(
  command: string,
  backend: CommandBackend,
  rest: string[],
  options: CliOptions,
): Promise<number> {
  if (command === "answers") {
    const { runAnswersCommand } = await import("./commands/answers-command.js");
    return runAnswersCommand(backend, rest, options);
  }
  if (command === "ingest") return runIngestCommand(backend, rest, options);
  if (command === "search") return runSearchCommand(backend, rest, options);
  return runAskCommand(backend, rest, options);
}

/** The `folio serve` holding this embedded data directory, when one runs and answers. */
async function findRunningServer(command: string, config: FolioConfig) {
  if (!SERVER_COMMANDS.has(command) || config.storage.kind !== "embedded") return null;
  const address = await readServerAddress(config.dataDir);
  if (!address || address.pid === process.pid) return null;
  return (await serverAnswers(address)) ? address : null;
}

/** Options that change how the server itself is built cannot be honoured through it: say so, do not ignore them. */
function checkServerOptions(command: string, options: CliOptions): void {
  const serverBuilt = [
    options.generator !== undefined ? "--generator" : null,
    options.store !== undefined ? "--store" : null,
    // search sends its mode along; an answer uses the server's configured mode.
    (command === "ask" || command === "questionnaire") && options.mode !== "default" ? "--mode" : null,
  ].filter((option) => option !== null);
  if (serverBuilt.length > 0) {
    throw new UsageError(
      `${serverBuilt.join(" and ")} cannot be used while folio serve holds the store (it answers with its own settings); stop it first`,
    );
  }
}
