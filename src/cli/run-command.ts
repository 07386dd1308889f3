/**
 * Builds Folio for one CLI command, runs it, and always closes what it opened.
 */

import { createFolio } from "../composition-root.js";
import type { FolioConfig } from "../config/config.js";
import { createLogger } from "../logger.js";
import { EXIT_CODES, UsageError } from "./cli-error.js";
import { runAskCommand } from "./commands/ask-command.js";
import { runEvalCommand } from "./commands/eval-command.js";
import { runIngestCommand } from "./commands/ingest-command.js";
import { runSearchCommand } from "./commands/search-command.js";
import { runServeCommand } from "./commands/serve-command.js";
import type { CliOptions } from "./main.js";

const COMMANDS = ["ingest", "ask", "search", "eval", "serve"] as const;

export async function runCommand(
  command: string,
  rest: string[],
  options: CliOptions,
  config: FolioConfig,
): Promise<number> {
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(`unknown command "${command}"; commands are ${COMMANDS.join(", ")}`);
  }
  // Batch commands log warnings only, so their stdout stays readable; the server logs at the configured level.
  const logger = createLogger({ level: command === "serve" ? config.logLevel : "warn" });
  if (command === "serve") return runServeCommand(config, logger);
  const folio = await createFolio(config, logger);
  try {
    switch (command) {
      case "ingest":
        return await runIngestCommand(folio, rest, options);
      case "search":
        return await runSearchCommand(folio, rest, options);
      case "ask":
        return await runAskCommand(folio, rest, options);
      case "eval":
        return await runEvalCommand(folio, rest, options);
      default:
        return EXIT_CODES.usage;
    }
  } finally {
    await folio.close();
  }
}
