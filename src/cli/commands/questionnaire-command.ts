/**
 * `folio questionnaire fill <file> --space S --out <file> [--sheet N] [--column C] [--dry-run] [--json]`:
 * answers every question of a questionnaire from the space's documents and writes the filled copy.
 * What was found (sheet, header row, question column, number of questions, the first three) is printed
 * first — with `--dry-run` only that, nothing answered or stored. Progress goes to stderr ("61/245 done ·
 * 58 answered · 2 min left"); Ctrl-C cancels the job (the rows answered so far are kept in the catalog);
 * the summary (or one JSON object) goes to stdout, with the rows skipped as no questions.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { FolioError } from "../../errors.js";
import {
  describeProgress,
  describeSkipped,
  type QuestionnaireProgress,
} from "../../questionnaire/jobs/questionnaire-progress.js";
import { describePreview } from "../../questionnaire/read/questionnaire-preview.js";
import { describeFormat, filledExtension, formatFromFileName } from "../../questionnaire/write/filled-file-name.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";
import type { QuestionnaireBackend } from "../questionnaire-backend.js";

/** How often progress is asked for while the job runs. */
const POLL_INTERVAL_MS = 500;

const extensionOf = (fileName: string) => /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? null;

/**
 * The filled copy has the questionnaire's own format: an `--out` name with another questionnaire
 * extension (review.docx filled into answers.xlsx) is refused before any work, saying which to use.
 */
function checkOutName(file: string, out: string | undefined): void {
  if (out === undefined) return;
  const format = formatFromFileName(file);
  const given = extensionOf(out);
  if (format === null || given === null || !["xlsx", "xls", "csv", "tsv", "docx", "doc"].includes(given)) return;
  const expected = filledExtension(file, format);
  if (given === expected) return;
  throw new UsageError(
    `questionnaire fill: the filled copy of ${path.basename(file)} is ${describeFormat(format)} (.${expected}), but --out names ${path.basename(out)} — give --out a .${expected} name`,
  );
}

/** `out` with the copy's extension, when the file turned out to be another format than its name said. */
function withCopyExtension(out: string, copyName: string): string {
  const wanted = extensionOf(copyName);
  if (wanted === null || extensionOf(out) === wanted) return out;
  return `${extensionOf(out) === null ? out : out.replace(/\.[^./\\]+$/, "")}.${wanted}`;
}

export async function runQuestionnaireCommand(
  backend: QuestionnaireBackend,
  words: string[],
  options: CliOptions,
): Promise<number> {
  const [subcommand, file, ...extra] = words;
  if (subcommand !== "fill" || file === undefined || extra.length > 0) {
    throw new UsageError(
      "questionnaire needs: folio questionnaire fill <file> --space S --out <file> [--sheet N] [--column C] [--dry-run] [--json]",
    );
  }
  const size = await stat(file).catch(() => null);
  if (!size?.isFile()) throw new UsageError(`questionnaire fill: ${file} is not a file`);
  if (!options.dryRun) checkOutName(file, options.out);
  const bytes = new Uint8Array(await readFile(file));
  const readOptions = { bytes, fileName: path.basename(file), sheet: options.sheet, column: options.column };
  if (options.dryRun) {
    const preview = await backend.preview(readOptions);
    process.stdout.write(options.json ? `${JSON.stringify(preview)}\n` : describePreview(preview));
    return EXIT_CODES.ok;
  }
  // What will be asked, before anything is: a wrong column is seen at once, and Ctrl-C costs nothing yet.
  if (!options.json) process.stderr.write(describePreview(await backend.preview(readOptions)));
  const submitted = await backend.submit({
    bytes,
    fileName: path.basename(file),
    spaceId: options.space,
    sheet: options.sheet,
    column: options.column,
  });

  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write("\ncancelling… (answers so far are kept)\n");
    void backend.cancel(submitted.jobId).catch(() => {});
  };
  process.on("SIGINT", onInterrupt);
  let progress: QuestionnaireProgress;
  let lastLine = "";
  try {
    for (;;) {
      progress = await backend.progress(submitted.jobId);
      const line = describeProgress(progress);
      if (!options.json && line !== lastLine) {
        process.stderr.write(process.stderr.isTTY ? `\x1b[2K${line}\r` : `${line}\n`);
        lastLine = line;
      }
      if (progress.status !== "queued" && progress.status !== "running") break;
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  } finally {
    process.off("SIGINT", onInterrupt);
  }
  if (progress.status === "failed") {
    throw new FolioError(progress.errorCode ?? "questionnaire_failed", progress.errorMessage ?? "The job failed.");
  }
  const copy = await backend.filledCopy(submitted.jobId);
  const out = options.out
    ? withCopyExtension(options.out, copy.fileName)
    : path.join(path.dirname(file), copy.fileName);
  const copyFormat = formatFromFileName(copy.fileName);
  if (options.out !== undefined && out !== options.out && copyFormat !== null) {
    process.stderr.write(
      `The filled copy of ${path.basename(file)} is ${describeFormat(copyFormat)}, so it is written as ${out} (not ${options.out}).\n`,
    );
  }
  await writeFile(out, copy.bytes);
  const summary = {
    file,
    out,
    jobId: submitted.jobId,
    status: progress.status,
    questions: progress.total,
    answered: progress.answered,
    notFound: progress.notFound,
    needsReview: progress.needsReview,
    errors: progress.errors,
    pending: progress.pending,
    skipped: progress.skipped ?? 0,
    seconds: Number((progress.elapsedMs / 1000).toFixed(1)),
  };
  if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    if (process.stderr.isTTY) process.stderr.write("\x1b[2K");
    process.stdout.write(
      `${summary.status === "cancelled" ? "Cancelled; partly filled" : "Filled"} copy: ${out}\n` +
        `${summary.answered} answered · ${summary.notFound} not found in the documents · ${summary.needsReview} need review · ${summary.errors} errors${summary.skipped > 0 ? ` · ${describeSkipped(summary.skipped)}` : ""} · ${summary.seconds} s\n`,
    );
  }
  return summary.status === "succeeded" ? EXIT_CODES.ok : EXIT_CODES.failure;
}
