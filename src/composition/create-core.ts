/**
 * The FolioCore every adapter receives: questions (counted as interactive, so questionnaire rows wait),
 * uploads through the ingestion queue, the documents a space can see, deletion (its vectors with it, and
 * the console told), the event log that drops redeliveries, feedback and signed links.
 */
import type { AnswerService } from "../answer/answer-question.js";
import type { ApprovedAnswerLibrary } from "../answer-library/approved-answer-library.js";
import type { FolioCore } from "../folio-core.js";
import type { DocumentEvents } from "../ingest/document-events.js";
import type { IngestionService } from "../ingest/ingest-file.js";
import type { LinkSigner } from "../links/signed-links.js";
import { countAsInteractive, type InteractivePriority } from "../questionnaire/jobs/interactive-priority.js";
import type { QuestionnaireService } from "../questionnaire/questionnaire-service.js";
import type { Catalog } from "../stores/catalog.js";
import type { VectorIndex } from "../stores/vector-index.js";

export function createCore(parts: {
  catalog: Catalog;
  vectorIndex: VectorIndex;
  documentEvents: DocumentEvents;
  ingestion: IngestionService;
  linkSigner: LinkSigner;
  chatAnswers: AnswerService;
  answerLibrary: ApprovedAnswerLibrary;
  interactivePriority: InteractivePriority;
  questionnaires: QuestionnaireService;
}): FolioCore {
  const { catalog, vectorIndex, documentEvents, linkSigner } = parts;
  return {
    answerQuestion: (question, context) =>
      countAsInteractive(parts.interactivePriority, parts.chatAnswers.answerQuestion(question, context)),
    approvedAnswers: parts.answerLibrary,
    ingestFile: (input) => parts.ingestion.ingestFile(input),
    // A document still being indexed (or left by an interrupted upload) is nobody's to see yet.
    listDocuments: async (spaceId) =>
      (await catalog.listDocuments(spaceId)).filter((document) => document.status === "ready"),
    getDocument: (documentId) => catalog.getDocument(documentId),
    async deleteDocument(documentId) {
      const document = await catalog.getDocument(documentId);
      await vectorIndex.deleteByDocument(documentId);
      const deleted = await catalog.deleteDocument(documentId);
      if (deleted && document) documentEvents.publish({ type: "removed", spaceId: document.spaceId, documentId });
      return deleted;
    },
    markEventProcessed: (eventId) => catalog.markEventProcessed(eventId),
    releaseEvent: (eventId) => catalog.releaseEvent(eventId),
    async recordFeedback(input) {
      await catalog.addFeedback(input);
    },
    signedDocumentUrl: ({ documentId, page, section }) =>
      linkSigner.signDocumentUrl({ documentId, page: page ?? undefined, section }),
    questionnaires: parts.questionnaires,
  };
}
