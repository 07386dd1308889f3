/**
 * Chat answers lead with an approved answer when one matches the question: the labelled approved answer
 * and its origin come first, then the documents' answer with its citations, as always. Wraps the answer
 * service, so the pipeline itself (src/answer/answer-question.ts) is unchanged; `done` carries the match
 * in `answer.approvedAnswer`. The question is matched as asked, in a thread too (the console and chat
 * threads pass history with nearly every question): a bare follow-up ("and in transit?") is far below
 * the threshold and fails the guards. A failing library is logged and the documents answer alone.
 */
import type { AnswerContext, AnswerEvent } from "../answer/answer-events.js";
import type { AnswerService } from "../answer/answer-question.js";
import type { ApprovedAnswerMatch, ApprovedAnswerSource } from "../answer/approved-answer-source.js";
import type { Logger } from "../logger.js";

/** "from security-review.xlsx, sheet Security, row 14; added by U42 on 2026-11-02" */
export function describeApprovedAnswerOrigin(origin: ApprovedAnswerMatch["origin"]): string {
  const place = [origin.file, origin.sheet ? `sheet ${origin.sheet}` : null, origin.row ? `row ${origin.row}` : null]
    .filter((part) => part !== null)
    .join(", ");
  const added = [origin.addedBy ? `added by ${origin.addedBy}` : "added", `on ${origin.addedAt.slice(0, 10)}`].join(
    " ",
  );
  return `from ${place}; ${added}`;
}

/** The text that opens the reply; the documents' answer follows it. */
export function approvedAnswerLead(match: ApprovedAnswerMatch): string {
  return `Approved answer: ${match.answer}\n(${describeApprovedAnswerOrigin(match.origin)})\n\nFrom the documents: `;
}

async function bestMatch(
  source: ApprovedAnswerSource,
  spaceIds: string[],
  question: string,
): Promise<(ApprovedAnswerMatch & { spaceId: string }) | undefined> {
  let best: (ApprovedAnswerMatch & { spaceId: string }) | undefined;
  for (const spaceId of spaceIds) {
    const match = await source.match(spaceId, question);
    if (match && (!best || match.similarity > best.similarity)) best = { ...match, spaceId };
  }
  return best;
}

export function leadWithApprovedAnswers(
  service: AnswerService,
  source: ApprovedAnswerSource,
  logger: Logger,
): AnswerService {
  return {
    async *answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent> {
      let match: (ApprovedAnswerMatch & { spaceId: string }) | undefined;
      if (!context.signal?.aborted) {
        try {
          match = await bestMatch(source, context.spaceIds, question);
        } catch (error) {
          logger.warn(
            { requestId: context.requestId, err: error },
            "approved answers could not be matched; answering from the documents alone",
          );
        }
      }
      if (!match) {
        yield* service.answerQuestion(question, context);
        return;
      }
      const lead = approvedAnswerLead(match);
      yield { type: "delta", text: lead };
      for await (const event of service.answerQuestion(question, context)) {
        yield event.type === "done"
          ? {
              type: "done",
              answer: { ...event.answer, answer: `${lead}${event.answer.answer}`, approvedAnswer: match },
            }
          : event;
      }
    },
  };
}
