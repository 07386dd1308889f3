/**
 * Uploads shared in Slack: downloads a file's private URL with the bot token, hands the bytes to
 * the core's ingestion for the conversation's space, and keeps one message in the file's thread up
 * to date from "Received…" to "Indexed <name>: N pages, M chunks" or the reason it was refused.
 */
import type { webApi } from "@slack/bolt";
import { FolioError, toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { IngestProgress, IngestResult, IngestStage, MeaningUpdate } from "../../src/ingest/ingest-result.js";
import { fileTooLarge, readBodyWithinLimit } from "../../src/ingest/read-limited-body.js";
import type { Logger } from "../../src/logger.js";
import { fetchPublic, type OutboundPolicy } from "../../src/outbound/public-fetch.js";
import type { SlackFileObject } from "./slack-events.js";
import {
  buildApologyText,
  buildIngestProgressText,
  buildIngestResultText,
  escapeDocumentText,
} from "./slack-message-format.js";
import { type SlackConversation, spaceIdForConversation } from "./slack-space.js";

export type SlackFileDependencies = {
  client: webApi.WebClient;
  core: FolioCore;
  botToken: string;
  /** Origin of the configured Slack API (tests, GovSlack); downloads from it are allowed too. */
  apiOrigin: string | null;
  maxBytes: number;
  logger: Logger;
  /** Smallest gap between progress edits of the thread message. */
  progressIntervalMs: number;
  createRequestId(): string;
};

/** Media Folio cannot read at all; sharing a photo in a channel should not draw a refusal. */
const SILENTLY_SKIPPED_MEDIA = /^(image|video|audio)\//;

/**
 * The bot token must only ever travel to Slack: file URLs come from signed events, but a forged or
 * odd URL must not make Folio send its credentials elsewhere.
 */
export function isAllowedDownloadUrl(url: string, apiOrigin: string | null): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (apiOrigin !== null && parsed.origin === apiOrigin) return true;
  if (parsed.protocol !== "https:") return false;
  return ["slack.com", "slack-gov.com"].some(
    (domain) => parsed.hostname === domain || parsed.hostname.endsWith(`.${domain}`),
  );
}

/** Where Slack keeps shared files. */
const SLACK_FILE_DOWNLOADS: OutboundPolicy = {
  allowedHosts: ["slack.com", "*.slack.com", "slack-gov.com", "*.slack-gov.com"],
  allowPrivateAddresses: false,
  protocols: ["https:"],
};

/**
 * A file shared in Slack, downloaded with the bot token: refused before any download when Slack says it is
 * larger than `maxBytes` or gives no download link, and cut off past `maxBytes` whatever Slack said.
 */
export async function downloadSharedFile(
  file: Pick<SlackFileObject, "url_private_download" | "url_private" | "size">,
  options: { botToken: string; apiOrigin: string | null; maxBytes: number; download?: typeof downloadSlackFile },
): Promise<Uint8Array> {
  const url = file.url_private_download ?? file.url_private;
  if (file.size !== undefined && file.size > options.maxBytes) throw fileTooLarge(options.maxBytes);
  if (!url) throw new FolioError("slack_file_unavailable", "Slack did not give Folio a way to download this file.");
  return (options.download ?? downloadSlackFile)({
    url,
    botToken: options.botToken,
    apiOrigin: options.apiOrigin,
    maxBytes: options.maxBytes,
  });
}

/** Reads a file's bytes from Slack, refusing more than `maxBytes` even when Slack's `size` is wrong. */
export async function downloadSlackFile(options: {
  url: string;
  botToken: string;
  apiOrigin: string | null;
  maxBytes: number;
  signal?: AbortSignal;
}): Promise<Uint8Array> {
  if (!isAllowedDownloadUrl(options.url, options.apiOrigin)) {
    throw new FolioError("slack_file_url_rejected", "The file's download address is not on Slack.");
  }
  // Slack's hosts over HTTPS, never an internal address, redirects included (src/outbound/public-fetch.ts);
  // SLACK_API_URL, when set, is the operator's own (a test stand-in, GovSlack) and may be internal.
  const target = new URL(options.url);
  const policy: OutboundPolicy =
    options.apiOrigin !== null && target.origin === options.apiOrigin
      ? { allowedHosts: [target.hostname], allowPrivateAddresses: true, protocols: ["http:", "https:"] }
      : SLACK_FILE_DOWNLOADS;
  const response = await fetchPublic(target, policy, {
    headers: { Authorization: `Bearer ${options.botToken}` },
    signal: options.signal ?? AbortSignal.timeout(60_000),
  });
  if (!response.ok) {
    throw new FolioError("slack_file_download_failed", `Slack answered ${response.status} when downloading the file.`, {
      retryable: response.status >= 500 || response.status === 429,
    });
  }
  // Without the files:read scope Slack answers 200 with its sign-in page instead of the file.
  if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
    throw new FolioError(
      "slack_file_forbidden",
      "Slack returned a sign-in page instead of the file — add the files:read scope to the app and reinstall it.",
    );
  }
  return readBodyWithinLimit(response, options.maxBytes);
}

