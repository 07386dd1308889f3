/** The real Folio core, observed: every question and its context are recorded before the core answers it. */
import type { AnswerContext } from "../../src/answer/answer-events.js";
import type { FolioCore } from "../../src/folio-core.js";

export type RecordedQuestion = { question: string; context: AnswerContext };

export function recordingAnswerContexts(core: FolioCore, recorded: RecordedQuestion[]): FolioCore {
  return {
    ...core,
    answerQuestion(question, context) {
      recorded.push({ question, context });
      return core.answerQuestion(question, context);
    },
  };
}
