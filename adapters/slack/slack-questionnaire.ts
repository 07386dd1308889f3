/**
 * Questionnaires in Slack: "answer this questionnaire" in a file's thread (a mention or a direct
 * message) or `/folio questionnaire` on the channel's most recent file. Downloads the shared file the
 * way uploads are downloaded (slack-files.ts, same size limit), submits it to the core's questionnaire
 * jobs (read as questions, never as a source) with the thread as the job's destination, posts the
 * progress message, and follows the job to its filled copy and summary (slack-questionnaire-follower.ts).
 * A file that is not a questionnaire gets the specific reason in the thread.
 */
import type { webApi } from "@slack/bolt";
import { toFolioError } from "../../src/errors.js";
import type { ChatQuestionnaires } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import type { SlackFileObject } from "./slack-events.js";
import { completeFile, downloadSharedFile, type downloadSlackFile } from "./slack-files.js";
import { buildApologyText, escapeDocumentText } from "./slack-message-format.js";
import { followQuestionnaireInThread, type SlackJobAddress, slackDestination } from "./slack-questionnaire-follower.js";
import { type SlackConversation, spaceIdForConversation } from "./slack-space.js";

export { isQuestionnaireCancel, isQuestionnaireRequest } from "../../src/questionnaire/questionnaire-request.js";
export { uploadFileToThread } from "./slack-questionnaire-follower.js";

/** A message as conversations.history / conversations.replies return it, with its files. */
export type SlackMessageWithFiles = { ts?: string; thread_ts?: string; bot_id?: string; files?: SlackFileObject[] };

/** The newest file a person shared among `messages` (Folio's own uploads, such as filled copies, skipped). */
export function findLatestSharedFile(
  messages: SlackMessageWithFiles[],
): { file: SlackFileObject; message: SlackMessageWithFiles } | null {
  const withFiles = messages
    .filter((message) => message.bot_id === undefined && (message.files?.length ?? 0) > 0)
    .sort((left, right) => Number(right.ts ?? 0) - Number(left.ts ?? 0));
  const message = withFiles[0];
  const file = message?.files?.at(-1);
  return message && file ? { file, message } : null;
}

export type SlackQuestionnaireDependencies = {
  client: webApi.WebClient;
  questionnaires: ChatQuestionnaires | undefined;
  botToken: string;
  apiOrigin: string | null;
  maxBytes: number;
  logger: Logger;
  /** Smallest gap between two edits of the progress message. */
  progressIntervalMs: number;
  createRequestId(): string;
  /** Jobs being answered by this process, by `<channel>:<thread ts>`, so "cancel" in the thread finds its job. */
  threadJobs?: Map<string, string>;
  /** Aborted when the adapter stops: followers let go of their jobs (the next start resumes them). */
  stop?: AbortSignal;
  /** How the file's bytes are read; downloadSlackFile (with the bot token, within maxBytes) unless given. */
  download?: typeof downloadSlackFile;
};

/**
 * Answers one shared file as a questionnaire, reporting in `threadTs` of the conversation. Resolves
 * once the summary is posted (or the refusal).
 */
export async function answerQuestionnaireInThread(
  dependencies: SlackQuestionnaireDependencies,
  input: {
    file: SlackFileObject;
    conversation: SlackConversation;
    threadTs: string;
    /** Called once the file was read as a questionnaire and its job stored (not for a refused file). */
    onAccepted?: () => Promise<void>;
  },
): Promise<void> {
  const { client, logger } = dependencies;
  const { conversation, threadTs } = input;
  const channel = conversation.channelId;
  const requestId = dependencies.createRequestId();
  const spaceId = spaceIdForConversation(conversation);
  const log = logger.child({ requestId, spaceId, fileId: input.file.id });
  const file = await completeFile(client, input.file);
  const fileName = file.name ?? file.title ?? file.id;
  const post = (text: string) => client.chat.postMessage({ channel, thread_ts: threadTs, text });

  const questionnaires = dependencies.questionnaires;
  if (!questionnaires) {
    await post("Questionnaires are not available in this Folio.");
    return;
  }
  const destination: SlackJobAddress = {
    teamId: conversation.teamId,
    channelId: channel,
    threadTs,
    progressTs: null,
  };
  let jobId: string;
  try {
    const bytes = await downloadSharedFile(file, dependencies);
    const job = await questionnaires.submit({
      bytes,
      fileName,
      spaceId,
      requestedBy: conversation.userId,
      destination: slackDestination(destination),
    });
    jobId = job.id;
  } catch (error) {
    const failure = toFolioError(error);
    log.warn({ code: failure.code, error: failure.message }, "slack questionnaire refused");
    await post(
      failure.code === "internal_error"
        ? buildApologyText(requestId)
        : `I can't answer ${escapeDocumentText(fileName)} as a questionnaire: ${escapeDocumentText(failure.message)}`,
    );
    return;
  }

  await input
    .onAccepted?.()
    .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "questionnaire follow-up failed"));
  const posted = await post(
    `Answering *${escapeDocumentText(fileName)}*… reading the questions. Say “cancel” here to stop.`,
  );
  const address: SlackJobAddress = { ...destination, progressTs: posted.ts ?? null };
  if (address.progressTs) await questionnaires.setDestination(jobId, slackDestination(address));
  await followQuestionnaireInThread(
    { ...dependencies, questionnaires },
    { jobId, fileName, address, requestId, stop: dependencies.stop },
  );
}
