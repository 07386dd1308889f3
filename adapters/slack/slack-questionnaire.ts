/**
 * Questionnaires in Slack: "answer this questionnaire" in a file's thread (a mention or a direct
 * message) or `/folio questionnaire` on the channel's most recent file. Downloads the shared file the
 * way uploads are downloaded (slack-files.ts, same size limit), submits it to the core's questionnaire
 * jobs (read as questions, never as a source), keeps one progress message in the thread up to date
 * (throttled chat.update), uploads the filled copy back into the thread (files.getUploadURLExternal, the
 * bytes to the returned URL, files.completeUploadExternal) and posts the summary. A file that is not a
 * questionnaire gets the specific reason in the thread.
 */
import type { webApi } from "@slack/bolt";
import { FolioError, toFolioError } from "../../src/errors.js";
import type { ChatQuestionnaires } from "../../src/folio-core.js";
import { fileTooLarge } from "../../src/ingest/read-limited-body.js";
import type { Logger } from "../../src/logger.js";
import { describeProgress, type QuestionnaireProgress } from "../../src/questionnaire/questionnaire-progress.js";
import type { SlackFileObject } from "./slack-events.js";
import { downloadSlackFile, isAllowedDownloadUrl } from "./slack-files.js";
import { buildApologyText, escapeMrkdwn } from "./slack-message-format.js";
import { type SlackConversation, spaceIdForConversation } from "./slack-space.js";

export { isQuestionnaireCancel, isQuestionnaireRequest } from "../../src/questionnaire/questionnaire-request.js";

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
  /** How the file's bytes are read; downloadSlackFile (with the bot token, within maxBytes) unless given. */
  download?: typeof downloadSlackFile;
};

function summaryText(progress: QuestionnaireProgress): string {
  const seconds = Math.max(1, Math.round(progress.elapsedMs / 1000));
  const took = seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return [
    `*${escapeMrkdwn(progress.fileName)}* — ${progress.total} question${progress.total === 1 ? "" : "s"} in ${took}:`,
    `• ${progress.answered} answered`,
    `• ${progress.notFound} not found in the documents`,
    `• ${progress.needsReview} need review`,
    `• ${progress.errors} error${progress.errors === 1 ? "" : "s"}`,
    "The filled copy above has Answer, Status, Sources and Quote columns; check rows marked “needs review” before sending it.",
  ].join("\n");
}

