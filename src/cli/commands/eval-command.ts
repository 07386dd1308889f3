/**
 * `folio eval retrieval|answers|conversations`: reproducible quality and latency numbers through the product's own
 * path (catalog, BM25 statistics, vector index, retriever). Prints JSON with --json, else markdown.
 */
import path from "node:path";
import type { Folio } from "../../composition-root.js";
import { type AnswerEvaluationReport, runAnswerEvaluation } from "../../evaluation/answer-evaluation.js";
import { type ConversationEvaluationRun, runConversationEvaluation } from "../../evaluation/conversation-evaluation.js";
import { METRIC_NAMES } from "../../evaluation/ir-metrics.js";
import {
  EVALUATION_MODES,
  type EvaluationMode,
  type RetrievalEvaluationReport,
  runRetrievalEvaluation,
} from "../../evaluation/retrieval-evaluation.js";
import { TATQA_ANSWER_TYPES, type TatqaAnswerType } from "../../evaluation/tatqa-dataset.js";
import { runTatqaEvaluation, type TatqaEvaluationReport, type TatqaTally } from "../../evaluation/tatqa-evaluation.js";
import { createPaperHybridRetriever } from "../../retrieval/paper-hybrid-retriever.js";
import { RETRIEVAL_MODES, type Retriever } from "../../retrieval/retriever.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";

const SUBCOMMANDS = ["retrieval", "answers", "conversations", "tatqa"];
/** recall@100 needs at least 100 results per query; --k can only ask for more. */
const MINIMUM_DEPTH = 100;

export async function runEvalCommand(
  folio: Folio,
  rest: string[],
  options: CliOptions,
  /** Where evaluation files are kept between runs (TAT-QA's rendered and printed pages). */
  dataDir = ".folio",
): Promise<number> {
  const [subcommand, ...extra] = rest;
  if (subcommand === undefined || !SUBCOMMANDS.includes(subcommand)) {
    throw new UsageError(`eval needs one of ${SUBCOMMANDS.join(", ")}, got "${subcommand ?? ""}"`);
  }
  if (extra.length > 0) throw new UsageError(`eval ${subcommand} takes no further arguments, got "${extra.join(" ")}"`);
  if (subcommand === "conversations") return evaluateConversations(folio, options);
  if (subcommand === "tatqa") return evaluateTatqa(folio, options, dataDir);
  return subcommand === "retrieval" ? evaluateRetrieval(folio, options) : evaluateAnswers(folio, options);
}

async function evaluateRetrieval(folio: Folio, options: CliOptions): Promise<number> {
  if (!options.dataset) {
    throw new UsageError("eval retrieval needs --dataset <BEIR dir>, e.g. --dataset ../shared/data/beir-scifact");
  }
  const mode = evaluationMode(folio, options.mode);
  const report = await runRetrievalEvaluation(folio, {
    datasetDir: options.dataset,
    split: options.split,
    mode,
    depth: Math.max(options.k, MINIMUM_DEPTH),
    paperHybridRetriever: mode === "paper-hybrid" ? createPaperHybridFor(folio) : undefined,
    runOut: options.runOut,
    onProgress: reportProgress(options),
  });
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : describeRetrievalReport(report));
  return EXIT_CODES.ok;
}

async function evaluateAnswers(folio: Folio, options: CliOptions): Promise<number> {
  if (!options.dataset || !options.docs) {
    throw new UsageError(
      "eval answers needs --dataset <qa.jsonl> and --docs <dir>, e.g. --dataset ../shared/data/northwind-rag-qa/ground_truth.jsonl --docs ../shared/data/northwind-rag-qa/pdfs",
    );
  }
  const report = await runAnswerEvaluation(folio, {
    datasetPath: options.dataset,
    docsDir: options.docs,
    limit: options.limit,
    runOut: options.runOut,
    onProgress: reportProgress(options),
  });
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : describeAnswerReport(report));
  return EXIT_CODES.ok;
}

async function evaluateConversations(folio: Folio, options: CliOptions): Promise<number> {
  if (!options.dataset) {
    throw new UsageError(
      "eval conversations needs --dataset <conversations.jsonl>, e.g. --dataset bench/conversations.jsonl",
    );
  }
  // The mode reaches the answers through the configuration (run-command), so only product modes apply.
  if (options.mode !== "default" && !(RETRIEVAL_MODES as readonly string[]).includes(options.mode)) {
    throw new UsageError(
      `eval conversations --mode must be one of ${RETRIEVAL_MODES.join(", ")}; got "${options.mode}"`,
    );
  }
  const report = await runConversationEvaluation(folio, {
    datasetPath: options.dataset,
    docsDir: options.docs ?? path.resolve(process.env.FOLIO_SHARED_DATA_DIR ?? path.join("..", "shared", "data")),
    limit: options.limit,
    onProgress: reportProgress(options),
  });
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : describeConversationReport(report));
  return EXIT_CODES.ok;
}

async function evaluateTatqa(folio: Folio, options: CliOptions, dataDir: string): Promise<number> {
  if (!options.dataset) {
    throw new UsageError(
      "eval tatqa needs --dataset <tatqa.json>, e.g. --dataset ../shared/data/tatqa-dev/tatqa_dataset_dev.json",
    );
  }
  if (options.mode !== "default" && !(RETRIEVAL_MODES as readonly string[]).includes(options.mode)) {
    throw new UsageError(`eval tatqa --mode must be one of ${RETRIEVAL_MODES.join(", ")}; got "${options.mode}"`);
  }
  const format = options.as ?? "html";
  if (format !== "html" && format !== "pdf") throw new UsageError(`--as must be html or pdf, got "${format}"`);
  const types = options.types === undefined ? undefined : parseTatqaTypes(options.types);
  const report = await runTatqaEvaluation(folio, {
    datasetPath: options.dataset,
    workDirectory: path.join(dataDir, "tatqa-documents"),
    format,
    limit: options.limit,
    types,
    runOut: options.runOut,
    onProgress: reportProgress(options),
  });
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : describeTatqaReport(report));
  return EXIT_CODES.ok;
}

