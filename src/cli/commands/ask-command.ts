/**
 * `folio ask "<question>"`: streams the answer to the terminal (or prints the answer object as JSON)
 * followed by its numbered sources, each with its page or section and the quote it is cited for (even
 * when the answer quotes it too: the list is what a reader checks against). Without a server the viewer's links lead nowhere, so each source
 * points at a local copy of its file, at the page (local-source-files.ts); JSON keeps `url` and adds
 * `localFile`.
 */
import { randomUUID } from "node:crypto";
import type { Answer } from "../../answer/answer-events.js";
import { labelDocument } from "../../domain/document-label.js";
import { describeSourcePlace } from "../../domain/source-place.js";
import { FolioError } from "../../errors.js";
import { EXIT_CODES, UsageError } from "../cli-error.js";
import type { CliOptions } from "../cli-options.js";
import type { CommandBackend } from "../command-backend.js";
import { localFileLink } from "../local-source-files.js";

export async function runAskCommand(backend: CommandBackend, words: string[], options: CliOptions): Promise<number> {
  const question = words.join(" ").trim();
  if (!question) throw new UsageError('ask needs a question: folio ask "how many vacation days do I get?"');
  const context = { spaceIds: [options.space], requestId: randomUUID() };
  let answer: Answer | null = null;
  // The final answer is printed, not the stream: its markers are renumbered to match the sources listed
  // below it, and a language model's draft is replaced by what verification kept.
  for await (const event of backend.answerQuestion(question, context)) {
    if (event.type === "status" && !options.json && process.stderr.isTTY) process.stderr.write(`${event.message}\r`);
    if (event.type === "done") answer = event.answer;
    if (event.type === "error") throw new FolioError(event.code, `${event.message} (reference ${event.requestId})`);
  }
  if (!answer) throw new FolioError("answer_incomplete", "The answer stream ended without an answer — try again.");
  const localFiles = await Promise.all(
    answer.citations.map((citation) => backend.sourceFile?.(citation.documentId) ?? Promise.resolve(null)),
  );
  if (options.json) {
    const citations = answer.citations.map((citation, index) => {
      const localFile = localFiles[index];
      return localFile ? { ...citation, localFile } : citation;
    });
    process.stdout.write(`${JSON.stringify({ ...answer, citations })}\n`);
    return EXIT_CODES.ok;
  }
  if (process.stderr.isTTY) process.stderr.write("\x1b[2K");
  process.stdout.write(answer.answer);
  process.stdout.write(`\n\n${answer.noContext ? "Closest sources" : "Sources"}:\n`);
  for (const [index, citation] of answer.citations.entries()) {
    const place = describeSourcePlace(citation);
    const name = labelDocument(citation.title, citation.file);
    const quote = citation.quote.trim() === "" ? "" : `    "${citation.quote}"\n`;
    const localFile = localFiles[index];
    const link = localFile ? localFileLink(localFile, citation.pageStart) : citation.url;
    process.stdout.write(`[${citation.n}] ${name}${place === "" ? "" : ` — ${place}`}\n${quote}    ${link}\n`);
  }
  return EXIT_CODES.ok;
}
