/**
 * POST /api/upload: files received into the console space (refused before reading when the declared
 * size is over, or when four uploads are being received already), each ingested in turn with its
 * progress streamed as NDJSON lines and its result kept in the console's history.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { FolioError, isFolioError } from "../errors.js";
import type { FolioCore } from "../folio-core.js";
import type { IngestResult, SameNamePolicy } from "../ingest/ingest-result.js";
import type { Logger } from "../logger.js";
import { describeError } from "./console-errors.js";
import type { ConsoleEntry, ConsoleHistory } from "./console-history.js";
import { MULTIPART_OVERHEAD_BYTES, type ReceivedFile, receiveFiles, tooLarge } from "./receive-files.js";
import { createReceiveGate, type ReceiveGate } from "./work-gate.js";

/**
 * Uploads received at once, into any of the console's spaces. Each is held in memory until the
 * ingestion queue takes it, so without a cap twelve 45 MB uploads in parallel added 0.85 GB that stayed;
 * past it, a client is told to retry.
 */
export const MAX_CONCURRENT_UPLOADS = 4;

/** The upload's `?sameName=` (the console asks before sending a file whose name is already listed). */
function readSameNamePolicy(url: URL | undefined): SameNamePolicy {
  const value = url?.searchParams.get("sameName") ?? "replace";
  if (value === "replace" || value === "keep-both") return value;
  throw new FolioError("invalid_upload", 'sameName must be "replace" or "keep-both".', { details: { status: 400 } });
}

export function createConsoleUpload(options: {
  core: Pick<FolioCore, "ingestFile">;
  history: ConsoleHistory;
  spaceId: string;
  maxUploadBytes: number;
  logger: Logger;
  /** Uploads whose bodies are being read now, shared by every space (see MAX_CONCURRENT_UPLOADS). */
  receiving?: ReceiveGate;
}): (request: IncomingMessage, response: ServerResponse, url?: URL) => Promise<void> {
  const { core, history, spaceId } = options;
  const receiving = options.receiving ?? createReceiveGate(MAX_CONCURRENT_UPLOADS);
  return async (request, response, url) => {
    const sameName = readSameNamePolicy(url);
    const meaning = url?.searchParams.get("meaning") === "wait" ? "wait" : "background";
    const declared = Number(request.headers["content-length"] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > options.maxUploadBytes + MULTIPART_OVERHEAD_BYTES) {
      // Refuse before reading; closing the connection stops the client from sending the rest.
      response.setHeader("Connection", "close");
      throw tooLarge(options.maxUploadBytes);
    }
    const leave = receiving.tryEnter();
    if (!leave) {
      response.setHeader("Connection", "close");
      response.setHeader("Retry-After", "5");
      throw new FolioError(
        "upload_busy",
        `Folio is receiving ${receiving.limit} uploads already — try again in a few seconds.`,
        { retryable: true, details: { status: 429 } },
      );
    }
    let files: ReceivedFile[];
    try {
      files = await receiveFiles(request, options.maxUploadBytes);
    } catch (error) {
      // The rest of the body is left unread; closing the connection stops the client sending it.
      if (isFolioError(error) && error.details.status === 413) response.setHeader("Connection", "close");
      throw error;
    } finally {
      leave();
    }
    if (files.length === 0) {
      throw new FolioError("no_file", "The upload holds no file; choose one and try again.", {
        details: { status: 400 },
      });
    }
    if (files.some((file) => file.truncated)) throw tooLarge(options.maxUploadBytes);

    response.writeHead(200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    });
    const writeLine = (value: unknown) => {
      if (!response.writableEnded) response.write(`${JSON.stringify(value)}\n`);
    };
    for (const file of files) {
      let result: IngestResult;
      try {
        result = await core.ingestFile({
          bytes: new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
          fileName: file.fileName,
          spaceId,
          uploader: "console",
          sameName,
          // Answered as soon as it is searchable by keywords (the document list shows the embedding);
          // `?meaning=wait` holds the answer until it is searchable by meaning too, for scripts.
          meaning,
          onProgress: (stage, progress) => writeLine({ type: "progress", file: file.fileName, stage, ...progress }),
        });
      } catch (error) {
        options.logger.error(
          { file: file.fileName, code: describeError(error).code, err: error },
          "console upload failed",
        );
        result = {
          file: file.fileName,
          documentId: null,
          status: "rejected",
          pages: null,
          chunks: 0,
          error: describeError(error),
        };
      }
      const entry: ConsoleEntry = { kind: "upload", id: randomUUID(), at: new Date().toISOString(), result };
      await history.appendEntry(entry);
      writeLine({ type: "result", id: entry.id, result });
    }
    response.end();
  };
}
