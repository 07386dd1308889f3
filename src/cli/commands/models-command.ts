/**
 * `folio models pull [embedder|reranker|llm|all]`: downloads the configured models that are missing
 * from FOLIO_MODELS_DIR ahead of time, so the first start-up needs no network. One line per file on
 * stdout (JSON with --json); progress and notes on stderr. Opens no database and loads no model.
 */
import type { FolioConfig } from "../../config/config.js";
import {
  ensureModelFiles,
  MODEL_TARGETS,
  type ModelFileOutcome,
  type ModelTarget,
  planModelFiles,
} from "../../models/ensure-models.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";
import { createProgressPrinter } from "../model-progress-printer.js";

const CHOICES = [...MODEL_TARGETS, "all"] as const;

export async function runModelsCommand(config: FolioConfig, rest: string[], options: CliOptions): Promise<number> {
  const [action, choice = "all", ...extra] = rest;
  if (action !== "pull") {
    throw new UsageError(`models needs an action: folio models pull [${CHOICES.join("|")}], got "${action ?? ""}"`);
  }
  if (extra.length > 0 || !(CHOICES as readonly string[]).includes(choice)) {
    throw new UsageError(`models pull takes one of ${CHOICES.join(", ")}, got "${[choice, ...extra].join(" ")}"`);
  }
  const targets: readonly ModelTarget[] = choice === "all" ? MODEL_TARGETS : [choice as ModelTarget];
  const plans = targets.map((target) => planModelFiles(config, target, choice !== "all"));
  for (const plan of plans) if (plan.note) process.stderr.write(`folio: ${plan.target}: ${plan.note}\n`);
  const files = plans.flatMap((plan) => plan.files);

  // Ctrl-C stops the download cleanly: the temporary file is removed, nothing half-written remains.
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once("SIGINT", abort);
  const progress = createProgressPrinter();
  try {
    await ensureModelFiles(files, config.modelDownloads, {
      signal: stop.signal,
      onProgress: progress.show,
      onOutcome(outcome) {
        progress.clear();
        process.stdout.write(
          options.json ? `${JSON.stringify(toJsonLine(outcome))}\n` : `${describeOutcome(outcome)}\n`,
        );
      },
    });
  } finally {
    progress.clear();
    process.off("SIGINT", abort);
  }
  return EXIT_CODES.ok;
}

function toJsonLine(outcome: ModelFileOutcome) {
  return { model: outcome.model, file: outcome.file, status: outcome.status, bytes: outcome.bytes };
}

function describeOutcome(outcome: ModelFileOutcome): string {
  const megabytes = (outcome.bytes / 1_000_000).toFixed(1);
  return `${outcome.status.padEnd(10)} ${outcome.model}: ${outcome.file} (${megabytes} MB) → ${outcome.destination}`;
}
