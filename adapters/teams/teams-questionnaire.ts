/**
 * Questionnaires in a Teams 1:1 chat: a file sent with "answer this questionnaire" is downloaded (the
 * way uploads are, same limits), answered as questions (never indexed), with one progress message
 * edited in place; the filled copy is offered with a file consent card (bots cannot attach files in
 * Teams). When the user accepts, Teams gives an upload address: the bytes are PUT there, and a file
 * info card shows the file in the chat. The summary (answered, not found, needs review, errors, time
 * taken) follows the card. The chat's conversation reference is stored with the job as its destination,
 * so a job resumed after a restart is followed again by a proactive message in the same chat
 * (`followQuestionnaireInPersonalChat`); a process that stops first says the job is paused.
 */
import { FolioError, toFolioError } from "../../src/errors.js";
import type { ChatQuestionnaires } from "../../src/folio-core.js";
import type { Logger } from "../../src/logger.js";
import {
  fetchPublic,
  hostAllowed,
  type OutboundPolicy,
  type PublicFetchInit,
} from "../../src/outbound/public-fetch.js";
import type { QuestionnaireDestination } from "../../src/questionnaire/jobs/questionnaire-destination.js";
import { describeProgress, type QuestionnaireProgress } from "../../src/questionnaire/jobs/questionnaire-progress.js";
import type { TeamsFile, TeamsUploadInfo } from "./teams-activity.js";
import { downloadTeamsFile, TEAMS_FILE_DOWNLOADS } from "./teams-files.js";
import { literalDocumentText } from "./teams-message-format.js";

export const FILE_CONSENT_CARD = "application/vnd.microsoft.teams.card.file.consent";
export const FILE_INFO_CARD = "application/vnd.microsoft.teams.card.file.info";

/** What this module sends through: a new activity (its id back), or an edit of an earlier message. */
export type TeamsChat = {
  send(activity: Record<string, unknown>): Promise<string | null>;
  update(activityId: string, text: string): Promise<void>;
};

export type TeamsQuestionnaireDependencies = {
  questionnaires: ChatQuestionnaires | undefined;
  logger: Logger;
  maxBytes: number;
  /** Where files may be downloaded from and the filled copy uploaded to; Microsoft's file hosts unless given. */
  fileHosts?: OutboundPolicy;
  /** Smallest gap between two edits of the progress message. */
  progressIntervalMs: number;
  /** Aborted when the adapter stops: followers let go of their jobs (the next start resumes them). */
  stop?: AbortSignal;
  /** Jobs this process follows in a chat, so a "cancel" knows the follower will say that it stopped. */
  followedJobs?: Set<string>;
};

export const TEAMS_DESTINATION = "teams";

/** Where a job reports in Teams: the chat's conversation reference (for proactive messages) and the progress message. */
export type TeamsJobAddress = {
  /** The Bot Framework conversation reference, as JSON. */
  reference: Record<string, unknown>;
  progressActivityId: string | null;
};

export function teamsDestination(address: TeamsJobAddress): QuestionnaireDestination {
  return { adapter: TEAMS_DESTINATION, address: { ...address } };
}

/** The Teams address of a job's destination; null when the job is another adapter's (or has none). */
export function readTeamsJobAddress(destination: QuestionnaireDestination | null): TeamsJobAddress | null {
  if (destination?.adapter !== TEAMS_DESTINATION) return null;
  const { reference, progressActivityId } = destination.address;
  if (typeof reference !== "object" || reference === null) return null;
  return {
    reference: reference as Record<string, unknown>,
    progressActivityId: typeof progressActivityId === "string" ? progressActivityId : null,
  };
}

const text = (value: string) => ({ type: "message", text: value, textFormat: "markdown" });

