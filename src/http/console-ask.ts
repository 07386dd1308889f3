/**
 * POST /api/ask: a question asked in the console, answered as SSE events (the conversation's earlier
 * turns passed as its history, the answer cut off when the tab closes) and kept in the console's history.
 * A console with nothing to search yet answers with what to do instead of searching.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnswerEvent } from "../answer/answer-events.js";
import { FolioError } from "../errors.js";
import type { FolioCore } from "../folio-core.js";
import type { Logger } from "../logger.js";
import { describeError } from "./console-errors.js";
import type { ConsoleHistory } from "./console-history.js";
import { readJsonObject } from "./read-body.js";

/** Earlier question/answer pairs handed to the answer pipeline, enough to resolve "it" and "that one". */
const HISTORY_TURNS = 3;
const MAX_QUESTION_CHARACTERS = 2_000;
/** The reply to a question asked before any document was added: what to do, not "couldn't find". */
export const EMPTY_SPACE_ANSWER = "No documents yet — drop a file here (or use Add files), then ask again.";

/** The answer stream for a question asked of an empty console: no search, just what to do next. */
async function* emptySpaceEvents(requestId: string): AsyncIterable<AnswerEvent> {
  yield { type: "delta", text: EMPTY_SPACE_ANSWER };
  yield { type: "citations", citations: [] };
  yield {
    type: "done",
    answer: { requestId, answer: EMPTY_SPACE_ANSWER, noContext: true, citations: [], timingsMs: {} },
  };
}

export function createConsoleAsk(options: {
  core: Pick<FolioCore, "answerQuestion" | "listDocuments" | "approvedAnswers">;
  history: ConsoleHistory;
  /** The console's space and the library's: what a question searches. */
  searchSpaces: string[];
  logger: Logger;
}): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const { core, history, searchSpaces } = options;
  // Approved answers alone are worth asking: the answer then leads with the one that matches.
  const spacesAreEmpty = async (): Promise<boolean> => {
    for (const space of searchSpaces) if ((await core.listDocuments(space)).length > 0) return false;
    for (const space of searchSpaces) if (((await core.approvedAnswers?.list(space)) ?? []).length > 0) return false;
    return true;
  };
  return async (request, response) => {
    const body = await readJsonObject(request, 64 * 1024);
    const question = typeof body.question === "string" ? body.question.trim() : "";
    if (question === "" || question.length > MAX_QUESTION_CHARACTERS) {
      throw new FolioError(
        "invalid_question",
        `Send {"question": "..."} with 1 to ${MAX_QUESTION_CHARACTERS} characters.`,
        { details: { status: 400 } },
      );
    }
    const requestId = String(response.getHeader("X-Request-Id") ?? randomUUID());
    const conversation = await history.readConversation(HISTORY_TURNS);
    await history.appendEntry({ kind: "question", id: randomUUID(), at: new Date().toISOString(), text: question });
    const empty = await spacesAreEmpty();

    const abort = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) abort.abort();
    });
    response.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    });
    const send = (event: AnswerEvent) => {
      if (!response.writableEnded) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };

    let finished = false;
    try {
      const events = empty
        ? emptySpaceEvents(requestId)
        : core.answerQuestion(question, {
            spaceIds: searchSpaces,
            history: conversation,
            requestId,
            signal: abort.signal,
          });
      for await (const event of events) {
        if (event.type === "done" || event.type === "error") {
          finished = true;
          const outcome =
            event.type === "done"
              ? { text: event.answer.answer, noContext: event.answer.noContext, citations: event.answer.citations }
              : { text: "", noContext: true, citations: [], error: { code: event.code, message: event.message } };
          await history.appendEntry({
            kind: "answer",
            id: randomUUID(),
            at: new Date().toISOString(),
            requestId,
            ...outcome,
          });
        }
        send(event);
      }
    } catch (error) {
      options.logger.error({ requestId, code: describeError(error).code, err: error }, "console answer failed");
      if (!finished) send({ type: "error", requestId, ...describeError(error) });
    }
    response.end();
  };
}