/** Fills in what a `message` event may leave out (Slack sends `file_access: check_file_info` stubs). */
export async function completeFile(client: webApi.WebClient, file: SlackFileObject): Promise<SlackFileObject> {
  if (file.url_private && file.name) return file;
  const info = await client.files.info({ file: file.id });
  return { ...file, ...(info.file as SlackFileObject | undefined) };
}

/**
 * Ingests one shared file into the conversation's space and reports in its thread. The same Slack
 * file is handled once even though Slack announces it twice (`message` with files and `file_shared`).
 */
export async function ingestSharedFile(
  dependencies: SlackFileDependencies,
  input: { file: SlackFileObject; conversation: SlackConversation; threadTs: string | undefined },
): Promise<IngestResult | null> {
  const { core, logger } = dependencies;
  const spaceId = spaceIdForConversation(input.conversation);
  // Once per file and space: the two announcements of one share collapse, while sharing the same file
  // into another channel indexes it there too. The space id already names the team.
  // A failure that a retry could fix (Slack or the network, the database) releases the claim, so sharing
  // the file again works; a file Folio refused keeps it: the same bytes would be refused again.
  const claim = `slack-file:${spaceId}:${input.file.id}`;
  if (!(await core.markEventProcessed(claim))) return null;
  const releaseClaim = () =>
    core.releaseEvent(claim).catch((error: unknown) => {
      logger.warn({ err: error, claim }, "could not release the file's claim; sharing it again will not retry");
    });
  try {
    return await ingestClaimedFile(dependencies, input, spaceId, releaseClaim);
  } catch (error) {
    await releaseClaim();
    throw error;
  }
}

async function ingestClaimedFile(
  dependencies: SlackFileDependencies,
  input: { file: SlackFileObject; conversation: SlackConversation; threadTs: string | undefined },
  spaceId: string,
  releaseClaim: () => Promise<void>,
): Promise<IngestResult | null> {
  const { client, core, logger } = dependencies;
  const { conversation, threadTs } = input;
  const file = await completeFile(client, input.file);
  if (file.mimetype && SILENTLY_SKIPPED_MEDIA.test(file.mimetype)) return null;
  const fileName = file.name ?? file.title ?? `${file.id}`;
  const requestId = dependencies.createRequestId();
  const log = logger.child({ requestId, spaceId, fileId: file.id });

  const posted = await client.chat.postMessage({
    channel: conversation.channelId,
    ...(threadTs ? { thread_ts: threadTs } : {}),
    text: buildIngestProgressText(fileName, "received"),
  });
  const messageTs = posted.ts;
  const updateMessage = async (text: string) => {
    if (!messageTs) return;
    await client.chat.update({ channel: conversation.channelId, ts: messageTs, text });
  };

  const started = Date.now();
  try {
    const bytes = await downloadSharedFile(file, dependencies);
    let lastProgressAt = Date.now();
    let progress: Promise<void> = Promise.resolve();
    // The reply, once posted, is edited as the passages are embedded after it (throttled like the
    // progress before it; the outcome always shown). Updates before the reply wait for it.
    const meaning = { result: null as IngestResult | null, latest: null as MeaningUpdate | null, shownAt: 0 };
    const showMeaning = (update: MeaningUpdate) => {
      meaning.latest = update;
      const { result } = meaning;
      const now = Date.now();
      if (!result || (update.state === "embedding" && now - meaning.shownAt < dependencies.progressIntervalMs)) return;
      meaning.shownAt = now;
      progress = progress
        .then(() => updateMessage(buildIngestResultText(result, update)))
        .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "progress update failed"));
    };
    const result: IngestResult = await core.ingestFile({
      bytes,
      fileName,
      spaceId,
      uploader: conversation.userId,
      // Replied to once searchable by keywords; the passages are embedded after (describeIngestOutcome).
      meaning: "background",
      onMeaning: showMeaning,
      onProgress: (stage: IngestStage, detail?: IngestProgress) => {
        const now = Date.now();
        if (stage === "done" || now - lastProgressAt < dependencies.progressIntervalMs) return;
        lastProgressAt = now;
        progress = progress
          .then(() => updateMessage(buildIngestProgressText(fileName, stage, detail)))
          .catch((error: unknown) => log.warn({ error: toFolioError(error).message }, "progress update failed"));
      },
    });
    await progress;
    await updateMessage(buildIngestResultText(result));
    meaning.result = result;
    meaning.shownAt = Date.now();
    // Embedding that moved on (or finished) while the reply was posted.
    if (meaning.latest) showMeaning(meaning.latest);
    log.info(
      {
        status: result.status,
        documentId: result.documentId,
        latencyMs: Date.now() - started,
        errorCode: result.error?.code,
      },
      "slack file ingested",
    );
    return result;
  } catch (error) {
    await releaseClaim();
    const folioError = toFolioError(error);
    const knownReason = folioError.code !== "internal_error";
    log.error(
      { code: folioError.code, error: folioError.message, latencyMs: Date.now() - started },
      "slack file failed",
    );
    await updateMessage(
      knownReason
        ? `Could not index ${escapeDocumentText(fileName)}: ${escapeDocumentText(folioError.message)} (reference \`${requestId}\`)`
        : buildApologyText(requestId),
    ).catch((updateError: unknown) => log.warn({ error: toFolioError(updateError).message }, "apology failed"));
    return null;
  }
}
