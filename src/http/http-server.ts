/**
 * Folio's one HTTP server (node:http only): health probes, the signed source viewer, the local web
 * console and its API, and whatever routes adapters mount (Slack's POST /slack/events). Every request
 * gets a request id (logged and returned as X-Request-Id); every failure answers `{error:{code,message}}`.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { Folio } from "../composition-root.js";
import { isFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { runInRequestContext } from "../logging/request-context.js";
import type { MetricsExposition } from "../observability/metrics.js";
import { CONSOLE_REQUEST_HEADER, type ConsoleHosts, cameThroughProxy, consoleRefusal } from "./console-access.js";
import { createConsoleApi } from "./console-api.js";
import {
  CONSOLE_ANSWER_PREFIX,
  CONSOLE_ANSWERS_PATH,
  createConsoleApprovedAnswers,
} from "./console-approved-answers.js";
import { createConsoleDocumentStreams } from "./console-document-events.js";
import { createConsoleHistory } from "./console-history.js";
import { sendJsonError } from "./http-responses.js";
import type { HttpRoute } from "./http-route.js";
import { describeListenError } from "./listen-error.js";
import { createLocalCliApi, LOCAL_CLI_API_PREFIX } from "./local-cli-api.js";
import { PROBE_PATHS, serveProbe } from "./probe-endpoints.js";
import { createQuestionnaireApi } from "./questionnaire-api.js";
import { FILES_PATH_PREFIX, serveSourceFile } from "./source-viewer.js";
import { createReceiveGate, createWorkGate, sendRefusal, type WorkGate } from "./work-gate.js";

export const DEFAULT_CONSOLE_SPACE_ID = "console:default";

export type HttpServerOptions = {
  folio: Pick<Folio, "core" | "catalog" | "linkSigner" | "config" | "isReady" | "retriever" | "sparseVectors"> &
    Pick<Folio, "checkReadiness" | "coreFor" | "metrics" | "questionnaires" | "documentEvents" | "meaningIndexer">;
  logger: Logger;
  /** Directory holding index.html, console.css and console.js (adapters/console). */
  consoleAssetsDir: string;
  consoleSpaceId?: string;
  /** Adapter routes, matched before Folio's own by method and exact path. */
  routes?: HttpRoute[];
  /** Largest accepted console upload; defaults to the parsers' own limit. */
  maxUploadBytes?: number;
  /** Served at GET /metrics; absent: no /metrics. */
  metricsExposition?: MetricsExposition;
  /** Admission and drain (src/http/work-gate.ts); one from FOLIO_MAX_CONCURRENT_QUESTIONS when absent. */
  gate?: WorkGate;
  /** Token of the local API `folio ingest|ask|search` use while this server holds the store; absent: off. */
  localApiToken?: string;
};

export type HttpServer = {
  listen(port: number, host?: string): Promise<{ url: string }>;
  close(): Promise<void>;
};