export function buildSummaryText(progress: QuestionnaireProgress): string {
  const seconds = Math.max(1, Math.round(progress.elapsedMs / 1000));
  const took = seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return [
    `**${literalDocumentText(progress.fileName)}** — ${progress.total} question${progress.total === 1 ? "" : "s"} in ${took}:`,
    `- ${progress.answered} answered`,
    `- ${progress.notFound} not found in the documents`,
    `- ${progress.needsReview} need review`,
    `- ${progress.errors} error${progress.errors === 1 ? "" : "s"}`,
  ].join("\n");
}

/** The card that asks the user where to put the filled copy (their OneDrive); the job travels in its context. */
export function buildFileConsentCard(input: { jobId: string; fileName: string; sizeInBytes: number }) {
  return {
    contentType: FILE_CONSENT_CARD,
    name: input.fileName,
    content: {
      description: "The filled questionnaire: Answer, Status, Sources and Quote columns added.",
      sizeInBytes: input.sizeInBytes,
      acceptContext: { jobId: input.jobId },
      declineContext: { jobId: input.jobId },
    },
  };
}

export function buildFileInfoCard(uploadInfo: TeamsUploadInfo) {
  return {
    contentType: FILE_INFO_CARD,
    contentUrl: uploadInfo.contentUrl,
    name: uploadInfo.name,
    content: { uniqueId: uploadInfo.uniqueId, fileType: uploadInfo.fileType },
  };
}

