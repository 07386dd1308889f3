/**
 * Watches a FolioCore from the outside for one adapter: every question's outcome and stage timings
 * (including when its first answer text appeared), every upload's outcome, pages and duration, and
 * every chat event skipped as a duplicate go to the metrics port. The answer pipeline itself knows
 * nothing of metrics; the composition root hands each adapter its own observed core.
 */
import type { AnswerEvent } from "../answer/answer-events.js";
import type { FolioCore } from "../folio-core.js";
import type { FolioMetrics, QuestionOutcome, QuestionStage } from "./metrics.js";

/** Where the answer pipeline's `timingsMs` keys land among the reported stages. */
const STAGE_OF_TIMING: Record<string, QuestionStage> = {
  retrieval: "retrieval",
  "retrieval.embed": "embed",
  "retrieval.rerank": "rerank",
  generation: "generation",
  total: "total",
};

export function observeCore(core: FolioCore, metrics: FolioMetrics, adapter: string): FolioCore {
  return {
    ...core,
    answerQuestion: (question, context) => observeAnswer(core.answerQuestion(question, context), metrics, adapter),
    async ingestFile(input) {
      const started = performance.now();
      metrics.ingestionStarted(adapter);
      try {
        const result = await core.ingestFile(input);
        metrics.ingestionFinished({
          adapter,
          outcome: result.status,
          pages: result.pages ?? 0,
          durationMs: performance.now() - started,
        });
        return result;
      } catch (error) {
        metrics.ingestionFinished({ adapter, outcome: "error", pages: 0, durationMs: performance.now() - started });
        throw error;
      }
    },
    async markEventProcessed(eventId) {
      const firstTime = await core.markEventProcessed(eventId);
      if (!firstTime) metrics.duplicateEventSkipped(adapter);
      return firstTime;
    },
  };
}

async function* observeAnswer(
  events: AsyncIterable<AnswerEvent>,
  metrics: FolioMetrics,
  adapter: string,
): AsyncIterable<AnswerEvent> {
  const started = performance.now();
  let firstTextMs: number | undefined;
  let outcome: QuestionOutcome | undefined;
  let timingsMs: Record<string, number> = {};
  metrics.questionStarted(adapter);
  try {
    for await (const event of events) {
      if (event.type === "delta" && firstTextMs === undefined) firstTextMs = performance.now() - started;
      if (event.type === "done") {
        outcome = event.answer.noContext ? "noContext" : "answered";
        timingsMs = event.answer.timingsMs;
      }
      if (event.type === "error") outcome = event.code === "aborted" ? "cancelled" : "error";
      yield event;
    }
  } catch (error) {
    outcome = "error";
    throw error;
  } finally {
    // An adapter that stops reading early (the asker left) ends the question without done or error.
    const stagesMs: Partial<Record<QuestionStage, number>> = {};
    for (const [key, milliseconds] of Object.entries(timingsMs)) {
      const stage = STAGE_OF_TIMING[key];
      if (stage) stagesMs[stage] = milliseconds;
    }
    if (firstTextMs !== undefined) stagesMs.timeToFirstToken = firstTextMs;
    if (stagesMs.total === undefined && outcome !== undefined && outcome !== "cancelled")
      stagesMs.total = performance.now() - started;
    metrics.questionFinished({ adapter, outcome: outcome ?? "cancelled", stagesMs });
  }
}
