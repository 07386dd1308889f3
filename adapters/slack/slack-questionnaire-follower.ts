/**
 * Follows a questionnaire job in the Slack thread it was asked in: keeps its one progress message up to
 * date (throttled chat.update), and once it ends uploads the filled copy into the thread
 * (files.getUploadURLExternal, the bytes to the returned URL, files.completeUploadExternal) and posts the
 * summary — or says why it stopped. The thread is the job's stored destination (`slackDestination`), so a
 * job resumed after a restart, by whichever process claims it, is followed the same way. When this
 * process stops first, the message says the job is paused, and the next start goes on from there.
 */
import type { webApi } from "@slack/bolt";
import { FolioError, toFolioError } from "../../src/errors.js";
import type { ChatQuestionnaires } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import type { QuestionnaireDestination } from "../../src/questionnaire/jobs/questionnaire-destination.js";
import { describeProgress, type QuestionnaireProgress } from "../../src/questionnaire/jobs/questionnaire-progress.js";
import { isAllowedDownloadUrl } from "./slack-files.js";
import { buildApologyText, escapeDocumentText } from "./slack-message-format.js";

export const SLACK_DESTINATION = "slack";

/** Where a job reports in Slack: the conversation, the thread, and the progress message once posted. */
export type SlackJobAddress = {
  teamId: string;
  channelId: string;
  threadTs: string;
  /** The progress message edited in place; null until it is posted. */
  progressTs: string | null;
};

export function slackDestination(address: SlackJobAddress): QuestionnaireDestination {
  return { adapter: SLACK_DESTINATION, address: { ...address } };
}

/** The Slack address of a job's destination; null when the job is another adapter's (or has none). */
export function readSlackJobAddress(destination: QuestionnaireDestination | null): SlackJobAddress | null {
  if (destination?.adapter !== SLACK_DESTINATION) return null;
  const { teamId, channelId, threadTs, progressTs } = destination.address;
  if (typeof teamId !== "string" || typeof channelId !== "string" || typeof threadTs !== "string") return null;
  return { teamId, channelId, threadTs, progressTs: typeof progressTs === "string" ? progressTs : null };
}

export type SlackFollowerDependencies = {
  client: webApi.WebClient;
  questionnaires: ChatQuestionnaires;
  apiOrigin: string | null;
  logger: Logger;
  /** Smallest gap between two edits of the progress message. */
  progressIntervalMs: number;
  /** Jobs followed by this process, by `<channel>:<thread ts>`, so "cancel" in the thread finds its job. */
  threadJobs?: Map<string, string>;
};

export function summaryText(progress: QuestionnaireProgress): string {
  const seconds = Math.max(1, Math.round(progress.elapsedMs / 1000));
  const took = seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return [
    `*${escapeDocumentText(progress.fileName)}* — ${progress.total} question${progress.total === 1 ? "" : "s"} in ${took}:`,
    `• ${progress.answered} answered`,
    `• ${progress.notFound} not found in the documents`,
    `• ${progress.needsReview} need review`,
    `• ${progress.errors} error${progress.errors === 1 ? "" : "s"}`,
    "The filled copy above has Answer, Status, Sources and Quote columns; check rows marked “needs review” before sending it.",
  ].join("\n");
}

/** Posts bytes as a file in a thread: getUploadURLExternal, the bytes to its URL, completeUploadExternal. */
export async function uploadFileToThread(
  dependencies: { client: webApi.WebClient; apiOrigin: string | null },
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

/** Resolves when the signal aborts (never, without one). */
function whenAborted(signal: AbortSignal | undefined): Promise<"stopped"> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve("stopped");
    else signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
}

/**
 * Follows one job to its end in its thread. `resumed` says this process took the job over after a
 * restart (the progress message says so); `stop` is this process shutting down: the follower lets go
 * and leaves the message saying the job is paused.
 */
