/**
 * Approved answers and questionnaires over the answer pipeline. Chat answers lead with a matching
 * approved answer; people's questions are counted as interactive, and questionnaire rows use the same
 * pipeline uncounted, waiting their turn. Rows ask the approved answers themselves (and say so in their
 * status), so they take the pipeline without the lead.
 */
import type { AnswerService } from "../answer/answer-question.js";
import { ApprovedAnswerLibrary } from "../answer-library/approved-answer-library.js";
import { createSqlApprovedAnswerStore } from "../answer-library/approved-answer-store.js";
import { leadWithApprovedAnswers } from "../answer-library/lead-with-approved-answer.js";
import type { FolioConfig } from "../config/config.js";
import type { Embedder } from "../embedding/embedder.js";
import type { Logger } from "../logger.js";
import { createInteractivePriority, type InteractivePriority } from "../questionnaire/jobs/interactive-priority.js";
import { createQuestionnaireService, type QuestionnaireService } from "../questionnaire/questionnaire-service.js";
import type { SqlClient } from "../stores/sql-client.js";
import type { FolioOptions } from "./folio.js";

/** The longest a questionnaire row waits behind people's questions before it goes anyway. */
const QUESTIONNAIRE_MAX_WAIT_MS = 5_000;

export type AssembledQuestionnaires = {
  answerLibrary: ApprovedAnswerLibrary;
  /** The pipeline chat adapters use: a matching approved answer leads. */
  chatAnswers: AnswerService;
  interactivePriority: InteractivePriority;
  questionnaires: QuestionnaireService;
};

export function assembleQuestionnaires(input: {
  config: FolioConfig;
  options: FolioOptions;
  client: SqlClient;
  answers: AnswerService;
  embedder: Embedder | null;
  logger: Logger;
}): AssembledQuestionnaires {
  const { config, answers, logger } = input;
  const answerLibrary = new ApprovedAnswerLibrary({
    store: createSqlApprovedAnswerStore(input.client),
    embedder: input.embedder,
    threshold: config.approvedAnswers.threshold,
    logger: logger.child({ component: "answer-library" }),
  });
  const chatAnswers = leadWithApprovedAnswers(answers, answerLibrary, logger.child({ component: "answer-library" }));
  const interactivePriority = createInteractivePriority({ maxWaitMs: QUESTIONNAIRE_MAX_WAIT_MS });
  const questionnaires = createQuestionnaireService({
    client: input.client,
    answerQuestion: (question, context) => answers.answerQuestion(question, context),
    priority: interactivePriority,
    settings: config.questionnaire,
    extraSpaceIds: config.librarySpaceId ? [config.librarySpaceId] : [],
    approvedAnswers: input.options.approvedAnswers ?? answerLibrary,
    logger,
  });
  return { answerLibrary, chatAnswers, interactivePriority, questionnaires };
}
