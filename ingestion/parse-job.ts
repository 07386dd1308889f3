/**
 * What the parse worker does with one file: parse it, chunk it, count each chunk's terms (under its
 * contextual header, index-text.ts) for BM25, and turn the outcome (chunks, or the ParseError's code and
 * message) into plain data that can cross the thread boundary. Counting terms is work proportional to the
 * document (about half a second for a 500-page filing), so it is done here, off the main thread.
 */

import { indexedDocument, indexTextOf } from "../src/domain/index-text.js";
import { isFolioError, ParseError } from "../src/errors.js";
import { countTerms } from "../src/retrieval/text-analyzer.js";
import { chunkDocument } from "./chunker.js";
import { xlsMediaType, xlsxMediaType } from "./detect-media-type.js";
import { createEstimatedTokenCounter } from "./estimated-token-counter.js";
import { parseDocument } from "./parse-document.js";
import type { ParseJob, ParseOutcome } from "./parse-protocol.js";
import { loadTokenCounter } from "./token-counter.js";

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

export async function runParseJob(job: ParseJob): Promise<ParseOutcome> {
  try {
    const document = await parseDocument(job.bytes, job.fileName, job.limits);
    const tokenCounter =
      job.chunking.tokenizerDirectory === null
        ? createEstimatedTokenCounter()
        : await loadTokenCounter(job.chunking.tokenizerDirectory);
    const drafts = chunkDocument(document, { ...job.chunking, tokenCounter });
    if (drafts.length === 0) throw noTextError(document.mediaType, job.fileName);
    const indexed = indexedDocument(document.title, job.fileName);
    const chunks = drafts.map((chunk) => ({ ...chunk, terms: countTerms(indexTextOf(indexed, chunk)) }));
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