const CONSOLE_ASSETS: Record<string, { file: string; contentType: string }> = {
  "/": { file: "index.html", contentType: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", contentType: "text/html; charset=utf-8" },
  "/console.css": { file: "console.css", contentType: "text/css; charset=utf-8" },
  "/console.js": { file: "console.js", contentType: "text/javascript; charset=utf-8" },
  "/favicon.svg": { file: "favicon.svg", contentType: "image/svg+xml" },
  "/favicon.ico": { file: "favicon.svg", contentType: "image/svg+xml" },
};

/** The console loads nothing from elsewhere: it must work offline and inside a locked-down network. */
const CONSOLE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const CONSOLE_QUESTIONNAIRE_PATHS = new Set([
  "/api/questionnaires",
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
/** The live document list: a long-lived stream, so not admitted as work in progress (see the gate below). */
const CONSOLE_DOCUMENT_EVENTS_PATH = "/api/documents/events";
const CONSOLE_DOCUMENT_PREFIX = "/api/documents/";

const STATUS_BY_CODE: Record<string, number> = {
  invalid_json: 400,
  invalid_question: 400,
  invalid_upload: 400,
  no_file: 400,
  body_too_large: 413,
  file_too_large: 413,
};

function statusOf(error: unknown): number {
  if (!isFolioError(error)) return 500;
  const declared = error.details.status;
  if (typeof declared === "number") return declared;
  return STATUS_BY_CODE[error.code] ?? 500;
}

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const { folio } = options;
  const spaceId = options.consoleSpaceId ?? DEFAULT_CONSOLE_SPACE_ID;
  const consoleHosts: ConsoleHosts = {
    publicHost: new URL(folio.config.publicUrl).hostname.toLowerCase(),
    allowedHosts: folio.config.consoleAllowedHosts,
  };
  const history = createConsoleHistory({ dataDir: folio.config.dataDir, spaceId, logger: options.logger });
  const gate =
    options.gate ?? createWorkGate({ maxConcurrentQuestions: folio.config.operations.maxConcurrentQuestions });
  const consoleApi = createConsoleApi({
    core: folio.coreFor("console"),
    history,
    spaceId,
    librarySpaceId: folio.config.librarySpaceId,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_PARSE_LIMITS.maxBytes,
    countSections: async (documentId) => (await folio.catalog.listChunks(documentId)).length,
    ...(folio.meaningIndexer
      ? { meaningProgressOf: folio.meaningIndexer.progressOf, meaningFailed: folio.meaningIndexer.hasFailed }
      : {}),
    logger: options.logger,
  });
  // Questionnaires and approved answers share one cap on files received and read at once.
  const questionnaireReceiving = createReceiveGate(folio.config.questionnaire.maxReceiving);
  const consoleAnswers = createConsoleApprovedAnswers({
    core: folio.coreFor("console"),
    spaceId,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_PARSE_LIMITS.maxBytes,
    logger: options.logger,
    receiving: questionnaireReceiving,
  });
  const documentStreams = createConsoleDocumentStreams({ events: folio.documentEvents, spaceId });
  const localCliApi = createLocalCliApi({ folio, token: options.localApiToken ?? null });
  const questionnaireApi = createQuestionnaireApi({
    questionnaires: folio.questionnaires,
    maxBytes: folio.config.questionnaire.maxBytes,
    fixedSpaceId: spaceId,
    receiving: questionnaireReceiving,
  });
  const routes = options.routes ?? [];

  const serveAsset = async (response: ServerResponse, asset: { file: string; contentType: string }) => {
    const body = await readFile(path.join(options.consoleAssetsDir, asset.file));
    response.writeHead(200, {
      "Content-Type": asset.contentType,
      "Content-Length": body.byteLength,
      "Content-Security-Policy": CONSOLE_CONTENT_SECURITY_POLICY,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-cache",
    });
    response.end(body);
  };

  const dispatch = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const method = request.method ?? "GET";
    const route = routes.find((candidate) => candidate.method === method && candidate.path === url.pathname);
    if (route) return route.handle(request, response);

    if (method === "GET") {
      const probes = {
        checkReadiness: folio.checkReadiness,
        isDraining: () => gate.draining,
        metrics: options.metricsExposition ?? null,
      };
      if (await serveProbe(url.pathname, response, probes)) return;
      if (url.pathname.startsWith(FILES_PATH_PREFIX)) {
        return serveSourceFile({
          url,
          response,
          catalog: folio.catalog,
          linkSigner: folio.linkSigner,
          range: request.headers.range,
          accept: request.headers.accept,
        });
      }
    }
    if (method === "HEAD" && url.pathname.startsWith(FILES_PATH_PREFIX)) {
      return serveSourceFile({
        url,
        response,
        catalog: folio.catalog,
        linkSigner: folio.linkSigner,
        method: "HEAD",
        range: request.headers.range,
      });
    }
    if (url.pathname.startsWith(LOCAL_CLI_API_PREFIX)) return localCliApi.handle(request, response, url);
    const isConsoleDocument = url.pathname.startsWith(CONSOLE_DOCUMENT_PREFIX);
    const isConsoleAnswer = url.pathname.startsWith(CONSOLE_ANSWER_PREFIX);
    if (CONSOLE_API_PATHS.has(url.pathname) || CONSOLE_ASSETS[url.pathname] || isConsoleDocument || isConsoleAnswer) {
      const refusal = consoleRefusal(
        folio.config.consoleAccess,
        {
          method,
          remoteAddress: request.socket.remoteAddress,
          host: request.headers.host,
          hasConsoleHeader: request.headers[CONSOLE_REQUEST_HEADER] !== undefined,
          viaProxy: cameThroughProxy(request.headers),
          origin: request.headers.origin,
        },
        consoleHosts,
      );
      if (refusal) return sendJsonError(response, refusal.status, refusal.code, refusal.message);
    }
    if (CONSOLE_QUESTIONNAIRE_PATHS.has(url.pathname)) {
      if (await questionnaireApi.handle(request, response, url, url.pathname.slice("/api/".length))) return;
    }
    if (method === "GET") {
      if (url.pathname === "/api/history") return consoleApi.history(response);
      if (url.pathname === "/api/documents") return consoleApi.documents(response);
      if (url.pathname === CONSOLE_ANSWERS_PATH) return consoleAnswers.list(response);
      if (url.pathname === CONSOLE_DOCUMENT_EVENTS_PATH) return documentStreams.open(response);
      const asset = CONSOLE_ASSETS[url.pathname];
      if (asset) return serveAsset(response, asset);
    }
    if (method === "POST") {
      if (url.pathname === "/api/upload") return consoleApi.upload(request, response, url);
      if (url.pathname === "/api/ask") return consoleApi.ask(request, response);
      if (url.pathname === "/api/conversation") return consoleApi.startConversation(response);
      if (url.pathname === CONSOLE_ANSWERS_PATH) return consoleAnswers.add(request, response, url);
    }
    if (method === "DELETE" && isConsoleAnswer) {
      return consoleAnswers.remove(response, url.pathname.slice(CONSOLE_ANSWER_PREFIX.length));
    }
    if (method === "DELETE" && isConsoleDocument && url.pathname !== CONSOLE_DOCUMENT_EVENTS_PATH) {
      // Document ids are UUIDs: nothing in one needs decoding, and a malformed escape must not cost a 500.
      return consoleApi.deleteDocument(response, url.pathname.slice(CONSOLE_DOCUMENT_PREFIX.length));
    }
    sendJsonError(response, 404, "not_found", `No route for ${method} ${url.pathname}.`);
  };

  const server = createServer((request, response) => {
    const requestId = randomUUID();
    const started = performance.now();
    const logger = options.logger.child({ requestId });
    response.setHeader("X-Request-Id", requestId);
    response.on("finish", () => {
      logger.info(
        {
          method: request.method,
          path: (request.url ?? "/").split("?")[0],
          status: response.statusCode,
          latencyMs: Math.round(performance.now() - started),
        },
        "http request",
      );
    });
    let url: URL;
    try {
      url = new URL(request.url ?? "/", "http://folio.local");
    } catch {
      // A request target that is not a URL ("//[") must cost one 400, not the process.
      sendJsonError(response, 400, "invalid_url", "The request path is not a valid URL.");
      return;
    }
    // Probes always answer; other work is admitted by the gate (busy: 429, shutting down: 503). A
    // document event stream stays open as long as its tab: it is refused while draining, never counted.
    if (url.pathname === CONSOLE_DOCUMENT_EVENTS_PATH && request.method === "GET" && gate.draining) {
      sendRefusal(response, "draining", gate);
      return;
    }
    if (!PROBE_PATHS.has(url.pathname) && url.pathname !== CONSOLE_DOCUMENT_EVENTS_PATH) {
      const kind = request.method === "POST" && url.pathname === "/api/ask" ? "question" : "other";
      const admission = gate.admit(response, kind);
      if (!admission.admitted) {
        folio.metrics.requestRefused(admission.reason, kind === "question" ? "/api/ask" : "other");
        logger.info({ reason: admission.reason, inFlight: gate.inFlight }, "request refused");
        sendRefusal(response, admission.reason, gate);
        return;
      }
    }
    runInRequestContext({ requestId }, () => dispatch(request, response, url)).catch((error: unknown) => {
      const status = statusOf(error);
      const safe = isFolioError(error)
        ? { code: error.code, message: error.message }
        : { code: "internal_error", message: `Something went wrong on the server (request ${requestId}).` };
      if (status >= 500) {
        logger.error(
          { code: safe.code, error: error instanceof Error ? error.stack : String(error) },
          "request failed",
        );
      } else {
        logger.info({ code: safe.code }, "request refused");
      }
      if (response.headersSent) {
        response.end();
        return;
      }
      sendJsonError(response, status, safe.code, safe.message);
    });
  });

  return {
    listen(port, host = "127.0.0.1") {
      return new Promise((resolve, reject) => {
        const refuse = (error: NodeJS.ErrnoException) => reject(describeListenError(error, port));
        server.once("error", refuse);
        server.listen(port, host, () => {
          server.off("error", refuse);
          const address = server.address() as AddressInfo;
          const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host;
          resolve({ url: `http://${shownHost}:${address.port}` });
        });
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        // A server that never started listening (its port was taken) has nothing to close.
        if (!server.listening) return resolve();
        documentStreams.closeAll();
        server.close((error) => (error ? reject(error) : resolve()));
        // Streams in progress (SSE answers) and idle keep-alive sockets would otherwise hold close() open.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
    },
  };
}
