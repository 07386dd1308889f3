#!/usr/bin/env node
/**
 * The `folio` command line: parses arguments, loads configuration, runs one command, and turns
 * every failure into a one-line message on stderr and a documented exit code.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/config.js";
import { isFolioError } from "../errors.js";
import { EXIT_CODES, UsageError } from "./cli-error.js";
import type { CliOptions } from "./cli-options.js";
import { isConfigurationErrorCode } from "./configuration-error-codes.js";
import { runCommand } from "./run-command.js";
import { USAGE } from "./usage.js";

function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      space: { type: "string" },
      json: { type: "boolean", default: false },
      k: { type: "string" },
      mode: { type: "string" },
      dataset: { type: "string" },
      docs: { type: "string" },
      split: { type: "string" },
      store: { type: "string" },
      "run-out": { type: "string" },
      generator: { type: "string" },
      limit: { type: "string" },
      as: { type: "string" },
      types: { type: "string" },
      out: { type: "string" },
      sheet: { type: "string" },
      column: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      "question-column": { type: "string" },
      "answer-column": { type: "string" },
      "keep-both": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const k = values.k === undefined ? 10 : Number(values.k);
  if (!Number.isInteger(k) || k < 1 || k > 1000)
    throw new UsageError(`--k must be a whole number from 1 to 1000, got "${values.k}"`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new UsageError(`--limit must be a whole number of at least 1, got "${values.limit}"`);
  const options: CliOptions = {
    space: values.space ?? "console:default",
    spaceGiven: values.space !== undefined,
    json: values.json ?? false,
    k,
    mode: values.mode ?? "default",
    dataset: values.dataset,
    docs: values.docs,
    split: values.split ?? "test",
    store: values.store,
    runOut: values["run-out"],
    generator: values.generator,
    limit,
    as: values.as,
    types: values.types,
    out: values.out,
    sheet: values.sheet,
    column: values.column,
    dryRun: values["dry-run"] ?? false,
    questionColumn: values["question-column"],
    answerColumn: values["answer-column"],
    keepBoth: values["keep-both"] ?? false,
  };
  return { help: values.help ?? false, positionals, options };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`folio: ${message} (see folio --help)\n`);
    return EXIT_CODES.usage;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.help || command === undefined || command === "help") {
    process.stdout.write(USAGE);
    return command === undefined && !parsed.help ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  try {
    const config = loadConfig(process.env);
    return await runCommand(command, rest, parsed.options, config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`folio: ${error.message}\n`);
      return EXIT_CODES.configuration;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`folio: ${error.message} (see folio --help)\n`);
      return EXIT_CODES.usage;
    }
    const code = isFolioError(error) ? error.code : "internal_error";
    const message = error instanceof Error ? error.message : String(error);
    // The stack (debug only) comes first, so the one line that says what to do is the last thing shown.
    if (process.env.FOLIO_LOG_LEVEL === "debug" && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.stderr.write(`folio: ${message} [${code}]\n`);
    return isConfigurationErrorCode(code) ? EXIT_CODES.configuration : EXIT_CODES.failure;
  }
}

main(process.argv.slice(2)).then(
  (exitCode) => {
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    process.stderr.write(`folio: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT_CODES.failure;
  },
);
