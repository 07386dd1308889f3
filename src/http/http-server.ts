/**
 * Folio's one HTTP server (node:http only): health probes, the signed source viewer, the local web
 * console and its API (console-routes.ts), the local API of `folio ingest|ask|search`, and whatever
 * routes adapters mount (Slack's POST /slack/events). Every request gets a request id, admission and one
 * error format (http-request-handler.ts); every failure answers `{error:{code,message}}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_PARSE_LIMITS } from "../../ingestion/limits.js";
import type { Folio } from "../composition-root.js";
import type { Logger } from "../logger.js";
import type { MetricsExposition } from "../observability/metrics.js";
import { createConsoleRoutes } from "./console-routes.js";
import { createRequestHandler } from "./http-request-handler.js";
import { sendJsonError } from "./http-responses.js";
import type { HttpRoute } from "./http-route.js";
import { describeListenError } from "./listen-error.js";
import { createLocalCliApi, LOCAL_CLI_API_PREFIX } from "./local-cli-api.js";
import { serveProbe } from "./probe-endpoints.js";
import { FILES_PATH_PREFIX, serveSourceFile } from "./source-viewer.js";
import { createWorkGate, type WorkGate } from "./work-gate.js";

export const DEFAULT_CONSOLE_SPACE_ID = "console:default";

export type HttpServerOptions = {
  folio: Pick<Folio, "core" | "catalog" | "linkSigner" | "config" | "isReady" | "retriever" | "sparseVectors"> &
    Pick<Folio, "checkReadiness" | "coreFor" | "metrics" | "questionnaires" | "documentEvents" | "meaningIndexer"> &
    Partial<Pick<Folio, "readDocumentBlocks">>;
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

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const { folio } = options;
  const gate =
    options.gate ?? createWorkGate({ maxConcurrentQuestions: folio.config.operations.maxConcurrentQuestions });
  const consoleRoutes = createConsoleRoutes({
    folio,
    spaceId: options.consoleSpaceId ?? DEFAULT_CONSOLE_SPACE_ID,
    consoleAssetsDir: options.consoleAssetsDir,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_PARSE_LIMITS.maxBytes,
    logger: options.logger,
  });
  const localCliApi = createLocalCliApi({ folio, token: options.localApiToken ?? null });
  const routes = options.routes ?? [];
  const probes = {
    checkReadiness: folio.checkReadiness,
    isDraining: () => gate.draining,
    metrics: options.metricsExposition ?? null,
  };

  const dispatch = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const method = request.method ?? "GET";
    const route = routes.find((candidate) => candidate.method === method && candidate.path === url.pathname);
    if (route) return route.handle(request, response);
    if (method === "GET" && (await serveProbe(url.pathname, response, probes))) return;
    if ((method === "GET" || method === "HEAD") && url.pathname.startsWith(FILES_PATH_PREFIX)) {
      return serveSourceFile({
        url,
        response,
        catalog: folio.catalog,
        linkSigner: folio.linkSigner,
        ...(method === "HEAD" ? { method: "HEAD" as const } : { accept: request.headers.accept }),
        range: request.headers.range,
        ...(folio.readDocumentBlocks ? { readDocumentBlocks: folio.readDocumentBlocks } : {}),
      });
    }
    if (url.pathname.startsWith(LOCAL_CLI_API_PREFIX)) return localCliApi.handle(request, response, url);
    if (await consoleRoutes.serve(request, response, url)) return;
    sendJsonError(response, 404, "not_found", `No route for ${method} ${url.pathname}.`);
  };

  const server = createServer(createRequestHandler({ logger: options.logger, gate, metrics: folio.metrics, dispatch }));

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
        consoleRoutes.closeStreams();
        server.close((error) => (error ? reject(error) : resolve()));
        // Streams in progress (SSE answers) and idle keep-alive sockets would otherwise hold close() open.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
    },
  };
}