/** Answers one file as a questionnaire in the chat; resolves once the card and summary are sent (or the refusal). */
export async function answerQuestionnaireInPersonalChat(
  dependencies: TeamsQuestionnaireDependencies,
  chat: TeamsChat,
  input: {
    file: TeamsFile;
    spaceId: string;
    userId: string;
    requestId: string;
    /** The chat's conversation reference, kept with the job for proactive messages after a restart. */
    reference: Record<string, unknown>;
  },
): Promise<void> {
  const { questionnaires } = dependencies;
  const log = dependencies.logger.child({ requestId: input.requestId, space: input.spaceId });
  const fileName = input.file.name;
  if (!questionnaires) {
    await chat.send(text("Questionnaires are not available in this Folio."));
    return;
  }
  let jobId: string;
  try {
    const bytes = await downloadTeamsFile({
      downloadUrl: input.file.downloadUrl,
      maxBytes: dependencies.maxBytes,
      ...(dependencies.fileHosts ? { policy: dependencies.fileHosts } : {}),
    });
    const destination = teamsDestination({ reference: input.reference, progressActivityId: null });
    jobId = (
      await questionnaires.submit({
        bytes,
        fileName,
        spaceId: input.spaceId,
        requestedBy: input.userId,
        destination,
      })
    ).id;
  } catch (error) {
    const failure = toFolioError(error);
    log.warn({ code: failure.code, error: failure.message }, "teams questionnaire refused");
    await chat.send(
      text(
        failure.code === "internal_error"
          ? `Sorry — something went wrong while reading ${literalDocumentText(fileName)}. Reference: \`${input.requestId}\``
          : `I can't answer ${literalDocumentText(fileName)} as a questionnaire: ${literalDocumentText(failure.message)}`,
      ),
    );
    return;
  }

  const progressId = await chat.send(
    text(`Answering **${literalDocumentText(fileName)}**… reading the questions. Say “cancel” to stop.`),
  );
  if (progressId) {
    await questionnaires.setDestination(
      jobId,
      teamsDestination({ reference: input.reference, progressActivityId: progressId }),
    );
  }
  await followQuestionnaireInPersonalChat({ ...dependencies, questionnaires }, chat, {
    jobId,
    fileName,
    progressId,
    requestId: input.requestId,
  });
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
 * Follows one job to its end in the chat: progress edited in place, then the consent card for the
 * filled copy and the summary, or why it stopped. `resumed`: this process took the job over after a
 * restart (the progress line says so, and a lost progress message is sent again).
 */
export async function followQuestionnaireInPersonalChat(
  dependencies: TeamsQuestionnaireDependencies & { questionnaires: ChatQuestionnaires },
  chat: TeamsChat,
  input: { jobId: string; fileName: string; progressId: string | null; requestId: string; resumed?: boolean },
): Promise<void> {
  const { questionnaires } = dependencies;
  const { jobId } = input;
  const log = dependencies.logger.child({ requestId: input.requestId, jobId });
  const label = `**${literalDocumentText(input.fileName)}**${input.resumed ? " (resumed after a restart)" : ""}`;
  const progressId = input.progressId ?? (await chat.send(text(`Answering ${label}…`)));
  let lastWrittenAt = 0;
  let writing: Promise<void> = Promise.resolve();
  const writeLine = (line: string) => {
    if (!progressId) return;
    lastWrittenAt = Date.now();
    writing = writing
      .then(() => chat.update(progressId, line))
      .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "progress update failed"));
  };
  const writeProgress = (progress: QuestionnaireProgress) =>
    writeLine(`Answering ${label}: ${describeProgress(progress)}`);
  dependencies.followedJobs?.add(jobId);
  const unsubscribe = questionnaires.onProgress(jobId, (progress) => {
    if (Date.now() - lastWrittenAt >= dependencies.progressIntervalMs) writeProgress(progress);
  });
  try {
    // A resumed job says where it is; a job waiting for a slot says how many wait before it.
    const now = await questionnaires.progress(jobId);
    if (now && (input.resumed || (now.status === "queued" && now.ahead !== null))) writeProgress(now);
    const settled = await Promise.race([questionnaires.whenSettled(jobId), whenAborted(dependencies.stop)]);
    unsubscribe();
    const final = await questionnaires.progress(jobId);
    if (settled === "stopped" || settled?.status === "running" || settled?.status === "queued") {
      const done = final ? `${final.done}/${final.total} done` : "unfinished";
      writeLine(`Answering ${label}: paused at ${done} — Folio is restarting and goes on from there when it is back.`);
      await writing;
      log.info({ done: final?.done ?? null }, "teams questionnaire paused for a restart");
      return;
    }
    if (final) writeProgress(final);
    await writing;
    if (!settled || !final || settled.status !== "succeeded") {
      await chat.send(
        text(
          `Stopped answering ${literalDocumentText(input.fileName)}: ${final ? describeProgress(final) : "the job is gone"}.`,
        ),
      );
      await questionnaires.markReported(jobId);
      return;
    }
    const copy = await questionnaires.filledCopy(jobId).catch(async (error: unknown) => {
      // A copy the worker refused is recorded with the job (#37): said once here, never written again.
      const failure = toFolioError(error);
      if (!failure.code.startsWith("questionnaire_")) throw error;
      log.warn({ code: failure.code }, "teams questionnaire copy refused");
      await chat.send(
        text(
          `Answered ${literalDocumentText(input.fileName)}, but its filled copy cannot be written: ${literalDocumentText(failure.message)}`,
        ),
      );
      return "refused" as const;
    });
    if (copy === "refused") {
      await chat.send(text(buildSummaryText(final)));
      await questionnaires.markReported(jobId);
      return;
    }
    if (!copy) throw new FolioError("questionnaire_copy_missing", "The filled copy could not be written.");
    await chat.send({
      type: "message",
      attachments: [buildFileConsentCard({ jobId, fileName: copy.fileName, sizeInBytes: copy.bytes.byteLength })],
    });
    await chat.send(text(buildSummaryText(final)));
    await questionnaires.markReported(jobId);
    log.info({ total: final.total }, "teams questionnaire answered");
  } finally {
    unsubscribe();
    dependencies.followedJobs?.delete(jobId);
  }
}

/**
 * "cancel" in a 1:1 chat: stops the person's open questionnaire jobs there, wherever they are answered
 * (the cancel is recorded in the catalog for another replica). Returns the reply, or null when the
 * follower in this process will say that the job stopped.
 */
