/**
 * The web console's side of the server: its static files, its spaces (console-spaces.ts) and, within the
 * space a request names (`?space=`, the default one otherwise), its JSON API (console-api.ts),
 * questionnaires (questionnaire-api.ts), approved answers and the live document list — each refused
 * first unless FOLIO_CONSOLE lets this request in (console-access.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Folio } from "../composition-root.js";
import type { Logger } from "../logger.js";
import { CONSOLE_REQUEST_HEADER, type ConsoleHosts, cameThroughProxy, consoleRefusal } from "./console-access.js";
import { type ConsoleApi, createConsoleApi } from "./console-api.js";
import {
  CONSOLE_ANSWER_PREFIX,
  CONSOLE_ANSWERS_PATH,
  type ConsoleApprovedAnswers,
  createConsoleApprovedAnswers,
} from "./console-approved-answers.js";
import { CONSOLE_ASSETS, serveConsoleAsset } from "./console-assets.js";
import { type ConsoleDocumentStreams, createConsoleDocumentStreams } from "./console-document-events.js";
import { createConsoleHistory } from "./console-history.js";
import { CONSOLE_SPACE_PREFIX_PATH, CONSOLE_SPACES_PATH, createConsoleSpaces } from "./console-spaces.js";
import { MAX_CONCURRENT_UPLOADS } from "./console-upload.js";
import { sendJsonError } from "./http-responses.js";
import { createQuestionnaireApi, type QuestionnaireApi } from "./questionnaire-api.js";
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
  CONSOLE_SPACES_PATH,
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

type ConsoleRoutesOptions = {
  folio: Pick<
    Folio,
    "core" | "catalog" | "config" | "coreFor" | "questionnaires" | "documentEvents" | "meaningIndexer" | "linkSigner"
  >;
  /** The space the console opens in, and acts on when a request names none. */
  spaceId: string;
  consoleAssetsDir: string;
  maxUploadBytes: number;
  logger: Logger;
};

/** What the console does within one of its spaces; made once per space and kept (spaces are few). */
type SpaceScope = {
  api: ConsoleApi;
  answers: ConsoleApprovedAnswers;
  questionnaires: QuestionnaireApi;
  documentStreams: ConsoleDocumentStreams;
};

function createSpaceScopes(options: ConsoleRoutesOptions): {
  scopeOf(spaceId: string): SpaceScope;
  closeStreams(): void;
} {
  const { folio, logger } = options;
  // Shared by every space: the caps are on what this process receives at once, whichever space it is for.
  const questionnaireReceiving = createReceiveGate(folio.config.questionnaire.maxReceiving);
  const uploadReceiving = createReceiveGate(MAX_CONCURRENT_UPLOADS);
  const scopes = new Map<string, SpaceScope>();
  const create = (spaceId: string): SpaceScope => ({
    api: createConsoleApi({
      core: folio.coreFor("console"),
      history: createConsoleHistory({ dataDir: folio.config.dataDir, spaceId, logger }),
      spaceId,
      librarySpaceId: folio.config.librarySpaceId,
      maxUploadBytes: options.maxUploadBytes,
      countSections: async (documentId) => (await folio.catalog.listChunks(documentId)).length,
      ...(folio.meaningIndexer
        ? { meaningProgressOf: folio.meaningIndexer.progressOf, meaningFailed: folio.meaningIndexer.hasFailed }
        : {}),
      uploadReceiving,
      logger,
    }),
    answers: createConsoleApprovedAnswers({
      core: folio.coreFor("console"),
      spaceId,
      maxUploadBytes: options.maxUploadBytes,
      logger,
      receiving: questionnaireReceiving,
    }),
    questionnaires: createQuestionnaireApi({
      questionnaires: folio.questionnaires,
      maxBytes: folio.config.questionnaire.maxBytes,
      fixedSpaceId: spaceId,
      receiving: questionnaireReceiving,
      downloads: { linkSigner: folio.linkSigner },
    }),
    documentStreams: createConsoleDocumentStreams({ events: folio.documentEvents, spaceId }),
  });
  return {
    scopeOf(spaceId) {
      let scope = scopes.get(spaceId);
      if (!scope) {
        scope = create(spaceId);
        scopes.set(spaceId, scope);
      }
      return scope;
    },
    closeStreams() {
      for (const scope of scopes.values()) scope.documentStreams.closeAll();
    },
  };
}

