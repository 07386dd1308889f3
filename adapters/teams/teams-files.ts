/**
 * Files sent to Folio in a 1:1 chat: downloads the attachment's `downloadUrl` (a short-lived,
 * pre-authorised address — a bearer credential in itself, so it is never logged), checking the size
 * before and while reading, and hands the bytes to the core's ingestion for the target space. The
 * reply names the pages and chunks indexed, or the specific reason the file was refused. The address
 * comes from an activity a user sent, so it is fetched only from Microsoft's file hosts over HTTPS,
 * never from an internal address, redirects included (src/outbound/public-fetch.ts): an attachment
 * pointing at http://127.0.0.1/api/documents would otherwise be fetched and indexed.
 */
import { FolioError, toFolioError } from "../../src/errors.js";
import type { FolioCore } from "../../src/folio-core.js";
import type { IngestResult, MeaningUpdate } from "../../src/ingest/ingest-result.js";
import { fileTooLarge, readBodyWithinLimit } from "../../src/ingest/read-limited-body.js";
import type { Logger } from "../../src/logger.js";
import { fetchPublic, type OutboundPolicy } from "../../src/outbound/public-fetch.js";
import type { TeamsFile } from "./teams-activity.js";
import { buildIngestResultText, literalDocumentText } from "./teams-message-format.js";

/** Where Teams keeps files sent to a bot (SharePoint / OneDrive, every cloud), and nothing internal. */
export const TEAMS_FILE_DOWNLOADS: OutboundPolicy = {
  allowedHosts: [
    "*.sharepoint.com",
    "*.sharepoint.us",
    "*.sharepoint-mil.us",
    "*.sharepoint.de",
    "*.sharepoint.cn",
    "*.sharepoint-df.com",
    "*.svc.ms",
  ],
  allowPrivateAddresses: false,
  protocols: ["https:"],
};

/** Reads a Teams file, refusing more than `maxBytes` by its Content-Length and by what arrives. */
export async function downloadTeamsFile(options: {
  downloadUrl: string;
  maxBytes: number;
  signal?: AbortSignal;
  /** TEAMS_FILE_DOWNLOADS unless given (tests serve files from a loopback stand-in). */
  policy?: OutboundPolicy;
}): Promise<Uint8Array> {
  let parsed: URL;
  try {
    parsed = new URL(options.downloadUrl);
  } catch {
    throw new FolioError("teams_file_url_invalid", "Teams did not give Folio a usable download address for the file.");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new FolioError("teams_file_url_invalid", "Teams did not give Folio a usable download address for the file.");
  }
  const response = await fetchPublic(parsed, options.policy ?? TEAMS_FILE_DOWNLOADS, {
    signal: options.signal ?? AbortSignal.timeout(60_000),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new FolioError(
      "teams_file_download_failed",
      `Teams answered ${response.status} when Folio downloaded the file — send it again in a minute.`,
      { retryable: response.status >= 500 || response.status === 429 },
    );
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw fileTooLarge(options.maxBytes);
  }
  return readBodyWithinLimit(response, options.maxBytes);
}

export type IngestTeamsFileInput = {
  file: TeamsFile;
  spaceId: string;
  uploader: string;
  /** Shown in the reply when the file goes to another space than the chat's own (a channel). */
  targetLabel: string | null;
  requestId: string;
  /** Told how the embedding goes after the reply (teams-meaning-follower.ts). */
  onMeaning?: (update: MeaningUpdate) => void;
};

/** Downloads and ingests one file; returns the reply to send (never throws for a bad file). */
export async function ingestTeamsFile(
  dependencies: { core: FolioCore; logger: Logger; maxBytes: number; downloads?: OutboundPolicy },
  input: IngestTeamsFileInput,
): Promise<{ text: string; result: IngestResult | null }> {
  const log = dependencies.logger.child({ requestId: input.requestId, space: input.spaceId });
  const started = Date.now();
  try {
    const bytes = await downloadTeamsFile({
      downloadUrl: input.file.downloadUrl,
      maxBytes: dependencies.maxBytes,
      ...(dependencies.downloads ? { policy: dependencies.downloads } : {}),
    });
    const result = await dependencies.core.ingestFile({
      bytes,
      fileName: input.file.name,
      spaceId: input.spaceId,
      uploader: input.uploader,
      // Replied to once searchable by keywords; the passages are embedded after (describeIngestOutcome).
      meaning: "background",
      ...(input.onMeaning ? { onMeaning: input.onMeaning } : {}),
    });
    log.info(
      {
        status: result.status,
        documentId: result.documentId,
        errorCode: result.error?.code,
        latencyMs: Date.now() - started,
      },
      "teams file ingested",
    );
    return { text: buildIngestResultText(result, input.targetLabel), result };
  } catch (error) {
    const failure = toFolioError(error);
    log.error({ code: failure.code, error: failure.message, latencyMs: Date.now() - started }, "teams file failed");
    const text =
      failure.code === "internal_error"
        ? `Sorry — something went wrong while indexing ${literalDocumentText(input.file.name)}. Reference: \`${input.requestId}\``
        : `Could not index ${literalDocumentText(input.file.name)}: ${literalDocumentText(failure.message)} (reference \`${input.requestId}\`)`;
    return { text, result: null };
  }
}