export async function followQuestionnaireInThread(
  dependencies: SlackFollowerDependencies,
  input: {
    jobId: string;
    fileName: string;
    address: SlackJobAddress;
    requestId: string;
    resumed?: boolean;
    stop?: AbortSignal;
  },
): Promise<void> {
  const { client, questionnaires } = dependencies;
  const { jobId, fileName, address, requestId } = input;
  const channel = address.channelId;
  const threadTs = address.threadTs;
  const log = dependencies.logger.child({ requestId, jobId });
  const started = Date.now();
  const post = (text: string) => client.chat.postMessage({ channel, thread_ts: threadTs, text });
  const label = `*${escapeDocumentText(fileName)}*${input.resumed ? " (resumed after a restart)" : ""}`;

  let progressTs = address.progressTs;
  if (progressTs === null) {
    // Lost between the job's creation and its first message (a restart): post it now, and remember it.
    const posted = await post(`Answering ${label}… Say “cancel” here to stop.`);
    progressTs = posted.ts ?? null;
    if (progressTs) await questionnaires.setDestination(jobId, slackDestination({ ...address, progressTs }));
  }
  // One edit at a time, at most one per interval; the last progress seen is always written before the summary.
  let lastWrittenAt = 0;
  let latest: QuestionnaireProgress | null = null;
  let writing: Promise<void> = Promise.resolve();
  const writeLine = (text: string) => {
    if (!progressTs) return;
    const ts = progressTs;
    lastWrittenAt = Date.now();
    writing = writing
      .then(async () => {
        await client.chat.update({ channel, ts, text });
      })
      .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "progress update failed"));
  };
  const writeProgress = (progress: QuestionnaireProgress) =>
    writeLine(`Answering ${label}: ${describeProgress(progress)}`);

  const threadKey = `${channel}:${threadTs}`;
  dependencies.threadJobs?.set(threadKey, jobId);
  const unsubscribe = questionnaires.onProgress(jobId, (progress) => {
    latest = progress;
    if (Date.now() - lastWrittenAt >= dependencies.progressIntervalMs) writeProgress(progress);
  });
  try {
    // A resumed job says where it is; a job waiting for a slot says how many wait before it.
    const now = await questionnaires.progress(jobId);
    if (now && (input.resumed || (now.status === "queued" && now.ahead !== null))) writeProgress(now);
    const settled = await Promise.race([questionnaires.whenSettled(jobId), whenAborted(input.stop)]);
    unsubscribe();
    const final = (await questionnaires.progress(jobId)) ?? latest;
    if (settled === "stopped" || settled?.status === "running" || settled?.status === "queued") {
      // This process is stopping with the job unfinished: the next start resumes it and reports here.
      const done = final ? `${final.done}/${final.total} done` : "unfinished";
      writeLine(`Answering ${label}: paused at ${done} — Folio is restarting and goes on from there when it is back.`);
      await writing;
      log.info({ done: final?.done ?? null }, "slack questionnaire paused for a restart");
      return;
    }
    if (final) writeProgress(final);
    await writing;
    if (!settled || !final || settled.status !== "succeeded") {
      await post(
        `Stopped answering ${escapeDocumentText(fileName)}: ${final ? describeProgress(final) : "the job is gone"}.`,
      );
      await questionnaires.markReported(jobId);
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
    await questionnaires.markReported(jobId);
    log.info({ total: final.total, latencyMs: Date.now() - started }, "slack questionnaire answered");
  } catch (error) {
    unsubscribe();
    const failure = toFolioError(error);
    log.error({ code: failure.code, error: failure.message }, "slack questionnaire failed");
    await post(
      failure.code === "internal_error"
        ? buildApologyText(requestId)
        : `Answering ${escapeDocumentText(fileName)} failed: ${escapeDocumentText(failure.message)} (reference \`${requestId}\`)`,
    ).catch(() => undefined);
    await questionnaires.markReported(jobId).catch(() => undefined);
  } finally {
    if (dependencies.threadJobs?.get(threadKey) === jobId) dependencies.threadJobs.delete(threadKey);
  }
}
