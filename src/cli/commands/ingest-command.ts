/**
 * `folio ingest <path...>`: one result line per file, then a summary; BM25 vectors of the space are
 * rebuilt once at the end so the whole batch shares the same length normalisation.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../../../ingestion/limits.js";
import { FolioError, isFolioError } from "../../errors.js";
import { describeReplacement } from "../../ingest/describe-ingest-outcome.js";
import type { IngestResult, SameNamePolicy } from "../../ingest/ingest-result.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";
import { collectFiles } from "../collect-files.js";
import type { CommandBackend } from "../command-backend.js";
import { countOf } from "../count-of.js";

export async function runIngestCommand(backend: CommandBackend, paths: string[], options: CliOptions): Promise<number> {
  if (paths.length === 0) throw new UsageError("ingest needs at least one file or folder");
  const files = await collectFiles(paths);
  const startedAt = performance.now();
  const results: IngestResult[] = [];
  try {
    for (const file of files) {
      const result = await ingestOne(backend, file, options.space, options.keepBoth ? "keep-both" : "replace");
      results.push(result);
      process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${describeResult(result)}\n`);
    }
    if (results.some((result) => result.status === "ingested")) await backend.finishIngest(options.space);
  } catch (error) {
    throw stoppedPartway(error, results, files.length);
  }
  const summary = {
    files: results.length,
    ingested: results.filter((result) => result.status === "ingested").length,
    unchanged: results.filter((result) => result.status === "unchanged").length,
    rejected: results.filter((result) => result.status === "rejected").length,
    pages: results.reduce((sum, result) => sum + (result.pages ?? 0), 0),
    chunks: results.reduce((sum, result) => sum + result.chunks, 0),
    seconds: Number(((performance.now() - startedAt) / 1000).toFixed(2)),
  };
  process.stdout.write(options.json ? `${JSON.stringify({ summary })}\n` : describeSummary(summary, results));
  return summary.rejected > 0 ? EXIT_CODES.someFilesRejected : EXIT_CODES.ok;
}

/**
 * A server that stops taking work (shutting down) part-way through a batch: one error that says what
 * was done and what was not, so the lines already printed are not read as the batch's success.
 */
function stoppedPartway(error: unknown, results: IngestResult[], fileCount: number): unknown {
  if (!isFolioError(error) || error.code !== "shutting_down") return error;
  const ingested = results.filter((result) => result.status === "ingested").length;
  return new FolioError(
    "shutting_down",
    `folio serve stopped taking work part-way: ${ingested} of ${countOf(fileCount, "file")} ingested but the batch is not finished (keyword search may miss them) — run the same command again once folio serve is back; files already in are skipped as unchanged.`,
    { cause: error, retryable: true },
  );
}

async function ingestOne(
  backend: CommandBackend,
  file: string,
  spaceId: string,
  sameName: SameNamePolicy,
): Promise<IngestResult> {
  const fileName = path.basename(file);
  const { size } = await stat(file);
  // Checked before reading, so an enormous file is never loaded into memory.
  if (size > DEFAULT_PARSE_LIMITS.maxBytes) {
    const limitMb = Math.round(DEFAULT_PARSE_LIMITS.maxBytes / (1024 * 1024));
    return {
      file: fileName,
      documentId: null,
      status: "rejected",
      pages: null,
      chunks: 0,
      error: {
        code: "file_too_large",
        message: `This file is larger than ${limitMb} MB — split it or upload a smaller copy.`,
      },
    };
  }
  const bytes = new Uint8Array(await readFile(file));
  const result = await backend.ingestFile({ bytes, fileName, spaceId, sameName });
  return { ...result, file };
}

/**
 * "16 files: 16 ingested, 0 unchanged, 0 rejected — 112 passages in 3.1 s"; pages are counted only for
 * the files that have them (PDFs), so a folder of Markdown never reads "0 pages".
 */
function describeSummary(
  summary: {
    files: number;
    ingested: number;
    unchanged: number;
    rejected: number;
    pages: number;
    chunks: number;
    seconds: number;
  },
  results: readonly IngestResult[],
): string {
  const paged = results.filter((result) => result.pages !== null).length;
  const pages = paged === 0 ? "" : `${countOf(summary.pages, "page")} in ${countOf(paged, "PDF")}, `;
  const outcome = `${summary.ingested} ingested, ${summary.unchanged} unchanged, ${summary.rejected} rejected`;
  return `\n${countOf(summary.files, "file")}: ${outcome} — ${pages}${countOf(summary.chunks, "passage")} in ${summary.seconds} s\n`;
}

function describeResult(result: IngestResult): string {
  switch (result.status) {
    case "ingested": {
      const replaced = describeReplacement(result);
      return `ingested  ${result.file} — ${result.pages === null ? "" : `${countOf(result.pages, "page")}, `}${countOf(result.chunks, "passage")}${replaced ? ` — ${replaced}` : ""}`;
    }
    case "unchanged":
      return `unchanged ${result.file} — already indexed`;
    case "rejected":
      return `rejected  ${result.file} — ${result.error?.message} [${result.error?.code}]`;
  }
}
