/**
 * What every request goes through before and after its route: a request id (logged and returned as
 * X-Request-Id), one log line when it finishes, a path that must parse, admission by the work gate
 * (probes always answer; busy: 429, shutting down: 503), and one place that turns a failure into
 * `{error:{code,message}}` — a FolioError's own message, anything else a safe sentence.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isFolioError } from "../errors.js";
import type { Logger } from "../logger.js";
import { runInRequestContext } from "../logging/request-context.js";
import type { FolioMetrics } from "../observability/metrics.js";
import { CONSOLE_DOCUMENT_EVENTS_PATH } from "./console-routes.js";
import { sendJsonError } from "./http-responses.js";
import { PROBE_PATHS } from "./probe-endpoints.js";
import { sendRefusal, type WorkGate } from "./work-gate.js";

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

export type Dispatch = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>;

export function createRequestHandler(options: {
  logger: Logger;
  gate: WorkGate;
  metrics: Pick<FolioMetrics, "requestRefused">;
  dispatch: Dispatch;
}): (request: IncomingMessage, response: ServerResponse) => void {
  const { gate } = options;
  return (request, response) => {
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
    // A document event stream stays open as long as its tab: it is refused while draining, never counted.
    if (url.pathname === CONSOLE_DOCUMENT_EVENTS_PATH && request.method === "GET" && gate.draining) {
      sendRefusal(response, "draining", gate);
      return;
    }
    if (!PROBE_PATHS.has(url.pathname) && url.pathname !== CONSOLE_DOCUMENT_EVENTS_PATH) {
      const kind = request.method === "POST" && url.pathname === "/api/ask" ? "question" : "other";
      const admission = gate.admit(response, kind);
      if (!admission.admitted) {
        options.metrics.requestRefused(admission.reason, kind === "question" ? "/api/ask" : "other");
        logger.info({ reason: admission.reason, inFlight: gate.inFlight }, "request refused");
        sendRefusal(response, admission.reason, gate);
        return;
      }
    }
    runInRequestContext({ requestId }, () => options.dispatch(request, response, url)).catch((error: unknown) =>
      answerFailure(response, error, requestId, logger),
    );
  };
}

function answerFailure(response: ServerResponse, error: unknown, requestId: string, logger: Logger): void {
  const status = statusOf(error);
  const safe = isFolioError(error)
    ? { code: error.code, message: error.message }
    : { code: "internal_error", message: `Something went wrong on the server (request ${requestId}).` };
  if (status >= 500) {
    logger.error({ code: safe.code, error: error instanceof Error ? error.stack : String(error) }, "request failed");
  } else {
    logger.info({ code: safe.code }, "request refused");
  }
  if (response.headersSent) {
    response.end();
    return;
  }
  sendJsonError(response, status, safe.code, safe.message);
}
