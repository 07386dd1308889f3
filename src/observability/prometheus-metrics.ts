/**
 * The metrics port implemented with prom-client, exposed at GET /metrics in Prometheus' text format.
 * Each instance owns a private registry (never prom-client's global one), so tests can run several
 * servers in one process and nothing else in the process can add to what Folio exposes.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { FolioMetrics, MetricsExposition, QuestionStage } from "./metrics.js";

/** Seconds: from a cached sparse search (milliseconds) to an LLM answer on a CPU (minutes). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const INGESTION_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const RATE_BUCKETS = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500];

/** Stage names as Prometheus label values (snake_case, as PromQL users expect). */
const STAGE_LABELS: Record<QuestionStage, string> = {
  retrieval: "retrieval",
  embed: "embed",
  rerank: "rerank",
  generation: "generation",
  total: "total",
  timeToFirstToken: "time_to_first_token",
};

export type PrometheusMetrics = FolioMetrics & MetricsExposition;

export function createPrometheusMetrics(options: { processMetrics?: boolean } = {}): PrometheusMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const questions = new Counter({
    name: "folio_questions_total",
    help: "Questions finished, by the adapter that asked and how they ended (answered, noContext, error, cancelled).",
    labelNames: ["adapter", "outcome"] as const,
    registers,
  });
  const questionsInFlight = new Gauge({
    name: "folio_questions_in_flight",
    help: "Questions being answered right now.",
    labelNames: ["adapter"] as const,
    registers,
  });
  const questionStages = new Histogram({
    name: "folio_question_stage_duration_seconds",
    help: "Time per stage of answering a question: retrieval (embed and rerank are parts of it), generation, total, and time to the first answer text.",
    labelNames: ["stage"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const ingestionJobs = new Counter({
    name: "folio_ingestion_jobs_total",
    help: "Files ingested, by adapter and outcome (ingested, unchanged, rejected, error).",
    labelNames: ["adapter", "outcome"] as const,
    registers,
  });
  const ingestionInFlight = new Gauge({
    name: "folio_ingestion_jobs_in_flight",
    help: "Files being ingested right now.",
    registers,
  });
  const ingestionPages = new Counter({
    name: "folio_ingestion_pages_total",
    help: "Pages (or sections) of newly ingested files; rate() of it is pages per second.",
    registers,
  });
  const ingestionDuration = new Histogram({
    name: "folio_ingestion_duration_seconds",
    help: "Time to ingest one file, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: INGESTION_BUCKETS,
    registers,
  });
  const ingestionPagesPerSecond = new Histogram({
    name: "folio_ingestion_pages_per_second",
    help: "Pages per second of each newly ingested file (parse, chunk, embed and store).",
    buckets: RATE_BUCKETS,
    registers,
  });
  const llmQueueDepth = new Gauge({
    name: "folio_llm_queue_depth",
    help: "Questions waiting for a free language-model sequence.",
    registers,
  });
  const llmTokens = new Counter({
    name: "folio_llm_generated_tokens_total",
    help: "Tokens written by the language model.",
    registers,
  });
  const llmTokensPerSecond = new Histogram({
    name: "folio_llm_tokens_per_second",
    help: "Generation speed of each answer, from its first token to its last.",
    buckets: RATE_BUCKETS,
    registers,
  });
  const duplicateEvents = new Counter({
    name: "folio_chat_events_deduplicated_total",
    help: "Chat events and file shares skipped because another delivery (a retry, another replica) already took them.",
    labelNames: ["adapter"] as const,
    registers,
  });
  const refusedRequests = new Counter({
    name: "folio_http_requests_refused_total",
    help: "Requests refused for back-pressure (busy) or because the server is shutting down (draining).",
    labelNames: ["reason", "route"] as const,
    registers,
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    questionStarted(adapter) {
      questionsInFlight.inc({ adapter });
    },
    questionFinished({ adapter, outcome, stagesMs }) {
      questionsInFlight.dec({ adapter });
      questions.inc({ adapter, outcome });
      for (const [stage, milliseconds] of Object.entries(stagesMs) as Array<[QuestionStage, number | undefined]>) {
        if (milliseconds !== undefined) questionStages.observe({ stage: STAGE_LABELS[stage] }, milliseconds / 1000);
      }
    },
    ingestionStarted() {
      ingestionInFlight.inc();
    },
    ingestionFinished({ adapter, outcome, pages, durationMs }) {
      ingestionInFlight.dec();
      ingestionJobs.inc({ adapter, outcome });
      ingestionDuration.observe({ outcome }, durationMs / 1000);
      if (outcome === "ingested" && pages > 0) {
        ingestionPages.inc(pages);
        if (durationMs > 0) ingestionPagesPerSecond.observe(pages / (durationMs / 1000));
      }
    },
    duplicateEventSkipped(adapter) {
      duplicateEvents.inc({ adapter });
    },
    languageModelQueueDepth(depth) {
      llmQueueDepth.set(depth);
    },
    languageModelGenerated({ tokens, durationMs }) {
      llmTokens.inc(tokens);
      if (tokens > 0 && durationMs > 0) llmTokensPerSecond.observe(tokens / (durationMs / 1000));
    },
    requestRefused(reason, route) {
      refusedRequests.inc({ reason, route });
    },
  };
}