export async function cancelQuestionnaireInPersonalChat(
  dependencies: Pick<TeamsQuestionnaireDependencies, "questionnaires" | "followedJobs">,
  input: { spaceId: string; userId: string },
): Promise<string | null> {
  const questionnaires = dependencies.questionnaires;
  if (!questionnaires) return "Questionnaires are not available in this Folio.";
  const open = (await questionnaires.listJobs(input.spaceId)).filter(
    (job) =>
      (job.status === "queued" || job.status === "running") &&
      (job.requestedBy === null || job.requestedBy === input.userId),
  );
  if (open.length === 0) return "No questionnaire of yours is being answered here — there is nothing to cancel.";
  const elsewhere: string[] = [];
  for (const job of open) {
    if (!(await questionnaires.cancel(job.id))) continue;
    if (!dependencies.followedJobs?.has(job.id)) elsewhere.push(job.fileName);
  }
  if (elsewhere.length === 0) return null;
  return `Cancelling ${elsewhere.map((name) => `**${name}**`).join(", ")}: answering stops after the row in progress.`;
}

/** PUTs the whole file to the upload address Teams gave (one range, as its upload sessions take it). */
export async function uploadToConsentedUrl(
  uploadUrl: string,
  bytes: Uint8Array,
  policy: OutboundPolicy = TEAMS_FILE_DOWNLOADS,
  /** Tests: the DNS lookup and what counts as internal (public-fetch.ts). */
  connect: Pick<PublicFetchInit, "lookup" | "isInternalAddress"> = {},
): Promise<void> {
  let target: URL;
  try {
    target = new URL(uploadUrl);
  } catch {
    throw new FolioError("teams_upload_url_invalid", "Teams gave an upload address Folio cannot use.");
  }
  const protocols: readonly string[] = policy.protocols ?? ["https:"];
  if (!protocols.includes(target.protocol) || !hostAllowed(target.hostname, policy.allowedHosts)) {
    throw new FolioError("teams_upload_url_rejected", "The upload address is not on Microsoft's file hosts.");
  }
  // Through fetchPublic, as downloads go (issue #30): the host must also resolve to no internal address.
  const response = await fetchPublic(target, policy, {
    method: "PUT",
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(bytes.byteLength),
      "Content-Range": `bytes 0-${bytes.byteLength - 1}/${bytes.byteLength}`,
    },
    body: bytes,
    redirect: "manual",
    signal: AbortSignal.timeout(120_000),
    ...connect,
  });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) {
    throw new FolioError("teams_upload_failed", `Teams answered ${response.status} to the filled copy's upload.`, {
      retryable: response.status >= 500,
    });
  }
}

/** After the consent card: uploads the filled copy and shows it (accept), or acknowledges (decline). */
export async function deliverFilledCopy(
  dependencies: TeamsQuestionnaireDependencies,
  chat: TeamsChat,
  input: {
    action: "accept" | "decline";
    jobId: string;
    uploadInfo: TeamsUploadInfo | null;
    spaceId: string;
    userId: string;
  },
): Promise<void> {
  const job = await dependencies.questionnaires?.getJob(input.jobId);
  // Only the person who asked, in the chat where they asked, gets the copy.
  if (!job || job.spaceId !== input.spaceId || (job.requestedBy !== null && job.requestedBy !== input.userId)) {
    await chat.send(text("That questionnaire is not one of yours here any more — send the file again."));
    return;
  }
  if (input.action === "decline" || !input.uploadInfo) {
    await chat.send(text(`OK — I did not upload the filled copy of ${literalDocumentText(job.fileName)}.`));
    return;
  }
  if (job.fileDeletedAt !== null) {
    await chat.send(
      text(
        `The file of ${literalDocumentText(job.fileName)} was deleted after the retention period — send it again to have it answered.`,
      ),
    );
    return;
  }
  const copy = await dependencies.questionnaires?.filledCopy(input.jobId);
  if (!copy) throw new FolioError("questionnaire_copy_missing", "The filled copy could not be written.");
  await uploadToConsentedUrl(input.uploadInfo.uploadUrl, copy.bytes, dependencies.fileHosts ?? TEAMS_FILE_DOWNLOADS);
  await chat.send({ type: "message", attachments: [buildFileInfoCard(input.uploadInfo)] });
}
