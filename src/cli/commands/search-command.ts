/**
 * `folio search "<query>"`: the retrieval results themselves, for debugging relevance.
 */
import { RETRIEVAL_MODES, type RetrievalMode } from "../../retrieval/retriever.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";
import type { CommandBackend } from "../command-backend.js";

/** `--mode` as given, or undefined for the configured default (no --mode). */
export function checkRetrievalMode(mode: string): RetrievalMode | undefined {
  if (mode === "default") return undefined;
  if ((RETRIEVAL_MODES as readonly string[]).includes(mode)) return mode as RetrievalMode;
  throw new UsageError(`--mode must be one of ${RETRIEVAL_MODES.join(", ")}; got "${mode}"`);
}

export async function runSearchCommand(backend: CommandBackend, words: string[], options: CliOptions): Promise<number> {
  const query = words.join(" ").trim();
  if (!query) throw new UsageError('search needs a query: folio search "what is the leave policy"');
  const mode = checkRetrievalMode(options.mode);
  const results = await backend.search({ query, spaceId: options.space, limit: options.k, mode });
  if (options.json) {
    const shaped = results.map((result) => ({
      chunkId: result.chunkId,
      documentId: result.documentId,
      file: result.file,
      pageStart: result.pageStart,
      pageEnd: result.pageEnd,
      score: result.score,
      text: result.text,
    }));
    process.stdout.write(`${JSON.stringify({ results: shaped })}\n`);
    return EXIT_CODES.ok;
  }
  if (results.length === 0) process.stdout.write(`No results in space ${options.space}.\n`);
  results.forEach((result, index) => {
    const pages =
      result.pageStart === null
        ? ""
        : ` p. ${result.pageStart}${result.pageEnd !== result.pageStart ? `–${result.pageEnd}` : ""}`;
    const preview = result.text.replace(/\s+/g, " ").slice(0, 160);
    process.stdout.write(`${index + 1}. [${result.score.toFixed(3)}] ${result.file}${pages}\n   ${preview}\n`);
  });
  return EXIT_CODES.ok;
}
