/**
 * The web console's side of the server: its static files, its JSON API (console-api.ts), questionnaires
 * (questionnaire-api.ts), approved answers and the live document list — each refused first unless
 * FOLIO_CONSOLE lets this request in (console-access.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Folio } from "../composition-root.js";
import type { Logger } from "../logger.js";
import { CONSOLE_REQUEST_HEADER, type ConsoleHosts, cameThroughProxy, consoleRefusal } from "./console-access.js";
import { createConsoleApi } from "./console-api.js";
import {
  CONSOLE_ANSWER_PREFIX,
  CONSOLE_ANSWERS_PATH,
  createConsoleApprovedAnswers,
} from "./console-approved-answers.js";
import { CONSOLE_ASSETS, serveConsoleAsset } from "./console-assets.js";
import { createConsoleDocumentStreams } from "./console-document-events.js";
import { createConsoleHistory } from "./console-history.js";
import { sendJsonError } from "./http-responses.js";
import { createQuestionnaireApi } from "./questionnaire-api.js";
import { createReceiveGate } from "./work-gate.js";

const CONSOLE_QUESTIONNAIRE_PATHS = new Set([
  "/api/questionnaires",
  "/api/questionnaires/preview",
  "/api/questionnaires/progress",
  "/api/questionnaires/cancel",
  "/api/questionnaires/filled",
]);
const CONSOLE_API_PATHS = new Set([
  "/api/history",
  "/api/documents",
  "/api/upload",
  "/api/ask",
  "/api/conversation",
  ...CONSOLE_QUESTIONNAIRE_PATHS,
  CONSOLE_ANSWERS_PATH,
]);
/** The live document list: a long-lived stream, so not admitted as work in progress (see the gate). */
export const CONSOLE_DOCUMENT_EVENTS_PATH = "/api/documents/events";
const CONSOLE_DOCUMENT_PREFIX = "/api/documents/";

export type ConsoleRoutes = {
  /** Serves the request when it is the console's; false when it is not. */
  serve(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean>;
  /** Ends every open document stream (the server is closing). */
  closeStreams(): void;
};

export function createConsoleRoutes(options: {
  folio: Pick<
    Folio,
    "core" | "catalog" | "config" | "coreFor" | "questionnaires" | "documentEvents" | "meaningIndexer" | "linkSigner"
  >;
  spaceId: string;
  consoleAssetsDir: string;
  maxUploadBytes: number;
  logger: Logger;
}): ConsoleRoutes {
  const { folio, spaceId, logger } = options;
  const consoleHosts: ConsoleHosts = {
    publicHost: new URL(folio.config.publicUrl).hostname.toLowerCase(),
    allowedHosts: folio.config.consoleAllowedHosts,
  };
  const consoleApi = createConsoleApi({
    core: folio.coreFor("console"),
    history: createConsoleHistory({ dataDir: folio.config.dataDir, spaceId, logger }),
    spaceId,
    librarySpaceId: folio.config.librarySpaceId,
    maxUploadBytes: options.maxUploadBytes,
    countSections: async (documentId) => (await folio.catalog.listChunks(documentId)).length,
    ...(folio.meaningIndexer
      ? { meaningProgressOf: folio.meaningIndexer.progressOf, meaningFailed: folio.meaningIndexer.hasFailed }
      : {}),
    logger,
  });
  // Questionnaires and approved answers share one cap on files received and read at once.
  const questionnaireReceiving = createReceiveGate(folio.config.questionnaire.maxReceiving);
  const consoleAnswers = createConsoleApprovedAnswers({
    core: folio.coreFor("console"),
    spaceId,
    maxUploadBytes: options.maxUploadBytes,
    logger,
    receiving: questionnaireReceiving,
  });
  const documentStreams = createConsoleDocumentStreams({ events: folio.documentEvents, spaceId });
  const questionnaireApi = createQuestionnaireApi({
    questionnaires: folio.questionnaires,
    maxBytes: folio.config.questionnaire.maxBytes,
    fixedSpaceId: spaceId,
    receiving: questionnaireReceiving,
    downloads: { linkSigner: folio.linkSigner },
  });

  const handled = async (work: void | Promise<void>): Promise<true> => {
    await work;
    return true;
  };

  /** The console's own requests, once access is granted; false for a path that is not one of them. */
  const route = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const method = request.method ?? "GET";
    const { pathname } = url;
    if (CONSOLE_QUESTIONNAIRE_PATHS.has(pathname)) {
      if (await questionnaireApi.handle(request, response, url, pathname.slice("/api/".length))) return true;
    }
    const asset = CONSOLE_ASSETS[pathname];
    if (method === "GET") {
      if (pathname === "/api/history") return handled(consoleApi.history(response));
      if (pathname === "/api/documents") return handled(consoleApi.documents(response));
      if (pathname === CONSOLE_ANSWERS_PATH) return handled(consoleAnswers.list(response));
      if (pathname === CONSOLE_DOCUMENT_EVENTS_PATH) return handled(documentStreams.open(response));
      if (asset) return handled(serveConsoleAsset(response, options.consoleAssetsDir, asset));
    }
    if (method === "POST") {
      if (pathname === "/api/upload") return handled(consoleApi.upload(request, response, url));
      if (pathname === "/api/ask") return handled(consoleApi.ask(request, response));
      if (pathname === "/api/conversation") return handled(consoleApi.startConversation(response));
      if (pathname === CONSOLE_ANSWERS_PATH) return handled(consoleAnswers.add(request, response, url));
    }
    if (method === "DELETE" && pathname.startsWith(CONSOLE_ANSWER_PREFIX)) {
      return handled(consoleAnswers.remove(response, pathname.slice(CONSOLE_ANSWER_PREFIX.length)));
    }
    if (
      method === "DELETE" &&
      pathname.startsWith(CONSOLE_DOCUMENT_PREFIX) &&
      pathname !== CONSOLE_DOCUMENT_EVENTS_PATH
    ) {
      // Document ids are UUIDs: nothing in one needs decoding, and a malformed escape must not cost a 500.
      return handled(consoleApi.deleteDocument(response, pathname.slice(CONSOLE_DOCUMENT_PREFIX.length)));
    }
    return false;
  };

  return {
    async serve(request, response, url) {
      const { pathname } = url;
      const isConsolePath =
        CONSOLE_API_PATHS.has(pathname) ||
        CONSOLE_ASSETS[pathname] !== undefined ||
        pathname.startsWith(CONSOLE_DOCUMENT_PREFIX) ||
        pathname.startsWith(CONSOLE_ANSWER_PREFIX);
      if (isConsolePath) {
        const refusal = consoleRefusal(
          folio.config.consoleAccess,
          {
            method: request.method ?? "GET",
            remoteAddress: request.socket.remoteAddress,
            host: request.headers.host,
            hasConsoleHeader: request.headers[CONSOLE_REQUEST_HEADER] !== undefined,
            viaProxy: cameThroughProxy(request.headers),
            origin: request.headers.origin,
          },
          consoleHosts,
        );
        if (refusal) {
          sendJsonError(response, refusal.status, refusal.code, refusal.message);
          return true;
        }
      }
      return route(request, response, url);
    },
    closeStreams: () => documentStreams.closeAll(),
  };
}
