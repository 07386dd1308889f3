/**
 * The local web console's JSON API: upload files into the console space (progress streamed as
 * NDJSON), ask a question (answer events streamed as SSE, earlier turns of the conversation passed as
 * its history), read the thread back, start a new conversation, list and delete documents.
 * It only calls FolioCore, like every other adapter.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import busboy from "busboy";
import type { AnswerEvent, Citation } from "../answer/answer-events.js";
import type { DocumentRecord } from "../domain/types.js";
import { FolioError, isFolioError } from "../errors.js";
import type { FolioCore } from "../folio-core.js";
import type { IngestResult, SameNamePolicy } from "../ingest/ingest-result.js";
import type { Logger } from "../logger.js";
import type { ConsoleEntry, ConsoleHistory } from "./console-history.js";
import { sendJson } from "./http-responses.js";
import { readJsonObject } from "./read-body.js";

/** Earlier question/answer pairs handed to the answer pipeline, enough to resolve "it" and "that one". */
const HISTORY_TURNS = 3;
const MAX_QUESTION_CHARACTERS = 2_000;
const MAX_FILES_PER_UPLOAD = 20;
/** The console sends no text fields; a few are tolerated for other clients. */
const MAX_FIELDS_PER_UPLOAD = 10;
/**
 * Uploads received at once. Each is held in memory until the ingestion queue takes it, so without a cap
 * twelve 45 MB uploads in parallel added 0.85 GB that stayed; past it, a client is told to retry.
 */
const MAX_CONCURRENT_UPLOADS = 4;
/** The reply to a question asked before any document was added: what to do, not "couldn't find". */
export const EMPTY_SPACE_ANSWER = "No documents yet — drop a file here (or use Add files), then ask again.";
/** Room for multipart boundaries and headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export type ConsoleApi = {
  /**
   * `?sameName=replace|keep-both`: what the upload does to an earlier file of the same name (default
   * replace); `?meaning=wait`: answer once searchable by meaning, not only by keywords.
   */
  upload(request: IncomingMessage, response: ServerResponse, url?: URL): Promise<void>;
  ask(request: IncomingMessage, response: ServerResponse): Promise<void>;
  history(response: ServerResponse): Promise<void>;
  documents(response: ServerResponse): Promise<void>;
  deleteDocument(response: ServerResponse, documentId: string): Promise<void>;
  startConversation(response: ServerResponse): Promise<void>;
};

export type ConsoleApiOptions = {
  core: FolioCore;
  history: ConsoleHistory;
  spaceId: string;
  librarySpaceId: string | null;
  maxUploadBytes: number;
  /** How many passages ("sections" in the console) a document was split into. */
  countSections(documentId: string): Promise<number>;
  /**
   * Passages embedded so far for a document still being made searchable by meaning; null when it is not
   * waiting. Absent: keyword-only (no embedding model).
   */
  meaningProgressOf?: (documentId: string) => { done: number; total: number } | null;
  /** Whether a document's embedding failed (it stays searchable by keywords; retried at the next start). */
  meaningFailed?: (documentId: string) => boolean;
  logger: Logger;
};

export type ReceivedFile = { fileName: string; bytes: Buffer; truncated: boolean };

/** Errors the client can see: FolioError messages are written for people; anything else is hidden. */
function describeError(error: unknown): { code: string; message: string } {
  if (isFolioError(error)) return { code: error.code, message: error.message };
  return { code: "internal_error", message: "Something went wrong on the server; see its log." };
}

/** Shared wording with the console, which checks sizes before sending (adapters/console/console.js). */
function describeLimit(maxBytes: number): string {
  const megabytes = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  // A limit under 0.1 MB would read "0 MB"; say the bytes instead.
  return megabytes > 0 ? `${megabytes} MB` : `${maxBytes} byte`;
}