export function createConsoleRoutes(options: ConsoleRoutesOptions): ConsoleRoutes {
  const { folio, logger } = options;
  const consoleHosts: ConsoleHosts = {
    publicHost: new URL(folio.config.publicUrl).hostname.toLowerCase(),
    allowedHosts: folio.config.consoleAllowedHosts,
  };
  const spaces = createConsoleSpaces({
    catalog: folio.catalog,
    core: folio.coreFor("console"),
    defaultSpaceId: options.spaceId,
    logger,
  });
  const scopes = createSpaceScopes(options);

  const handled = async (work: void | Promise<void>): Promise<true> => {
    await work;
    return true;
  };

  /** The console's own requests within a space (`?space=`), once access is granted; false for other paths. */
  const routeInSpace = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const method = request.method ?? "GET";
    const { pathname } = url;
    const scope = () => spaces.resolve(url).then((spaceId) => scopes.scopeOf(spaceId));
    if (CONSOLE_QUESTIONNAIRE_PATHS.has(pathname)) {
      const { questionnaires } = await scope();
      if (await questionnaires.handle(request, response, url, pathname.slice("/api/".length))) return true;
    }
    if (method === "GET") {
      if (pathname === "/api/history") return handled((await scope()).api.history(response));
      if (pathname === "/api/documents") return handled((await scope()).api.documents(response));
      if (pathname === CONSOLE_ANSWERS_PATH) return handled((await scope()).answers.list(response));
      if (pathname === CONSOLE_DOCUMENT_EVENTS_PATH) return handled((await scope()).documentStreams.open(response));
    }
    if (method === "POST") {
      if (pathname === "/api/upload") return handled((await scope()).api.upload(request, response, url));
      if (pathname === "/api/ask") return handled((await scope()).api.ask(request, response));
      if (pathname === "/api/conversation") return handled((await scope()).api.startConversation(response));
      if (pathname === CONSOLE_ANSWERS_PATH) return handled((await scope()).answers.add(request, response, url));
    }
    if (method === "DELETE" && pathname.startsWith(CONSOLE_ANSWER_PREFIX)) {
      const id = pathname.slice(CONSOLE_ANSWER_PREFIX.length);
      return handled((await scope()).answers.remove(response, id));
    }
    if (
      method === "DELETE" &&
      pathname.startsWith(CONSOLE_DOCUMENT_PREFIX) &&
      pathname !== CONSOLE_DOCUMENT_EVENTS_PATH
    ) {
      // Document ids are UUIDs: nothing in one needs decoding, and a malformed escape must not cost a 500.
      const id = pathname.slice(CONSOLE_DOCUMENT_PREFIX.length);
      return handled((await scope()).api.deleteDocument(response, id));
    }
    return false;
  };

  /** The console's own requests, once access is granted; false for a path that is not one of them. */
  const route = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    const method = request.method ?? "GET";
    const { pathname } = url;
    const asset = CONSOLE_ASSETS[pathname];
    if (method === "GET" && asset) return handled(serveConsoleAsset(response, options.consoleAssetsDir, asset));
    if (pathname === CONSOLE_SPACES_PATH) {
      if (method === "GET") return handled(spaces.list(response));
      if (method === "POST") return handled(spaces.create(request, response));
    }
    if (method === "PATCH" && pathname.startsWith(CONSOLE_SPACE_PREFIX_PATH)) {
      return handled(spaces.rename(request, response, pathname.slice(CONSOLE_SPACE_PREFIX_PATH.length)));
    }
    return routeInSpace(request, response, url);
  };

  return {
    async serve(request, response, url) {
      const { pathname } = url;
      const isConsolePath =
        CONSOLE_API_PATHS.has(pathname) ||
        CONSOLE_ASSETS[pathname] !== undefined ||
        pathname.startsWith(CONSOLE_DOCUMENT_PREFIX) ||
        pathname.startsWith(CONSOLE_ANSWER_PREFIX) ||
        pathname.startsWith(CONSOLE_SPACE_PREFIX_PATH);
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
    closeStreams: () => scopes.closeStreams(),
  };
}
