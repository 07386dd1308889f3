/**
 * Approved answers in Slack: a completed questionnaire shared in a conversation is added to that
 * conversation's space as approved answers (`/folio answers add` on the latest file, "add these as
 * approved answers" in the file's thread or with the file) through the core's answer library, with
 * who added it (the Slack user) and when; the reply says how many were added, skipped and replaced.
 * `/folio answers list` shows them in short. The file is downloaded as uploads are (same size limit).
 */
import type { webApi } from "@slack/bolt";
import { addedAnswersNotes, plural } from "../../src/answer-library/added-answers-notes.js";
import type { AddQuestionnaireResult } from "../../src/answer-library/approved-answer-library.js";
import type { ApprovedAnswerRecord } from "../../src/answer-library/approved-answer-store.js";
import type { ApprovedAnswers } from "../../src/answer-library/approved-answers.js";
import { toFolioError } from "../../src/errors.js";
import type { Logger } from "../../src/logger.js";
import type { SlackFileObject } from "./slack-events.js";
import { completeFile, downloadSharedFile, type downloadSlackFile } from "./slack-files.js";
import { buildApologyText, escapeDocumentText } from "./slack-message-format.js";
import { type SlackConversation, spaceIdForConversation } from "./slack-space.js";

export { isApprovedAnswersRequest } from "../../src/answer-library/approved-answers-request.js";

/** How many approved answers `/folio answers list` shows before saying how many more there are. */
const LIST_LIMIT = 20;

export type SlackApprovedAnswersDependencies = {
  client: webApi.WebClient;
  approvedAnswers: ApprovedAnswers | undefined;
  botToken: string;
  apiOrigin: string | null;
  maxBytes: number;
  logger: Logger;
  createRequestId(): string;
  /** How the file's bytes are read; downloadSlackFile (with the bot token, within maxBytes) unless given. */
  download?: typeof downloadSlackFile;
};

/** Who added approved answers from Slack, as the answer library records it. */
export function slackAddedBy(conversation: SlackConversation): string {
  return `slack:${conversation.userId}`;
}

export function describeAddedAnswers(result: AddQuestionnaireResult, where: string): string {
  const notes = addedAnswersNotes(result, escapeDocumentText);
  return [
    `Added ${plural(result.added, "approved answer")} from *${escapeDocumentText(result.file)}* to ${where}.`,
    ...notes.map((note) => `• ${note}`),
    "I answer matching questions here with them first, labelled as approved answers. `/folio answers list` shows them.",
  ].join("\n");
}

/** The space's approved answers in short: question, where it came from, who added it and when, and its id. */
export function formatApprovedAnswerList(records: ApprovedAnswerRecord[]): string {
  if (records.length === 0) {
    return "No approved answers here yet — share a completed questionnaire, then `/folio answers add`.";
  }
  const lines = records.slice(0, LIST_LIMIT).map((record) => {
    const place = [record.file, record.sheet, record.row === null ? null : `row ${record.row}`]
      .filter((part) => part !== null)
      .join(", ");
    const who = record.addedBy?.startsWith("slack:") ? `<@${record.addedBy.slice(6)}>` : (record.addedBy ?? "unknown");
    return `• ${escapeDocumentText(record.question)} — _${escapeDocumentText(place)}; ${who}, ${record.addedAt.toISOString().slice(0, 10)}_ \`${record.id}\``;
  });
  const more = records.length > LIST_LIMIT ? [`…and ${records.length - LIST_LIMIT} more.`] : [];
  return [`*${plural(records.length, "approved answer")} here:*`, ...lines, ...more].join("\n");
}

/** Adds one shared file's question/answer pairs to the conversation's approved answers; replies in `threadTs`. */
export async function addApprovedAnswersFromFile(
  dependencies: SlackApprovedAnswersDependencies,
  input: { file: SlackFileObject; conversation: SlackConversation; threadTs: string },
): Promise<void> {
  const { client, logger } = dependencies;
  const { conversation, threadTs } = input;
  const channel = conversation.channelId;
  const requestId = dependencies.createRequestId();
  const spaceId = spaceIdForConversation(conversation);
  const log = logger.child({ requestId, spaceId, fileId: input.file.id });
  const post = (text: string) => client.chat.postMessage({ channel, thread_ts: threadTs, text });
  const file = await completeFile(client, input.file);
  const fileName = file.name ?? file.title ?? file.id;
  if (!dependencies.approvedAnswers) {
    await post("Approved answers are not available in this Folio.");
    return;
  }
  try {
    const bytes = await downloadSharedFile(file, dependencies);
    const result = await dependencies.approvedAnswers.addQuestionnaire({
      spaceId,
      fileName,
      bytes,
      addedBy: slackAddedBy(conversation),
    });
    log.info(
      { added: result.added, skipped: result.skippedRows, replaced: result.replaced },
      "slack approved answers added",
    );
    await post(describeAddedAnswers(result, conversation.isDirectMessage ? "your approved answers" : "this channel"));
  } catch (error) {
    const failure = toFolioError(error);
    log.warn({ code: failure.code, error: failure.message }, "slack approved answers not added");
    await post(
      failure.code === "internal_error"
        ? buildApologyText(requestId)
        : `I can't add ${escapeDocumentText(fileName)} as approved answers: ${escapeDocumentText(failure.message)}`,
    );
  }
}