function tooLarge(maxBytes: number): FolioError {
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

/** The answer stream for a question asked of an empty console: no search, just what to do next. */
async function* emptySpaceEvents(requestId: string): AsyncIterable<AnswerEvent> {
  yield { type: "delta", text: EMPTY_SPACE_ANSWER };
  yield { type: "citations", citations: [] };
  yield {
    type: "done",
    answer: { requestId, answer: EMPTY_SPACE_ANSWER, noContext: true, citations: [], timingsMs: {} },
  };
}

/** The upload's `?sameName=` (the console asks before sending a file whose name is already listed). */
function readSameNamePolicy(url: URL | undefined): SameNamePolicy {
  const value = url?.searchParams.get("sameName") ?? "replace";
  if (value === "replace" || value === "keep-both") return value;
  throw new FolioError("invalid_upload", 'sameName must be "replace" or "keep-both".', { details: { status: 400 } });
}

/**
 * How a listed document can be found: every listed document by keywords; by meaning once its vectors
 * are written ("ready"), while they are being written ("pending", with passages done so far), not yet
 * because embedding failed ("failed": retried when the server next starts), or not at all without an
 * embedding model ("off").
 */
function describeSearchability(
  document: DocumentRecord,
  { meaningProgressOf, meaningFailed }: Pick<ConsoleApiOptions, "meaningProgressOf" | "meaningFailed">,
): { meaning: "ready" | "pending" | "failed" | "off"; meaningProgress?: { done: number; total: number } } {
  if (!meaningProgressOf) return { meaning: "off" };
  if (!document.awaitingMeaning) return { meaning: "ready" };
  if (meaningFailed?.(document.id)) return { meaning: "failed" };
  const progress = meaningProgressOf(document.id);
  return progress ? { meaning: "pending", meaningProgress: progress } : { meaning: "pending" };
}

export function createConsoleApi(options: ConsoleApiOptions): ConsoleApi {
  const { core, history, spaceId } = options;
  const searchSpaces = options.librarySpaceId ? [spaceId, options.librarySpaceId] : [spaceId];
  /** Uploads whose bodies are being read now (see MAX_CONCURRENT_UPLOADS). */
  let receiving = 0;

  const resign = (citation: Citation): Citation => ({
    ...citation,
    url: core.signedDocumentUrl({ documentId: citation.documentId, page: citation.pageStart }),
  });

  // Approved answers alone are worth asking: the answer then leads with the one that matches.
  const spacesAreEmpty = async (): Promise<boolean> => {
    for (const space of searchSpaces) if ((await core.listDocuments(space)).length > 0) return false;
    for (const space of searchSpaces) if (((await core.approvedAnswers?.list(space)) ?? []).length > 0) return false;
    return true;
  };

  return {
    async upload(request, response, url) {
      const sameName = readSameNamePolicy(url);
      const meaning = url?.searchParams.get("meaning") === "wait" ? "wait" : "background";
      const declared = Number(request.headers["content-length"] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > options.maxUploadBytes + MULTIPART_OVERHEAD_BYTES) {
        // Refuse before reading; closing the connection stops the client from sending the rest.
        response.setHeader("Connection", "close");
        throw tooLarge(options.maxUploadBytes);
      }
      if (receiving >= MAX_CONCURRENT_UPLOADS) {
        response.setHeader("Connection", "close");
        response.setHeader("Retry-After", "5");
        throw new FolioError(
          "upload_busy",
          `Folio is receiving ${MAX_CONCURRENT_UPLOADS} uploads already — try again in a few seconds.`,
          { retryable: true, details: { status: 429 } },
        );
      }
      let files: ReceivedFile[];
      receiving += 1;
      try {
        files = await receiveFiles(request, options.maxUploadBytes);
      } catch (error) {
        // The rest of the body is left unread; closing the connection stops the client sending it.
        if (isFolioError(error) && error.details.status === 413) response.setHeader("Connection", "close");
        throw error;
      } finally {
        receiving -= 1;
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
    },

    async ask(request, response) {
      const body = await readJsonObject(request, 64 * 1024);
      const question = typeof body.question === "string" ? body.question.trim() : "";
      if (question === "" || question.length > MAX_QUESTION_CHARACTERS) {
        throw new FolioError(
          "invalid_question",
          `Send {"question": "..."} with 1 to ${MAX_QUESTION_CHARACTERS} characters.`,
          { details: { status: 400 } },
        );
      }
      const requestId = String(response.getHeader("X-Request-Id") ?? randomUUID());
      const conversation = await history.readConversation(HISTORY_TURNS);
      await history.appendEntry({ kind: "question", id: randomUUID(), at: new Date().toISOString(), text: question });
      const empty = await spacesAreEmpty();

      const abort = new AbortController();
      response.on("close", () => {
        if (!response.writableFinished) abort.abort();
      });
      response.writeHead(200, {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
      });
      const send = (event: AnswerEvent) => {
        if (!response.writableEnded) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      };

      let finished = false;
      try {
        const events = empty
          ? emptySpaceEvents(requestId)
          : core.answerQuestion(question, {
              spaceIds: searchSpaces,
              history: conversation,
              requestId,
              signal: abort.signal,
            });
        for await (const event of events) {
          if (event.type === "done" || event.type === "error") {
            finished = true;
            const outcome =
              event.type === "done"
                ? { text: event.answer.answer, noContext: event.answer.noContext, citations: event.answer.citations }
                : { text: "", noContext: true, citations: [], error: { code: event.code, message: event.message } };
            await history.appendEntry({
              kind: "answer",
              id: randomUUID(),
              at: new Date().toISOString(),
              requestId,
              ...outcome,
            });
          }
          send(event);
        }
      } catch (error) {
        options.logger.error({ requestId, code: describeError(error).code, err: error }, "console answer failed");
        if (!finished) send({ type: "error", requestId, ...describeError(error) });
      }
      response.end();
    },

    async history(response) {
      const entries = (await history.readEntries()).map((entry) =>
        // Stored links may have expired since; hand out fresh ones.
        entry.kind === "answer" ? { ...entry, citations: entry.citations.map(resign) } : entry,
      );
      // The limit lets the console refuse an oversized file before sending it.
      sendJson(response, 200, { spaceId, maxUploadBytes: options.maxUploadBytes, entries });
    },

    async documents(response) {
      const documents = await core.listDocuments(spaceId);
      const sectionCounts = await Promise.all(documents.map((document) => options.countSections(document.id)));
      sendJson(response, 200, {
        spaceId,
        documents: documents.map((document, index) => ({
          id: document.id,
          title: document.title,
          fileName: document.fileName,
          mediaType: document.mediaType,
          pageCount: document.pageCount,
          sections: sectionCounts[index] ?? 0,
          ...describeSearchability(document, options),
          createdAt: document.createdAt.toISOString(),
          url: core.signedDocumentUrl({ documentId: document.id }),
        })),
      });
    },

    async deleteDocument(response, documentId) {
      const document = await core.getDocument(documentId);
      // Only the console's own documents: the library and chat spaces are managed where they live.
      if (!document || document.spaceId !== spaceId) {
        throw new FolioError("document_not_found", "That document is not in the console (it may already be deleted).", {
          details: { status: 404 },
        });
      }
      await core.deleteDocument(documentId);
      options.logger.info({ documentId, space: spaceId }, "console document deleted");
      sendJson(response, 200, { deleted: { id: document.id, fileName: document.fileName } });
    },

    async startConversation(response) {
      await history.appendEntry({ kind: "conversation_started", id: randomUUID(), at: new Date().toISOString() });
      sendJson(response, 200, { entries: [] });
    },
  };
}