/** Posts bytes as a file in a thread: getUploadURLExternal, the bytes to its URL, completeUploadExternal. */
export async function uploadFileToThread(
  dependencies: Pick<SlackQuestionnaireDependencies, "client" | "apiOrigin">,
  input: { channelId: string; threadTs: string; fileName: string; bytes: Uint8Array; comment?: string },
): Promise<string> {
  const { client } = dependencies;
  const target = await client.files.getUploadURLExternal({
    filename: input.fileName,
    length: input.bytes.byteLength,
  });
  if (!target.upload_url || !target.file_id) {
    throw new FolioError("slack_upload_failed", "Slack did not give an address to upload the filled copy to.");
  }
  // The address comes from Slack's answer; the bytes still only ever go to Slack (or the configured API host).
  if (!isAllowedDownloadUrl(target.upload_url, dependencies.apiOrigin)) {
    throw new FolioError("slack_upload_url_rejected", "Slack's upload address is not on Slack; the file was not sent.");
  }
  const response = await fetch(target.upload_url, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream" },
    body: input.bytes,
    redirect: "error",
    signal: AbortSignal.timeout(120_000),
  });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) {
    throw new FolioError("slack_upload_failed", `Slack answered ${response.status} to the filled copy's upload.`, {
      retryable: response.status >= 500,
    });
  }
  await client.files.completeUploadExternal({
    files: [{ id: target.file_id, title: input.fileName }],
    channel_id: input.channelId,
    thread_ts: input.threadTs,
    ...(input.comment ? { initial_comment: input.comment } : {}),
  });
  return target.file_id;
}

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
  let file = input.file;
  if (!file.url_private || !file.name) {
    const info = await client.files.info({ file: file.id });
    file = { ...file, ...(info.file as SlackFileObject | undefined) };
  }
  const fileName = file.name ?? file.title ?? file.id;
  const post = (text: string) => client.chat.postMessage({ channel, thread_ts: threadTs, text });

  const questionnaires = dependencies.questionnaires;
  if (!questionnaires) {
    await post("Questionnaires are not available in this Folio.");
    return;
  }
  const started = Date.now();
  let jobId: string;
  try {
    const url = file.url_private_download ?? file.url_private;
    if (file.size !== undefined && file.size > dependencies.maxBytes) throw fileTooLarge(dependencies.maxBytes);
    if (!url) throw new FolioError("slack_file_unavailable", "Slack did not give Folio a way to download this file.");
    const bytes = await (dependencies.download ?? downloadSlackFile)({
      url,
      botToken: dependencies.botToken,
      apiOrigin: dependencies.apiOrigin,
      maxBytes: dependencies.maxBytes,
    });
    const job = await questionnaires.submit({ bytes, fileName, spaceId, requestedBy: conversation.userId });
    jobId = job.id;
  } catch (error) {
    const failure = toFolioError(error);
    log.warn({ code: failure.code, error: failure.message }, "slack questionnaire refused");
    await post(
      failure.code === "internal_error"
        ? buildApologyText(requestId)
        : `I can't answer ${escapeMrkdwn(fileName)} as a questionnaire: ${escapeMrkdwn(failure.message)}`,
    );
    return;
  }

  await input
    .onAccepted?.()
    .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "questionnaire follow-up failed"));
  const posted = await post(`Answering *${escapeMrkdwn(fileName)}*… reading the questions. Say “cancel” here to stop.`);
  const progressTs = posted.ts;
  // One edit at a time, at most one per interval; the last progress seen is always written before the summary.
  let lastWrittenAt = 0;
  let latest: QuestionnaireProgress | null = null;
  let writing: Promise<void> = Promise.resolve();
  const writeProgress = (progress: QuestionnaireProgress) => {
    if (!progressTs) return;
    lastWrittenAt = Date.now();
    const text = `Answering *${escapeMrkdwn(fileName)}*: ${describeProgress(progress)}`;
    writing = writing
      .then(async () => {
        await client.chat.update({ channel, ts: progressTs, text });
      })
      .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "progress update failed"));
  };
  const threadKey = `${channel}:${threadTs}`;
  dependencies.threadJobs?.set(threadKey, jobId);
  const unsubscribe = questionnaires.onProgress(jobId, (progress) => {
    latest = progress;
    if (Date.now() - lastWrittenAt >= dependencies.progressIntervalMs) writeProgress(progress);
  });
  try {
    const settled = await questionnaires.whenSettled(jobId);
    unsubscribe();
    const final = (await questionnaires.progress(jobId)) ?? latest;
    if (final) writeProgress(final);
    await writing;
    if (!settled || !final || settled.status !== "succeeded") {
      await post(
        `Stopped answering ${escapeMrkdwn(fileName)}: ${final ? describeProgress(final) : "the job is gone"}.`,
      );
      return;
    }
    const copy = await questionnaires.filledCopy(jobId);
    if (!copy) throw new FolioError("questionnaire_copy_missing", "The filled copy could not be written.");
    await uploadFileToThread(dependencies, {
      channelId: channel,
      threadTs,
      fileName: copy.fileName,
      bytes: copy.bytes,
    });
    await post(summaryText(final));
    log.info({ jobId, total: final.total, latencyMs: Date.now() - started }, "slack questionnaire answered");
  } catch (error) {
    unsubscribe();
    const failure = toFolioError(error);
    log.error({ jobId, code: failure.code, error: failure.message }, "slack questionnaire failed");
    await post(
      failure.code === "internal_error"
        ? buildApologyText(requestId)
        : `Answering ${escapeMrkdwn(fileName)} failed: ${escapeMrkdwn(failure.message)} (reference \`${requestId}\`)`,
    ).catch(() => undefined);
  } finally {
    if (dependencies.threadJobs?.get(threadKey) === jobId) dependencies.threadJobs.delete(threadKey);
  }
}
