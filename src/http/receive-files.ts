/**
 * Receiving a multipart upload into memory within its limits: the files' bytes against the upload limit,
 * the whole body (text fields and part headers included) against the limit plus the multipart overhead
 * — a chunked request declares no Content-Length, so these counts are what bound it — at most 20 files
 * and a few fields. Shared by console uploads and approved-answer files.
 */
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { FolioError } from "../errors.js";

const MAX_FILES_PER_UPLOAD = 20;
/** The console sends no text fields; a few are tolerated for other clients. */
const MAX_FIELDS_PER_UPLOAD = 10;
/** Room for multipart boundaries and headers around the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export type ReceivedFile = { fileName: string; bytes: Buffer; truncated: boolean };

/** Shared wording with the console, which checks sizes before sending (adapters/console/console.js). */
function describeLimit(maxBytes: number): string {
  const megabytes = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  // A limit under 0.1 MB would read "0 MB"; say the bytes instead.
  return megabytes > 0 ? `${megabytes} MB` : `${maxBytes} byte`;
}

export function tooLarge(maxBytes: number): FolioError {
  return new FolioError("file_too_large", `The file is larger than the ${describeLimit(maxBytes)} upload limit.`, {
    details: { status: 413 },
  });
}

/** The limit holds for the request as a whole, so several files each under it cannot add up past it. */
function uploadTooLarge(maxBytes: number): FolioError {
  return new FolioError(
    "file_too_large",
    `The files in this upload add up to more than the ${describeLimit(maxBytes)} upload limit.`,
    { details: { status: 413 } },
  );
}

function tooManyFiles(): FolioError {
  return new FolioError("too_many_files", `Upload at most ${MAX_FILES_PER_UPLOAD} files at a time.`, {
    details: { status: 413 },
  });
}

/**
 * Reads the multipart body into memory, counting every file byte against maxBytes, and every byte of
 * the body (text fields and part headers included) against maxBytes plus the multipart overhead: a
 * chunked request declares no Content-Length, so these counts are what bound it. Stops reading at the
 * first byte over.
 */
export function receiveFiles(request: IncomingMessage, maxBytes: number): Promise<ReceivedFile[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // utf8: busboy reads a multipart file name as Latin-1 unless told ("Übersicht.txt" became "Ãbersicht.txt").
      parser = busboy({
        headers: request.headers,
        defParamCharset: "utf8",
        limits: { fileSize: maxBytes, files: MAX_FILES_PER_UPLOAD, fields: MAX_FIELDS_PER_UPLOAD },
      });
    } catch {
      reject(
        new FolioError("invalid_upload", "Send files as multipart/form-data.", {
          details: { status: 400 },
        }),
      );
      return;
    }
    let settled = false;
    const unreadable = (error: unknown) =>
      new FolioError("invalid_upload", "The upload could not be read as multipart/form-data.", {
        cause: error,
        details: { status: 400 },
      });
    const fail = (error: FolioError) => {
      if (settled) return;
      settled = true;
      request.unpipe(parser);
      parser.removeAllListeners();
      // busboy may still emit on the streams it holds; a no-op listener keeps "error" from throwing.
      parser.on("error", () => {});
      parser.destroy();
      reject(error);
    };
    const files: ReceivedFile[] = [];
    let totalBytes = 0;
    let bodyBytes = 0;
    // Text fields are not files but still arrive: 112 MB of them were once accepted in a chunked body.
    request.on("data", (chunk: Buffer) => {
      bodyBytes += chunk.length;
      if (bodyBytes > maxBytes + MULTIPART_OVERHEAD_BYTES) fail(uploadTooLarge(maxBytes));
    });
    parser.on("file", (_field, stream, info) => {
      const parts: Buffer[] = [];
      const file: ReceivedFile = { fileName: info.filename || "upload", bytes: Buffer.alloc(0), truncated: false };
      files.push(file);
      stream.on("data", (part: Buffer) => {
        if (settled) return;
        totalBytes += part.length;
        if (totalBytes > maxBytes) {
          fail(files.length > 1 ? uploadTooLarge(maxBytes) : tooLarge(maxBytes));
          return;
        }
        parts.push(part);
      });
      // Destroying the parser destroys the open file stream with an error; it must not go unheard.
      stream.on("error", (error: unknown) => fail(unreadable(error)));
      stream.on("limit", () => {
        file.truncated = true;
      });
      stream.on("end", () => {
        file.bytes = Buffer.concat(parts);
      });
    });
    parser.on("filesLimit", () => fail(tooManyFiles()));
    parser.on("fieldsLimit", () =>
      fail(
        new FolioError("invalid_upload", "The upload holds more form fields than a file upload needs.", {
          details: { status: 413 },
        }),
      ),
    );
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      resolve(files);
    });
    parser.on("error", (error: unknown) => fail(unreadable(error)));
    request.pipe(parser);
  });
}
