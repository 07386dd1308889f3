/**
 * Approved answers in a Teams 1:1 chat: a completed questionnaire sent with "add these as approved
 * answers" is downloaded (the way uploads are, same limits) and its question/answer pairs added to the
 * chat's space through the core's answer library, with who added them (the Teams user) and when. The
 * reply says how many were added, skipped and replaced, or why the file could not be used.
 */
import { addedAnswersNotes, plural } from "../../src/answer-library/added-answers-notes.js";
import type { ApprovedAnswers } from "../../src/answer-library/approved-answers.js";
import { toFolioError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import type { OutboundPolicy } from "../../src/outbound/public-fetch.js";
import type { TeamsFile } from "./teams-activity.js";
import { downloadTeamsFile } from "./teams-files.js";
import { literalDocumentText } from "./teams-message-format.js";

export type TeamsApprovedAnswersDependencies = {
  approvedAnswers: ApprovedAnswers | undefined;
  logger: Logger;
  maxBytes: number;
  /** Where files may be downloaded from; Microsoft's file hosts unless given. */
  fileHosts?: OutboundPolicy;
};

/** Adds the file's pairs to the chat's approved answers; returns the reply (markdown). */
export async function addApprovedAnswersInPersonalChat(
  dependencies: TeamsApprovedAnswersDependencies,
  input: { file: TeamsFile; spaceId: string; userId: string; requestId: string },
): Promise<string> {
  const log = dependencies.logger.child({ requestId: input.requestId, space: input.spaceId });
  const fileName = input.file.name;
  if (!dependencies.approvedAnswers) return "Approved answers are not available in this Folio.";
  try {
    const bytes = await downloadTeamsFile({
      downloadUrl: input.file.downloadUrl,
      maxBytes: dependencies.maxBytes,
      ...(dependencies.fileHosts ? { policy: dependencies.fileHosts } : {}),
    });
    const result = await dependencies.approvedAnswers.addQuestionnaire({
      spaceId: input.spaceId,
      fileName,
      bytes,
      addedBy: `teams:${input.userId}`,
    });
    log.info(
      { added: result.added, skipped: result.skippedRows, replaced: result.replaced },
      "teams approved answers added",
    );
    const notes = addedAnswersNotes(result);
    return [
      `Added ${plural(result.added, "approved answer")} from **${literalDocumentText(fileName)}** to your approved answers.`,
      ...notes.map((note) => `- ${note}`),
      "I answer matching questions here with them first, labelled as approved answers.",
    ].join("\n");
  } catch (error) {
    const failure = toFolioError(error);
    log.warn({ code: failure.code, error: failure.message }, "teams approved answers not added");
    return failure.code === "internal_error"
      ? `Sorry — something went wrong while reading ${literalDocumentText(fileName)}. Reference: \`${input.requestId}\``
      : `I can't add ${literalDocumentText(fileName)} as approved answers: ${literalDocumentText(failure.message)}`;
  }
}