function parseTatqaTypes(text: string): TatqaAnswerType[] {
  const types = text.split(",").map((type) => type.trim());
  const unknown = types.filter((type) => !(TATQA_ANSWER_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0)
    throw new UsageError(
      `--types takes ${TATQA_ANSWER_TYPES.join(", ")} (comma-separated); got "${unknown.join(", ")}"`,
    );
  return types as TatqaAnswerType[];
}

export function describeTatqaReport(report: TatqaEvaluationReport): string {
  const row = (name: string, tally: TatqaTally) =>
    `| ${name} | ${tally.questions} | ${tally.firstSentence.toFixed(3)} | ${tally.exactMatch.toFixed(3)} | ${tally.f1.toFixed(3)} |`;
  return [
    `${report.dataset}: ${report.questions} questions over ${report.excerpts} excerpts as ${report.format} (${report.rejected} rejected); not-in-documents ${report.noContextRate}; latency p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms; compose p50 ${report.composeMs.p50} ms`,
    "",
    "| answer type | questions | first sentence holds | exact match | F1 |",
    "| --- | --- | --- | --- | --- |",
    ...Object.entries(report.byType).map(([type, tally]) => row(type, tally)),
    row("overall", report.overall),
    "",
  ].join("\n");
}

/**
 * The seed paper's combined embedding, fitted on the evaluation space at its first question. The
 * evaluation embeds each chunk's own text (no contextual header), so that is the passage text here,
 * and the cached embedder hands those vectors back instead of embedding the corpus again.
 */
function createPaperHybridFor(folio: Folio): Retriever {
  if (!folio.embedder) {
    throw new UsageError("--mode paper-hybrid needs an embedding model; FOLIO_EMBED_MODEL is none.");
  }
  return createPaperHybridRetriever({
    catalog: folio.catalog,
    embedder: folio.embedder,
    passageText: (_document, chunk) => chunk.text,
  });
}

/** `--mode` for evaluation: a product mode, `paper-hybrid`, or (no --mode) the configured default. */
function evaluationMode(folio: Folio, mode: string): EvaluationMode {
  if (mode === "default") return folio.retrievalMode;
  if ((EVALUATION_MODES as readonly string[]).includes(mode)) return mode as EvaluationMode;
  throw new UsageError(`--mode must be one of ${EVALUATION_MODES.join(", ")}; got "${mode}"`);
}

/** Progress goes to stderr and only for people: with --json, stdout and stderr stay machine-clean. */
function reportProgress(options: CliOptions): (message: string) => void {
  return (message) => {
    if (!options.json) process.stderr.write(`… ${message}\n`);
  };
}

export function describeRetrievalReport(report: RetrievalEvaluationReport): string {
  const header = [...METRIC_NAMES, "p50 ms", "p95 ms"];
  const values = [
    ...METRIC_NAMES.map((name) => report.metrics[name].toFixed(4)),
    String(report.latencyMs.p50),
    String(report.latencyMs.p95),
  ];
  return [
    `${report.dataset}: ${report.queries} queries over ${report.documents} documents, mode ${report.mode}`,
    "",
    `| ${header.join(" | ")} |`,
    `|${" --- |".repeat(header.length)}`,
    `| ${values.join(" | ")} |`,
    "",
  ].join("\n");
}

export function describeAnswerReport(report: AnswerEvaluationReport): string {
  const show = (value: number | null) => (value === null ? "–" : String(value));
  return [
    `${report.dataset}: ${report.questions} questions, ${report.documents.ingested} documents ingested, ${report.documents.rejected} rejected, generator ${report.generator}`,
    "",
    "| page hit@1 | page hit@5 | page hit@cited | no-context rate | citation support | fallback rate | first token p50 ms | first token p95 ms | p50 ms | p95 ms |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${report.pageHitAt1} | ${report.pageHitAt5} | ${report.pageHitAtCited} | ${report.noContextRate} | ${show(report.citationSupportRate)} (${report.citedSentences} cited) | ${show(report.fallbackRate)} | ${report.timeToFirstTokenMs.p50} | ${report.timeToFirstTokenMs.p95} | ${report.latencyMs.p50} | ${report.latencyMs.p95} |`,
    "",
  ].join("\n");
}

export function describeConversationReport(report: ConversationEvaluationRun): string {
  const kinds = Object.entries(report.byKind).map(
    ([kind, tally]) => `| ${kind} | ${tally.questions} | ${tally.correct} |`,
  );
  const failures = report.failures.flatMap((failure) => [
    `- ${failure.conversation} turn ${failure.turn} (${failure.kind}): ${failure.question}`,
    `  expected: ${JSON.stringify(failure.expect)}`,
    `  why: ${failure.reasons.join("; ")}`,
    `  answer: ${failure.answer.replace(/\s+/g, " ")}`,
  ]);
  const rejected = report.documents.rejected.length > 0 ? `, rejected: ${report.documents.rejected.join(", ")}` : "";
  return [
    `${report.dataset}: ${report.conversations} conversations, ${report.questions} questions, ${report.documents.ingested} documents ingested${rejected}; mode ${report.mode}, generator ${report.generator}`,
    "",
    `correct: ${report.correct}/${report.questions} (${report.correctRate}); latency p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms`,
    "",
    "| kind | questions | correct |",
    "| --- | --- | --- |",
    ...kinds,
    "",
    ...(failures.length > 0 ? ["Failing turns:", ...failures, ""] : []),
  ].join("\n");
}
