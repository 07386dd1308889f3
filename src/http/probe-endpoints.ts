/**
 * The endpoints orchestrators and scrapers call: GET /healthz (the process answers: liveness),
 * GET /readyz (each dependency as JSON; 503 while one is down or while the server drains for
 * shutdown) and GET /metrics (Prometheus text). They are never refused for load or shutdown.
 */
import type { ServerResponse } from "node:http";
import type { MetricsExposition } from "../observability/metrics.js";
import type { ReadinessReport } from "../observability/readiness.js";
import { sendJson } from "./http-responses.js";

export const PROBE_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

export type ProbeSources = {
  checkReadiness(): Promise<ReadinessReport>;
  /** True once shutdown began: /readyz fails at once so load balancers stop sending work. */
  isDraining(): boolean;
  /** Null: /metrics is not served (404). */
  metrics: MetricsExposition | null;
};

/** Answers a probe path; false when the path is not one (the caller goes on routing). */
export async function serveProbe(pathname: string, response: ServerResponse, sources: ProbeSources): Promise<boolean> {
  if (pathname === "/healthz") {
    response.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    response.end("ok\n");
    return true;
  }
  if (pathname === "/readyz") {
    if (sources.isDraining()) {
      sendJson(response, 503, { ready: false, status: "draining", dependencies: {} });
      return true;
    }
    const report = await sources.checkReadiness();
    sendJson(response, report.ready ? 200 : 503, { ...report, status: report.ready ? "ready" : "not_ready" });
    return true;
  }
  if (pathname === "/metrics" && sources.metrics !== null) {
    const body = await sources.metrics.render();
    response.writeHead(200, { "Content-Type": sources.metrics.contentType, "Cache-Control": "no-store" });
    response.end(body);
    return true;
  }
  return false;
}
