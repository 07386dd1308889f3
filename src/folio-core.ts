/**
 * What adapters (console, Slack, Teams) and the CLI are given: the few calls they may make into the
 * core. Built by the composition root (src/composition-root.ts).
 */
import type { AnswerContext, AnswerEvent } from "./answer/answer-events.js";
import type { ApprovedAnswers } from "./answer-library/approved-answers.js";
import type { DocumentRecord, FeedbackRating, SpaceId } from "./domain/types.js";
import type { IngestInput, IngestResult } from "./ingest/ingest-result.js";
import type { QuestionnaireService } from "./questionnaire/questionnaire-service.js";

/**
 * What a chat adapter needs of questionnaire jobs: start one, follow it (again after a restart, through
 * the destination stored with it), cancel it, fetch the filled copy.
 */
export type ChatQuestionnaires = Pick<
  QuestionnaireService,
  | "submit"
  | "getJob"
  | "listJobs"
  | "progress"
  | "onProgress"
  | "whenSettled"
  | "cancel"
  | "filledCopy"
  | "setDestination"
  | "onResumed"
  | "markReported"
>;

export type SignedLinkRequest = {
  documentId: string;
  page?: number | null;
  /** A section's heading path (Markdown, HTML, Word, text): the link opens the viewer there. */
  section?: readonly string[] | null;
};

export interface FolioCore {
  answerQuestion(question: string, context: AnswerContext): AsyncIterable<AnswerEvent>;
  ingestFile(input: IngestInput): Promise<IngestResult>;
  listDocuments(spaceId: SpaceId): Promise<DocumentRecord[]>;
  deleteDocument(documentId: string): Promise<boolean>;
  getDocument(documentId: string): Promise<DocumentRecord | null>;
  /** True the first time an event id is seen, across processes. */
  markEventProcessed(eventId: string): Promise<boolean>;
  /** Forgets an event id after a failure a retry could fix, so the next delivery is handled. */
  releaseEvent(eventId: string): Promise<void>;
  recordFeedback(input: { answerId: string; spaceId: SpaceId; user: string; rating: FeedbackRating }): Promise<void>;
  /** An absolute, signed, expiring URL of the source viewer for a document (and page). */
  signedDocumentUrl(request: SignedLinkRequest): string;
  /** The spaces' approved answers (answer library); absent in cores built without one (test doubles). */
  approvedAnswers?: ApprovedAnswers;
  /** Questionnaire jobs (src/questionnaire/); absent in cores built without them (test doubles). */
  questionnaires?: ChatQuestionnaires;
}
