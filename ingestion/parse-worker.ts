/**
 * Worker-thread entry point: parses and chunks the files it is sent, one at a time, posting each result
 * (or the ParseError's code and message) back. Runs inside a thread with a heap cap, so a hostile file
 * can only kill this thread, never the bot. See run-in-worker.ts.
 */
import { getHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import { isFolioError, ParseError } from "../src/errors.js";
import { chunkDocument } from "./chunker.js";
import { xlsMediaType, xlsxMediaType } from "./detect-media-type.js";
import { createEstimatedTokenCounter } from "./estimated-token-counter.js";
import { parseDocument } from "./parse-document.js";
import type { ParseJob, ParseReply } from "./parse-protocol.js";
import { loadTokenCounter } from "./token-counter.js";

// pdf.js inflates streams with the web DecompressionStream when there is one, which runs on Node's native
// zlib; a worker terminated while such a stream is being set up (a parse over its time limit) aborts the
// whole process in Node 20 ("CompressionStream::Close … close before init"), taking the bot down with the
// file. Without it pdf.js inflates in JavaScript: same text, no slower on the SEC filings measured.
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;

const spreadsheetMediaTypes = new Set<string>([xlsxMediaType, xlsMediaType, "text/csv", "text/tab-separated-values"]);

/** A file that parsed but holds nothing to search is refused here, before it reaches the catalog. */
function noTextError(mediaType: string, fileName: string): ParseError {
  const what = mediaType.includes("wordprocessingml")
    ? "This Word document has no text Folio can search (it is empty or holds only pictures or shapes)"
    : spreadsheetMediaTypes.has(mediaType)
      ? "This spreadsheet has no filled cells Folio can search"
      : "This file contains no text Folio can search";
  return new ParseError("no_text", `${what} — upload a copy that contains text.`, { file: fileName });
}

async function run(job: ParseJob): Promise<ParseReply> {
  try {
    const document = await parseDocument(job.bytes, job.fileName, job.limits);
    const tokenCounter =
      job.chunking.tokenizerDirectory === null
        ? createEstimatedTokenCounter()
        : await loadTokenCounter(job.chunking.tokenizerDirectory);
    const chunks = chunkDocument(document, { ...job.chunking, tokenCounter });
    if (chunks.length === 0) throw noTextError(document.mediaType, job.fileName);
    return { ok: true, document, chunks };
  } catch (error) {
    if (isFolioError(error)) {
      const page = (error as { page?: number }).page;
      const reason = typeof error.details.reason === "string" ? error.details.reason : undefined;
      return {
        ok: false,
        error: {
          code: error.code,
          message: error.message,
          page: page ?? null,
          parse: error.name === "ParseError",
          ...(reason === undefined ? {} : { reason }),
        },
      };
    }
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: {
        code: "parse_failed",
        message:
          "Folio could not read this file (the parser failed) — save it again in its original program and re-upload.",
        page: null,
        parse: true,
        reason,
      },
    };
  }
}

/**
 * Samples this thread's used heap while a job runs (between the parser's awaits) and reports the
 * highest figure in MB: V8 keeps no peak of its own, and the process's RSS mixes all threads.
 */
function watchHeap(): () => number {
  const usedBytes = () => getHeapStatistics().used_heap_size;
  let peak = usedBytes();
  const sampler = setInterval(() => {
    peak = Math.max(peak, usedBytes());
  }, 20);
  return () => {
    clearInterval(sampler);
    return Math.round(Math.max(peak, usedBytes()) / (1024 * 1024));
  };
}

parentPort?.on("message", async (message: { id: number; job: ParseJob }) => {
  // The worker's modules are loaded by now: the parent's memory watchdog measures the file from here.
  parentPort?.postMessage({ id: message.id, started: true });
  const stopWatching = watchHeap();
  const reply = await run(message.job);
  parentPort?.postMessage({ id: message.id, reply, peakHeapMb: stopWatching() });
});
