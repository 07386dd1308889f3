/**
 * The local web console's JSON API: upload files into the console space (console-upload.ts: progress
 * streamed as NDJSON), ask a question (console-ask.ts: answer events streamed as SSE, earlier turns of the
 * conversation passed as its history), read the thread back, start a new conversation, list and delete
 * documents. It only calls FolioCore, like every other adapter.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Citation } from "../answer/answer-events.js";
import type { DocumentRecord } from "../domain/types.js";
import { FolioError } from "../errors.js";
import type { FolioCore } from "../folio-core.js";
import type { Logger } from "../logger.js";
import { createConsoleAsk } from "./console-ask.js";
import type { ConsoleHistory } from "./console-history.js";
import { createConsoleUpload } from "./console-upload.js";
import { sendJson } from "./http-responses.js";
import type { ReceiveGate } from "./work-gate.js";

export { EMPTY_SPACE_ANSWER } from "./console-ask.js";
export { type ReceivedFile, receiveFiles } from "./receive-files.js";

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
  /** Uploads being received, shared by the console's spaces. */
  uploadReceiving?: ReceiveGate;
  logger: Logger;
};

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

  const resign = (citation: Citation): Citation => ({
    ...citation,
    url: core.signedDocumentUrl({
      documentId: citation.documentId,
      page: citation.pageStart,
      section: citation.section ?? null,
    }),
  });

  return {
    upload: createConsoleUpload({
      ...options,
      ...(options.uploadReceiving ? { receiving: options.uploadReceiving } : {}),
    }),
    ask: createConsoleAsk({ core, history, searchSpaces, logger: options.logger }),

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
      // Only this console space's own documents: other spaces, the library and chat spaces are managed where they live.
      if (!document || document.spaceId !== spaceId) {
        throw new FolioError(
          "document_not_found",
          "That document is not in this console space (it may already be deleted).",
          {
            details: { status: 404 },
          },
        );
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
